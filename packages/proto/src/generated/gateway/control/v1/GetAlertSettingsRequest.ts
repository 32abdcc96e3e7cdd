// Original file: ../../proto/gateway/control/v1/control.proto


export interface GetAlertSettingsRequest {
  'org'?: (string);
}

export interface GetAlertSettingsRequest__Output {
  'org': (string);
}
