// Original file: ../../proto/gateway/control/v1/control.proto

import type { SetKeyBudgetRequest as _gateway_control_v1_SetKeyBudgetRequest, SetKeyBudgetRequest__Output as _gateway_control_v1_SetKeyBudgetRequest__Output } from '../../../gateway/control/v1/SetKeyBudgetRequest.js';

export interface ConsoleSetKeyBudgetRequest {
  'token'?: (string);
  'change'?: (_gateway_control_v1_SetKeyBudgetRequest | null);
}

export interface ConsoleSetKeyBudgetRequest__Output {
  'token': (string);
  'change': (_gateway_control_v1_SetKeyBudgetRequest__Output | null);
}
