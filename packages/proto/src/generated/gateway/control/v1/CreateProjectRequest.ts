// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateProjectRequest {
  'org'?: (string);
  'name'?: (string);
  'limit_minor'?: (number | string | Long);
  'window'?: (string);
}

export interface CreateProjectRequest__Output {
  'org': (string);
  'name': (string);
  'limit_minor': (number);
  'window': (string);
}
