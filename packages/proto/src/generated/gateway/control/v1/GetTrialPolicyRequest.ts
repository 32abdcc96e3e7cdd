// Original file: ../../proto/gateway/control/v1/control.proto


export interface GetTrialPolicyRequest {
}

export interface GetTrialPolicyRequest__Output {
}
