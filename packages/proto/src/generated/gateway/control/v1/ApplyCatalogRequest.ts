// Original file: ../../proto/gateway/control/v1/control.proto


export interface ApplyCatalogRequest {
  'document_json'?: (string);
}

export interface ApplyCatalogRequest__Output {
  'document_json': (string);
}
