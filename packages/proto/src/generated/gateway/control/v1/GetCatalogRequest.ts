// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface GetCatalogRequest {
  'known_version'?: (number | string | Long);
}

export interface GetCatalogRequest__Output {
  'known_version': (number);
}
