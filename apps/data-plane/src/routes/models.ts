import type { Request, Response } from "express";
import type { DataPlaneContext } from "../context.js";
import { visibleModelIds } from "../catalog/visibility.js";
import { locals } from "../http/request-context.js";

/** GET /v1/models: exactly the models this key may call. */
export function listModels(ctx: DataPlaneContext) {
  return (_req: Request, res: Response): void => {
    const ids = visibleModelIds(locals(res).key!, ctx.catalog.current, ctx.catalog.trialPolicy);
    res.json({ object: "list", data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "gateway" })) });
  };
}
