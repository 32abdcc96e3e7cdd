// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface SetOrgBudgetsRequest {
  'org'?: (string);
  'time_zone'?: (string);
  'limit_minor'?: (number | string | Long);
  'window'?: (string);
  'end_user_source'?: (string);
  'end_user_limit_minor'?: (number | string | Long);
  'end_user_window'?: (string);
  '_time_zone'?: "time_zone";
  '_limit_minor'?: "limit_minor";
  '_window'?: "window";
  '_end_user_source'?: "end_user_source";
  '_end_user_limit_minor'?: "end_user_limit_minor";
  '_end_user_window'?: "end_user_window";
}

export interface SetOrgBudgetsRequest__Output {
  'org': (string);
  'time_zone'?: (string);
  'limit_minor'?: (number);
  'window'?: (string);
  'end_user_source'?: (string);
  'end_user_limit_minor'?: (number);
  'end_user_window'?: (string);
  '_time_zone'?: "time_zone";
  '_limit_minor'?: "limit_minor";
  '_window'?: "window";
  '_end_user_source'?: "end_user_source";
  '_end_user_limit_minor'?: "end_user_limit_minor";
  '_end_user_window'?: "end_user_window";
}
