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

/** Organizations with their enabled models (one query for all of them). */
export async function toOrgs(db: Kysely<ControlDb>, rows: OrgRow[]): Promise<Org[]> {
  if (rows.length === 0) return [];
  const enabled = await db
    .selectFrom("org_models")
    .select(["org_id", "model_id"])
    .where(
      "org_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("model_id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    enabled_models: enabled.filter((e) => e.org_id === row.id).map((e) => e.model_id),
    in_trial: row.in_trial,
    created_at_ms: row.created_at.getTime(),
    monthly_budget_minor: row.monthly_budget_minor,
    output_limit: row.output_limit,
  }));
}
