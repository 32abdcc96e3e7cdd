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

/** How long a migration waits for the transactions that may still run the function as it was, ms. */
const OLD_CALLS_WAIT_MS = 120_000;

/** Waits until every transaction of this database that began before now has ended (throws past OLD_CALLS_WAIT_MS: the migrate step tries again). */
export async function oldTransactionsEnded(db: Kysely<unknown>): Promise<void> {
  const since = (await sql<{ now: Date }>`SELECT clock_timestamp() AS now`.execute(db)).rows[0]!.now;
  const until = Date.now() + OLD_CALLS_WAIT_MS;
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND xact_start < ${since}`.execute(db);
    if (rows[0]!.n === 0) return;
    if (Date.now() > until) throw new Error(`${rows[0]!.n} transaction(s) begun before the apply function changed are still open: try the migrate step again`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
