// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface SetProjectBudgetRequest {
  'org'?: (string);
  'project'?: (string);
  'limit_minor'?: (number | string | Long);
  'window'?: (string);
  '_limit_minor'?: "limit_minor";
  '_window'?: "window";
}

export interface SetProjectBudgetRequest__Output {
  'org': (string);
  'project': (string);
  'limit_minor'?: (number);
  'window'?: (string);
  '_limit_minor'?: "limit_minor";
  '_window'?: "window";
}
