// Original file: ../../proto/gateway/control/v1/control.proto

import type { SetProjectBudgetRequest as _gateway_control_v1_SetProjectBudgetRequest, SetProjectBudgetRequest__Output as _gateway_control_v1_SetProjectBudgetRequest__Output } from '../../../gateway/control/v1/SetProjectBudgetRequest.js';

export interface ConsoleSetProjectBudgetRequest {
  'token'?: (string);
  'change'?: (_gateway_control_v1_SetProjectBudgetRequest | null);
}

export interface ConsoleSetProjectBudgetRequest__Output {
  'token': (string);
  'change': (_gateway_control_v1_SetProjectBudgetRequest__Output | null);
}
