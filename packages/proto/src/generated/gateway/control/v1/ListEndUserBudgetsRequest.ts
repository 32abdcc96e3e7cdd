// Original file: ../../proto/gateway/control/v1/control.proto


export interface ListEndUserBudgetsRequest {
  'org'?: (string);
}

export interface ListEndUserBudgetsRequest__Output {
  'org': (string);
}
