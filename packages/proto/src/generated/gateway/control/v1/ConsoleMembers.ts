// Original file: ../../proto/gateway/control/v1/control.proto

import type { ConsoleMember as _gateway_control_v1_ConsoleMember, ConsoleMember__Output as _gateway_control_v1_ConsoleMember__Output } from '../../../gateway/control/v1/ConsoleMember.js';

export interface ConsoleMembers {
  'members'?: (_gateway_control_v1_ConsoleMember)[];
}

export interface ConsoleMembers__Output {
  'members': (_gateway_control_v1_ConsoleMember__Output)[];
}
