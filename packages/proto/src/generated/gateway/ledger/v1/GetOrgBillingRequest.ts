// Original file: ../../proto/gateway/ledger/v1/ledger.proto


export interface GetOrgBillingRequest {
  'org_id'?: (string);
}

export interface GetOrgBillingRequest__Output {
  'org_id': (string);
}
