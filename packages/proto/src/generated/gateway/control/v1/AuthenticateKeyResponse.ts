// Original file: ../../proto/gateway/control/v1/control.proto

import type { KeyContext as _gateway_control_v1_KeyContext, KeyContext__Output as _gateway_control_v1_KeyContext__Output } from '../../../gateway/control/v1/KeyContext.js';

export interface AuthenticateKeyResponse {
  'found'?: (boolean);
  'key'?: (_gateway_control_v1_KeyContext | null);
}

export interface AuthenticateKeyResponse__Output {
  'found': (boolean);
  'key': (_gateway_control_v1_KeyContext__Output | null);
}
