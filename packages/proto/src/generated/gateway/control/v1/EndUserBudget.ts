// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface EndUserBudget {
  'org_id'?: (string);
  'end_user'?: (string);
  'limit_minor'?: (number | string | Long);
}

export interface EndUserBudget__Output {
  'org_id': (string);
  'end_user': (string);
  'limit_minor': (number);
}
