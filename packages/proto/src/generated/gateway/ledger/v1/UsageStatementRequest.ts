// Original file: ../../proto/gateway/ledger/v1/ledger.proto


export interface UsageStatementRequest {
  'org_id'?: (string);
  'month'?: (string);
  'time_zone'?: (string);
}

export interface UsageStatementRequest__Output {
  'org_id': (string);
  'month': (string);
  'time_zone': (string);
}
