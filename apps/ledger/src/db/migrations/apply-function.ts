import { sql, type Kysely } from "@gateway/db";

/** apply_usage_batch as it is now in the database, with `edits` made (each exactly once). */
export async function editedApplyUsageBatch(db: Kysely<unknown>, edits: [string, string][]): Promise<string> {
  const { rows } = await sql<{ def: string }>`SELECT pg_get_functiondef('apply_usage_batch(jsonb,text)'::regprocedure) AS def`.execute(db);
  let def = rows[0]!.def;
  for (const [from, to] of edits) {
    const at = def.indexOf(from);
    if (at < 0 || def.indexOf(from, at + 1) >= 0) throw new Error(`apply_usage_batch: expected "${from.trim()}" exactly once`);
    def = def.slice(0, at) + to + def.slice(at + from.length);
  }
  return def;
}
