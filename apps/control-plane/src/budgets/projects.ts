import { GatewayError } from "@gateway/errors";
import type { Kysely } from "@gateway/db";
import type { Project } from "@gateway/proto";
import type { ControlDb, ProjectRow } from "../db/schema.js";

/** A project of the organization by id (`proj_…`) or name; another organization's is not_found like a missing one. */
export async function findProject(db: Kysely<ControlDb>, orgId: string, ref: string): Promise<ProjectRow> {
  if (!ref) throw new GatewayError("invalid_request", "a project id or name is required");
  const row = await db
    .selectFrom("projects")
    .selectAll()
    .where("org_id", "=", orgId)
    .where(ref.startsWith("proj_") ? "id" : "name", "=", ref)
    .executeTakeFirst();
  if (!row) throw new GatewayError("not_found", `project '${ref}' does not exist in organization '${orgId}'`);
  return row;
}

/** Projects with how many keys each holds (one query for all of them). */
export async function toProjects(db: Kysely<ControlDb>, rows: ProjectRow[]): Promise<Project[]> {
  if (rows.length === 0) return [];
  const counts = await db
    .selectFrom("api_keys")
    .select(["project_id", db.fn.countAll<number>().as("keys")])
    .where(
      "project_id",
      "in",
      rows.map((r) => r.id),
    )
    .groupBy("project_id")
    .execute();
  return rows.map((p) => ({
    id: p.id,
    org_id: p.org_id,
    name: p.name,
    budget: { limit_minor: p.budget_minor, window: p.budget_window },
    created_at_ms: p.created_at.getTime(),
    keys: Number(counts.find((c) => c.project_id === p.id)?.keys ?? 0),
  }));
}
