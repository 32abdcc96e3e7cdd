import { GatewayError } from "@gateway/errors";
import { inTransaction, sql } from "@gateway/db";
import type { EndUserBudget, ListEndUserBudgetsRequest, ListEndUserBudgetsResponse, SetEndUserBudgetRequest } from "@gateway/proto";
import type { Kysely } from "@gateway/db";
import type { ControlContext } from "../context.js";
import type { ControlDb } from "../db/schema.js";
import { endUserId, limitMinor, MAX_END_USER_OVERRIDES } from "../budgets/rules.js";
import { findOrg } from "../orgs.js";

/**
 * A named end user's own limit over the organization's end-user window, or (remove) back to the
 * default. At most {@link MAX_END_USER_OVERRIDES} per organization: each one travels in every key
 * context of the organization. The organization's row is locked while counting, so two additions
 * at once cannot both take the last place. Announced as an org change.
 */
export function setEndUserBudget(ctx: ControlContext) {
  return async (req: SetEndUserBudgetRequest): Promise<EndUserBudget> => {
    const endUser = endUserId(req.end_user);
    const limit = req.remove ? 0 : limitMinor(req.limit_minor, "limit_minor");
    const org = await findOrg(ctx.db, req.org);
    const row = await inTransaction(ctx.db, async (trx) => {
      await sql`SELECT 1 FROM organizations WHERE id = ${org.id} FOR UPDATE`.execute(trx);
      if (req.remove) {
        const removed = await trx.deleteFrom("end_user_budgets").where("org_id", "=", org.id).where("end_user", "=", endUser).returningAll().executeTakeFirst();
        if (!removed) throw new GatewayError("not_found", `end user '${endUser}' has no limit of its own in organization '${org.name}'`);
        return removed;
      }
      const known = await trx.selectFrom("end_user_budgets").select("end_user").where("org_id", "=", org.id).where("end_user", "=", endUser).executeTakeFirst();
      if (!known) {
        const { n } = await trx.selectFrom("end_user_budgets").select(trx.fn.countAll<number>().as("n")).where("org_id", "=", org.id).executeTakeFirstOrThrow();
        if (Number(n) >= MAX_END_USER_OVERRIDES) {
          throw new GatewayError(
            "invalid_request",
            `organization '${org.name}' already has ${MAX_END_USER_OVERRIDES} end users with a limit of their own, the most it may have: remove one before adding '${endUser}' (the others have the default limit)`,
          );
        }
      }
      return trx
        .insertInto("end_user_budgets")
        .values({ org_id: org.id, end_user: endUser, limit_minor: limit })
        .onConflict((oc) => oc.columns(["org_id", "end_user"]).doUpdateSet({ limit_minor: limit }))
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    ctx.publishChange({ kind: "org", id: org.id });
    return { org_id: row.org_id, end_user: row.end_user, limit_minor: row.limit_minor };
  };
}

export async function endUserBudgetsOf(db: Kysely<ControlDb>, orgId: string): Promise<EndUserBudget[]> {
  return db.selectFrom("end_user_budgets").select(["org_id", "end_user", "limit_minor"]).where("org_id", "=", orgId).orderBy("end_user").execute();
}

export function listEndUserBudgets(ctx: ControlContext) {
  return async (req: ListEndUserBudgetsRequest): Promise<ListEndUserBudgetsResponse> => ({ end_users: await endUserBudgetsOf(ctx.db, (await findOrg(ctx.db, req.org)).id) });
}
