// Original file: ../../proto/gateway/ledger/v1/ledger.proto


export interface CheckBooksRequest {
}

export interface CheckBooksRequest__Output {
}
