import { GatewayError } from "@gateway/errors";
import type { EnableModelsRequest, Org } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { findOrg, toOrg } from "../orgs.js";

export function enableModels(ctx: ControlContext) {
  return async (req: EnableModelsRequest): Promise<Org> => {
    const org = await findOrg(ctx.db, req.org);
    const models = [...new Set(req.models.map((m) => m.trim()).filter(Boolean))];
    if (models.length === 0) throw new GatewayError("invalid_request", "at least one model id is required");
    const known = await ctx.db.selectFrom("models").select("id").where("id", "in", models).execute();
    const missing = models.find((m) => !known.some((k) => k.id === m));
    if (missing) throw new GatewayError("not_found", `model '${missing}' is not in the catalog`);
    await ctx.db
      .insertInto("org_models")
      .values(models.map((model_id) => ({ org_id: org.id, model_id })))
      .onConflict((oc) => oc.columns(["org_id", "model_id"]).doNothing())
      .execute();
    ctx.publishChange({ kind: "org", id: org.id });
    return toOrg(ctx.db, org);
  };
}
