// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface TrialPolicy {
  'version'?: (number | string | Long);
  'scope'?: (string);
  'allowed_models'?: (string)[];
  'unlock_topup_minor'?: (number | string | Long);
  'policy_hash'?: (string);
}

export interface TrialPolicy__Output {
  'version': (number);
  'scope': (string);
  'allowed_models': (string)[];
  'unlock_topup_minor': (number);
  'policy_hash': (string);
}
