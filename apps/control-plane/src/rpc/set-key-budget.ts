import { GatewayError } from "@gateway/errors";
import type { ApiKey, SetKeyBudgetRequest } from "@gateway/proto";
import type { Updateable } from "kysely";
import type { ControlContext } from "../context.js";
import type { ApiKeysTable } from "../db/schema.js";
import { budgetWindow, keyTags, limitMinor } from "../budgets/rules.js";
import { findProject } from "../budgets/projects.js";
import { toApiKey } from "./keys.js";

/**
 * A key's own cap and window, its project (one of its organization's, or none) and its tags; a field
 * left out keeps its value. Announced as a key change, so every replica evicts the key at once.
 */
export function setKeyBudget(ctx: ControlContext) {
  return async (req: SetKeyBudgetRequest): Promise<ApiKey> => {
    if (!req.key_id) throw new GatewayError("invalid_request", "key_id is required");
    const set: Updateable<ApiKeysTable> = {};
    if (req.limit_minor !== undefined) set.budget_minor = limitMinor(req.limit_minor, "limit_minor");
    if (req.window !== undefined) set.budget_window = budgetWindow(req.window, "window");
    if (req.tags) set.tags = keyTags(req.tags.tags);
    if (Object.keys(set).length === 0 && req.project === undefined) throw new GatewayError("invalid_request", "nothing to change: give limit_minor, window, project or tags");
    const key = await ctx.db.selectFrom("api_keys").select(["id", "org_id"]).where("id", "=", req.key_id).executeTakeFirst();
    if (!key) throw new GatewayError("not_found", `key '${req.key_id}' does not exist`);
    if (req.project !== undefined) set.project_id = req.project === "" ? null : (await findProject(ctx.db, key.org_id, req.project)).id;
    const row = await ctx.db.updateTable("api_keys").set(set).where("id", "=", key.id).returningAll().executeTakeFirstOrThrow();
    ctx.publishChange({ kind: "key", id: row.id, key_hash: row.key_hash });
    return toApiKey(row);
  };
}
