// Original file: ../../proto/gateway/control/v1/control.proto

import type { ApiKey as _gateway_control_v1_ApiKey, ApiKey__Output as _gateway_control_v1_ApiKey__Output } from '../../../gateway/control/v1/ApiKey.js';

export interface ListKeysResponse {
  'keys'?: (_gateway_control_v1_ApiKey)[];
}

export interface ListKeysResponse__Output {
  'keys': (_gateway_control_v1_ApiKey__Output)[];
}
