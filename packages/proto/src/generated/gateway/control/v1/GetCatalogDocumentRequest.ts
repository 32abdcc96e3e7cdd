// Original file: ../../proto/gateway/control/v1/control.proto


export interface GetCatalogDocumentRequest {
}

export interface GetCatalogDocumentRequest__Output {
}
