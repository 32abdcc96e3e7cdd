// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface SetTrialPolicyRequest {
  'allowed_models'?: (string)[];
  'unlock_topup_minor'?: (number | string | Long);
}

export interface SetTrialPolicyRequest__Output {
  'allowed_models': (string)[];
  'unlock_topup_minor': (number);
}
