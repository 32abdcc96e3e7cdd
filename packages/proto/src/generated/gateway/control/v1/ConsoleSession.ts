// Original file: ../../proto/gateway/control/v1/control.proto

import type { ConsoleMember as _gateway_control_v1_ConsoleMember, ConsoleMember__Output as _gateway_control_v1_ConsoleMember__Output } from '../../../gateway/control/v1/ConsoleMember.js';
import type { ConsoleMoneyFormat as _gateway_control_v1_ConsoleMoneyFormat, ConsoleMoneyFormat__Output as _gateway_control_v1_ConsoleMoneyFormat__Output } from '../../../gateway/control/v1/ConsoleMoneyFormat.js';
import type { Long } from '@grpc/proto-loader';

export interface ConsoleSession {
  'token'?: (string);
  'member'?: (_gateway_control_v1_ConsoleMember | null);
  'expires_at_ms'?: (number | string | Long);
  'idle_timeout_ms'?: (number | string | Long);
  'money'?: (_gateway_control_v1_ConsoleMoneyFormat | null);
}

export interface ConsoleSession__Output {
  'token': (string);
  'member': (_gateway_control_v1_ConsoleMember__Output | null);
  'expires_at_ms': (number);
  'idle_timeout_ms': (number);
  'money': (_gateway_control_v1_ConsoleMoneyFormat__Output | null);
}
