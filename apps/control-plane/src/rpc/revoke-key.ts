import { GatewayError } from "@gateway/errors";
import type { ApiKey, RevokeKeyRequest } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { toApiKey } from "./keys.js";

/** Revokes (idempotent) and announces it so every replica evicts the key within about a second. */
export function revokeKey(ctx: ControlContext) {
  return async (req: RevokeKeyRequest): Promise<ApiKey> => {
    if (!req.key_id) throw new GatewayError("invalid_request", "key_id is required");
    await ctx.db.updateTable("api_keys").set({ revoked_at: new Date() }).where("id", "=", req.key_id).where("revoked_at", "is", null).execute();
    const row = await ctx.db.selectFrom("api_keys").selectAll().where("id", "=", req.key_id).executeTakeFirst();
    if (!row) throw new GatewayError("not_found", `key '${req.key_id}' does not exist`);
    ctx.publishChange({ kind: "key", id: row.id, key_hash: row.key_hash });
    return toApiKey(row);
  };
}
