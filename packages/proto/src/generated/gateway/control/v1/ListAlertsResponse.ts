// Original file: ../../proto/gateway/control/v1/control.proto

import type { Alert as _gateway_control_v1_Alert, Alert__Output as _gateway_control_v1_Alert__Output } from '../../../gateway/control/v1/Alert.js';

export interface ListAlertsResponse {
  'alerts'?: (_gateway_control_v1_Alert)[];
  'next_cursor'?: (string);
}

export interface ListAlertsResponse__Output {
  'alerts': (_gateway_control_v1_Alert__Output)[];
  'next_cursor': (string);
}
