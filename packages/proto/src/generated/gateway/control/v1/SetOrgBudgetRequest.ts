// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface SetOrgBudgetRequest {
  'org'?: (string);
  'monthly_budget_minor'?: (number | string | Long);
}

export interface SetOrgBudgetRequest__Output {
  'org': (string);
  'monthly_budget_minor': (number);
}
