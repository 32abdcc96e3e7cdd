// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface ConsoleApplyCatalogRequest {
  'token'?: (string);
  'document_json'?: (string);
  'base_version'?: (number | string | Long);
  'dry_run'?: (boolean);
}

export interface ConsoleApplyCatalogRequest__Output {
  'token': (string);
  'document_json': (string);
  'base_version': (number);
  'dry_run': (boolean);
}
