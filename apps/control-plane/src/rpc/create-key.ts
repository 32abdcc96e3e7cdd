import { GatewayError } from "@gateway/errors";
import type { CreateKeyRequest, CreatedKey } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { isKeyScope, KEY_SCOPES } from "@gateway/proto";
import { displayPrefix, hashSecret, newId, newSecret } from "../keys/secret.js";
import { findOrg } from "../orgs.js";
import { toApiKey } from "./keys.js";

export function createKey(ctx: ControlContext) {
  return async (req: CreateKeyRequest): Promise<CreatedKey> => {
    const org = await findOrg(ctx.db, req.org);
    const routes = [...new Set(req.routes.map((r) => r.trim()).filter(Boolean))];
    const bad = routes.find((r) => !isKeyScope(r));
    if (bad) throw new GatewayError("invalid_request", `invalid route '${bad}' (one of ${KEY_SCOPES.join(", ")})`);
    const models = [...new Set(req.models.map((m) => m.trim()).filter(Boolean))].sort();
    if (models.length) {
      const known = await ctx.db.selectFrom("models").select("id").where("id", "in", models).execute();
      const missing = models.find((m) => !known.some((k) => k.id === m));
      if (missing) throw new GatewayError("not_found", `model '${missing}' is not in the catalog`);
    }
    const rpm = req.rpm_limit ?? 0;
    const tpm = req.tpm_limit ?? 0;
    if (!Number.isSafeInteger(rpm) || rpm < 0) throw new GatewayError("invalid_request", "rpm_limit must be a non-negative integer");
    if (!Number.isSafeInteger(tpm) || tpm < 0) throw new GatewayError("invalid_request", "tpm_limit must be a non-negative integer");
    if (req.name.length > 128) throw new GatewayError("invalid_request", "name must be at most 128 characters");
    const mcpTools = [...new Set((req.mcp_tools ?? []).map((t) => t.trim()).filter(Boolean))].sort();
    const badTool = mcpTools.find((t) => !/^[a-z0-9][a-z0-9_-]{0,63}\/([A-Za-z0-9_.-]{1,64}|\*)$/.test(t));
    if (badTool) throw new GatewayError("invalid_request", `invalid MCP tool '${badTool}' (server/tool or server/*)`);
    const secret = newSecret();
    const hash = hashSecret(secret);
    const row = await ctx.db
      .insertInto("api_keys")
      .values({
        id: newId("key"),
        org_id: org.id,
        name: req.name,
        key_hash: hash,
        prefix: displayPrefix(secret),
        routes,
        models,
        rpm_limit: rpm,
        tpm_limit: tpm,
        mcp_tools: mcpTools,
        revoked_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // A negative-cache entry for this hash may exist on a replica; evict it.
    ctx.publishChange({ kind: "key", id: row.id, key_hash: hash });
    return { key: toApiKey(row), secret };
  };
}
