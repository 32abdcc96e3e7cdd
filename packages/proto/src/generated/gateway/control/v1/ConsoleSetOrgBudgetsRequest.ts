// Original file: ../../proto/gateway/control/v1/control.proto

import type { SetOrgBudgetsRequest as _gateway_control_v1_SetOrgBudgetsRequest, SetOrgBudgetsRequest__Output as _gateway_control_v1_SetOrgBudgetsRequest__Output } from '../../../gateway/control/v1/SetOrgBudgetsRequest.js';

export interface ConsoleSetOrgBudgetsRequest {
  'token'?: (string);
  'change'?: (_gateway_control_v1_SetOrgBudgetsRequest | null);
}

export interface ConsoleSetOrgBudgetsRequest__Output {
  'token': (string);
  'change': (_gateway_control_v1_SetOrgBudgetsRequest__Output | null);
}
