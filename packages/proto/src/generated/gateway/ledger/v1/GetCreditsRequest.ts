// Original file: ../../proto/gateway/ledger/v1/ledger.proto


export interface GetCreditsRequest {
  'org_id'?: (string);
}

export interface GetCreditsRequest__Output {
  'org_id': (string);
}
