// Original file: ../../proto/gateway/control/v1/control.proto

import type { KeyTags as _gateway_control_v1_KeyTags, KeyTags__Output as _gateway_control_v1_KeyTags__Output } from '../../../gateway/control/v1/KeyTags.js';
import type { Long } from '@grpc/proto-loader';

export interface SetKeyBudgetRequest {
  'key_id'?: (string);
  'limit_minor'?: (number | string | Long);
  'window'?: (string);
  'project'?: (string);
  'tags'?: (_gateway_control_v1_KeyTags | null);
  '_limit_minor'?: "limit_minor";
  '_window'?: "window";
  '_project'?: "project";
}

export interface SetKeyBudgetRequest__Output {
  'key_id': (string);
  'limit_minor'?: (number);
  'window'?: (string);
  'project'?: (string);
  'tags': (_gateway_control_v1_KeyTags__Output | null);
  '_limit_minor'?: "limit_minor";
  '_window'?: "window";
  '_project'?: "project";
}
