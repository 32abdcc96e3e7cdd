// Original file: ../../proto/gateway/control/v1/control.proto

import type { SetAlertSettingsRequest as _gateway_control_v1_SetAlertSettingsRequest, SetAlertSettingsRequest__Output as _gateway_control_v1_SetAlertSettingsRequest__Output } from '../../../gateway/control/v1/SetAlertSettingsRequest.js';

export interface ConsoleSetAlertSettingsRequest {
  'token'?: (string);
  'change'?: (_gateway_control_v1_SetAlertSettingsRequest | null);
}

export interface ConsoleSetAlertSettingsRequest__Output {
  'token': (string);
  'change': (_gateway_control_v1_SetAlertSettingsRequest__Output | null);
}
