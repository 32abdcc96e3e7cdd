// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface GetCatalogDocumentResponse {
  'version'?: (number | string | Long);
  'document_json'?: (string);
}

export interface GetCatalogDocumentResponse__Output {
  'version': (number);
  'document_json': (string);
}
