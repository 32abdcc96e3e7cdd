// Original file: ../../proto/gateway/control/v1/control.proto

import type { EndUserBudget as _gateway_control_v1_EndUserBudget, EndUserBudget__Output as _gateway_control_v1_EndUserBudget__Output } from '../../../gateway/control/v1/EndUserBudget.js';

export interface ListEndUserBudgetsResponse {
  'end_users'?: (_gateway_control_v1_EndUserBudget)[];
}

export interface ListEndUserBudgetsResponse__Output {
  'end_users': (_gateway_control_v1_EndUserBudget__Output)[];
}
