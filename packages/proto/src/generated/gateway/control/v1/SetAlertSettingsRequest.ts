// Original file: ../../proto/gateway/control/v1/control.proto

import type { AlertPercentages as _gateway_control_v1_AlertPercentages, AlertPercentages__Output as _gateway_control_v1_AlertPercentages__Output } from '../../../gateway/control/v1/AlertPercentages.js';
import type { AlertAmounts as _gateway_control_v1_AlertAmounts, AlertAmounts__Output as _gateway_control_v1_AlertAmounts__Output } from '../../../gateway/control/v1/AlertAmounts.js';

export interface SetAlertSettingsRequest {
  'org'?: (string);
  'budget_pcts'?: (_gateway_control_v1_AlertPercentages | null);
  'balance_minor'?: (_gateway_control_v1_AlertAmounts | null);
  'webhook_url'?: (string);
  'rotate_secret'?: (boolean);
  'drop_previous_secret'?: (boolean);
  '_webhook_url'?: "webhook_url";
}

export interface SetAlertSettingsRequest__Output {
  'org': (string);
  'budget_pcts': (_gateway_control_v1_AlertPercentages__Output | null);
  'balance_minor': (_gateway_control_v1_AlertAmounts__Output | null);
  'webhook_url'?: (string);
  'rotate_secret': (boolean);
  'drop_previous_secret': (boolean);
  '_webhook_url'?: "webhook_url";
}
