import type { GetCatalogDocumentResponse } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { catalogDocument } from "./console-operator.js";

/** `gatewayctl catalog show`: the catalog as the document `catalog apply` takes, so it can be edited and applied back. */
export function getCatalogDocument(ctx: ControlContext) {
  return async (): Promise<GetCatalogDocumentResponse> => {
    const { version, document } = await catalogDocument(ctx.db);
    return { version, document_json: JSON.stringify(document, null, 2) };
  };
}
