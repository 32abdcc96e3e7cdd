// Original file: ../../proto/gateway/control/v1/control.proto

import type { ConsoleMember as _gateway_control_v1_ConsoleMember, ConsoleMember__Output as _gateway_control_v1_ConsoleMember__Output } from '../../../gateway/control/v1/ConsoleMember.js';
import type { Long } from '@grpc/proto-loader';

export interface SignInLink {
  'token'?: (string);
  'expires_at_ms'?: (number | string | Long);
  'member'?: (_gateway_control_v1_ConsoleMember | null);
}

export interface SignInLink__Output {
  'token': (string);
  'expires_at_ms': (number);
  'member': (_gateway_control_v1_ConsoleMember__Output | null);
}
