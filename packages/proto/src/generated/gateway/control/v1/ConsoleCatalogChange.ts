// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleCatalogChange {
  'kind'?: (string);
  'id'?: (string);
  'change'?: (string);
  'fields_json'?: (string);
}

export interface ConsoleCatalogChange__Output {
  'kind': (string);
  'id': (string);
  'change': (string);
  'fields_json': (string);
}
