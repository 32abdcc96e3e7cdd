// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface SetEndUserBudgetRequest {
  'org'?: (string);
  'end_user'?: (string);
  'limit_minor'?: (number | string | Long);
  'remove'?: (boolean);
}

export interface SetEndUserBudgetRequest__Output {
  'org': (string);
  'end_user': (string);
  'limit_minor': (number);
  'remove': (boolean);
}
