// Original file: ../../proto/gateway/control/v1/control.proto


export interface RedeemSignInLinkRequest {
  'token'?: (string);
}

export interface RedeemSignInLinkRequest__Output {
  'token': (string);
}
