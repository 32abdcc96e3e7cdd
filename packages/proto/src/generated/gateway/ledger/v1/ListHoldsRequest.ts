// Original file: ../../proto/gateway/ledger/v1/ledger.proto


export interface ListHoldsRequest {
  'org_id'?: (string);
}

export interface ListHoldsRequest__Output {
  'org_id': (string);
}
