// Original file: ../../proto/gateway/ledger/v1/ledger.proto


export interface ListAdjustmentsRequest {
  'org_id'?: (string);
  'limit'?: (number);
}

export interface ListAdjustmentsRequest__Output {
  'org_id': (string);
  'limit': (number);
}
