// Original file: ../../proto/gateway/ledger/v1/ledger.proto


export interface ListBudgetsRequest {
  'org_id'?: (string);
  'scope'?: (string);
}

export interface ListBudgetsRequest__Output {
  'org_id': (string);
  'scope': (string);
}
