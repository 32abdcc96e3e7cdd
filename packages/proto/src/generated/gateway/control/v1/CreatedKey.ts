// Original file: ../../proto/gateway/control/v1/control.proto

import type { ApiKey as _gateway_control_v1_ApiKey, ApiKey__Output as _gateway_control_v1_ApiKey__Output } from '../../../gateway/control/v1/ApiKey.js';

export interface CreatedKey {
  'key'?: (_gateway_control_v1_ApiKey | null);
  'secret'?: (string);
}

export interface CreatedKey__Output {
  'key': (_gateway_control_v1_ApiKey__Output | null);
  'secret': (string);
}
