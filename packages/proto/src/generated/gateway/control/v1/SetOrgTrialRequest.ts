// Original file: ../../proto/gateway/control/v1/control.proto


export interface SetOrgTrialRequest {
  'org'?: (string);
  'in_trial'?: (boolean);
}

export interface SetOrgTrialRequest__Output {
  'org': (string);
  'in_trial': (boolean);
}
