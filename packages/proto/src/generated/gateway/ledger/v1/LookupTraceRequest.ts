// Original file: ../../proto/gateway/ledger/v1/ledger.proto


export interface LookupTraceRequest {
  'request_id'?: (string);
  'grant'?: (string);
}

export interface LookupTraceRequest__Output {
  'request_id': (string);
  'grant': (string);
}
