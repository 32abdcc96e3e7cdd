import { GatewayError } from "@gateway/errors";
import type { Kysely } from "@gateway/db";
import type { Org } from "@gateway/proto";
import type { ControlDb, OrgRow } from "./db/schema.js";

/** An org by id (`org_…`) or by name; not_found otherwise. */
export async function findOrg(db: Kysely<ControlDb>, ref: string): Promise<OrgRow> {
  if (!ref) throw new GatewayError("invalid_request", "an organization id or name is required");
  const row = await db
    .selectFrom("organizations")
    .selectAll()
    .where((eb) => (ref.startsWith("org_") ? eb.or([eb("id", "=", ref), eb("name", "=", ref)]) : eb("name", "=", ref)))
    .executeTakeFirst();
  if (!row) throw new GatewayError("not_found", `organization '${ref}' does not exist`);
  return row;
}

export async function toOrg(db: Kysely<ControlDb>, row: OrgRow): Promise<Org> {
  return (await toOrgs(db, [row]))[0]!;
}

/** Organizations with their enabled models and how many end users have a limit of their own (one query each for all of them). */
export async function toOrgs(db: Kysely<ControlDb>, rows: OrgRow[]): Promise<Org[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [enabled, overrides] = await Promise.all([
    db.selectFrom("org_models").select(["org_id", "model_id"]).where("org_id", "in", ids).orderBy("model_id").execute(),
    db
      .selectFrom("end_user_budgets")
      .select(["org_id", db.fn.countAll<number>().as("n")])
      .where("org_id", "in", ids)
      .groupBy("org_id")
      .execute(),
  ]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    enabled_models: enabled.filter((e) => e.org_id === row.id).map((e) => e.model_id),
    in_trial: row.in_trial,
    created_at_ms: row.created_at.getTime(),
    // For readers of the release before windows: the cap only when it is monthly.
    monthly_budget_minor: row.budget_window === "month" ? row.monthly_budget_minor : 0,
    output_limit: row.output_limit,
    time_zone: row.time_zone,
    budget: { limit_minor: row.monthly_budget_minor, window: row.budget_window },
    end_user_source: row.end_user_source,
    end_user_budget: { limit_minor: row.end_user_budget_minor, window: row.end_user_budget_window },
    end_user_overrides: Number(overrides.find((o) => o.org_id === row.id)?.n ?? 0),
  }));
}
