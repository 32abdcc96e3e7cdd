// Original file: ../../proto/gateway/control/v1/control.proto


export interface ListOrgsRequest {
}

export interface ListOrgsRequest__Output {
}
