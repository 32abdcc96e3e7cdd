// Original file: ../../proto/gateway/control/v1/control.proto

import type { SetEndUserBudgetRequest as _gateway_control_v1_SetEndUserBudgetRequest, SetEndUserBudgetRequest__Output as _gateway_control_v1_SetEndUserBudgetRequest__Output } from '../../../gateway/control/v1/SetEndUserBudgetRequest.js';

export interface ConsoleSetEndUserBudgetRequest {
  'token'?: (string);
  'change'?: (_gateway_control_v1_SetEndUserBudgetRequest | null);
}

export interface ConsoleSetEndUserBudgetRequest__Output {
  'token': (string);
  'change': (_gateway_control_v1_SetEndUserBudgetRequest__Output | null);
}
