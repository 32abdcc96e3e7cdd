import { sql, type Kysely } from "@gateway/db";
import type { LedgerContext } from "../context.js";
import type { LedgerDb } from "../db/schema.js";

/** Months of partitions kept ready past the current one. */
const MONTHS_AHEAD = 3;
/** Request ids forgotten per statement. */
const PURGE_BATCH = 5_000;
/** A request id is kept this long past the horizon, so an event just inside it still finds its id. */
const PURGE_MARGIN_MS = 24 * 3_600_000;
/** Longest wait for the lock a partition change takes on usage_records, ms: the traffic never queues longer behind it. */
const LOCK_TIMEOUT_MS = 2_000;
const EVERY_MS = 3_600_000;

export interface MaintenanceResult {
  /** Month partitions made ahead. */
  made: number;
  /** Request ids forgotten (older than the deduplication horizon). */
  forgotten: number;
  /** Partitions dropped for retention, by name. */
  dropped: string[];
}

/**
 * The usage records' housekeeping (docs/operations.md, "Usage records: partitions and retention"),
 * hourly and at start, one ledger at a time (a transaction advisory lock; the others skip): month
 * partitions made ahead, request ids forgotten past the deduplication horizon, and with a retention
 * setting, whole months dropped once past both the retention and the horizon. A dropped month's
 * totals stay in the hourly rollups, and `usage_partitioning.retained_from` says where the records
 * begin, so the books still add up (records from there on, rollups before it).
 */
export class RecordsMaintenance {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(private readonly ctx: LedgerContext) {}

  start(): void {
    const run = () => {
      if (this.running) return;
      this.running = this.runOnce()
        .then((r) => {
          if (r.made || r.dropped.length) this.ctx.log.info(r, "usage partitions maintained");
        })
        .catch((err: unknown) => this.ctx.log.warn({ err }, "usage partition maintenance failed; tried again within the hour"))
        .finally(() => (this.running = undefined));
    };
    run();
    this.timer = setInterval(run, EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  async runOnce(now = Date.now()): Promise<MaintenanceResult> {
    const { db, config } = this.ctx;
    const result: MaintenanceResult = { made: 0, forgotten: 0, dropped: [] };
    const partitionsDone = db.transaction().execute(async (trx) => {
      if (!(await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || '.usage_maintenance')) AS ok`.execute(trx)).rows[0]?.ok) return;
      await sql`SELECT set_config('lock_timeout', ${String(LOCK_TIMEOUT_MS)}, true)`.execute(trx);
      result.made = (await sql<{ made: number }>`SELECT ensure_usage_partitions(${MONTHS_AHEAD}) AS made`.execute(trx)).rows[0]?.made ?? 0;
      if (config.retentionMonths > 0) result.dropped = await dropExpired(trx, retentionCutoff(now, config.retentionMonths, config.dedupHorizonMs));
    });
    // Independent of the partition work: a failure there does not keep the ids from being forgotten.
    const failed = await partitionsDone.then(
      () => undefined,
      (err: unknown) => err,
    );
    result.forgotten = await forget(db, new Date(now - config.dedupHorizonMs - PURGE_MARGIN_MS));
    if (failed) throw failed;
    return result;
  }
}

/** The earliest instant kept: the start of the month `months` before this one, and never inside the deduplication horizon. */
export function retentionCutoff(now: number, months: number, horizonMs: number): Date {
  const d = new Date(now);
  const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1);
  return new Date(Math.min(monthStart, now - horizonMs - PURGE_MARGIN_MS));
}

/** Each partition wholly before `cutoff` detached and dropped, retained_from moved to its end in the same transaction. */
async function dropExpired(trx: Kysely<LedgerDb>, cutoff: Date): Promise<string[]> {
  const parts = await partitions(trx);
  const dropped: string[] = [];
  for (const part of parts.filter((p) => p.upper.getTime() <= cutoff.getTime()).sort((a, b) => a.upper.getTime() - b.upper.getTime())) {
    await sql`ALTER TABLE usage_records DETACH PARTITION ${sql.id(part.name)}`.execute(trx);
    await sql`DROP TABLE ${sql.id(part.name)}`.execute(trx);
    await sql`UPDATE usage_partitioning SET retained_from = greatest(coalesce(retained_from, '-infinity'), ${part.upper})`.execute(trx);
    dropped.push(part.name);
  }
  return dropped;
}

/** The month partitions, each with the instant it ends. */
async function partitions(db: Kysely<LedgerDb>): Promise<{ name: string; upper: Date }[]> {
  const rows = await sql<{ name: string; legacy_bound: Date }>`
    SELECT c.relname AS name, p.legacy_bound FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid CROSS JOIN usage_partitioning p
    WHERE i.inhparent = 'usage_records'::regclass`.execute(db);
  // usage_records_2027_01 holds January 2027: it ends where February begins.
  return rows.rows.map((r) => {
    const month = /^usage_records_(\d{4})_(\d{2})$/.exec(r.name);
    return { name: r.name, upper: month ? new Date(Date.UTC(Number(month[1]), Number(month[2]), 1)) : r.legacy_bound };
  });
}

/** Request ids applied before `before` forgotten, a batch per statement. */
async function forget(db: Kysely<LedgerDb>, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await sql`DELETE FROM usage_dedup WHERE ctid = ANY(ARRAY(SELECT ctid FROM usage_dedup WHERE created_at < ${before} LIMIT ${PURGE_BATCH}))`.execute(db);
    const n = Number(r.numAffectedRows ?? 0);
    total += n;
    if (n < PURGE_BATCH) return total;
  }
}
