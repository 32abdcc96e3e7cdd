// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface ConsoleSetBudgetRequest {
  'token'?: (string);
  'monthly_budget_minor'?: (number | string | Long);
}

export interface ConsoleSetBudgetRequest__Output {
  'token': (string);
  'monthly_budget_minor': (number);
}
