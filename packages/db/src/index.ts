import { setTimeout as sleep } from "node:timers/promises";
import { Kysely, Migrator, PostgresDialect, sql, type Migration, type MigrationProvider } from "kysely";
import pg from "pg";
import { isConnectionError } from "./health.js";

export { sql, type Kysely, type Migration };

/** Runs `fn` in a transaction: `db`'s own when it already is one (Kysely does not nest them), a new one otherwise. */
export function inTransaction<DB, T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
export { createDbHealth, isConnectionError, unavailableWhenDbDown, type DbHealth, type DbHealthOptions } from "./health.js";

/** int8 (bigint) as a JS number: every amount we store stays far below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => (oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text"))) as typeof pg.types.getTypeParser,
};

export interface DbOptions {
  url: string;
  /** The service's own schema; it is the connection's search_path. */
  schema: string;
  poolMax: number;
  /** Statement timeout, ms: no query may hang a request forever. */
  statementTimeoutMs?: number;
  /**
   * Told about a pooled connection that broke outside a query (Postgres restarted under it). Such
   * an error never ends the process: the pool drops that connection and opens a new one when asked.
   */
  onConnectionError?: (err: Error) => void;
}

/** A kysely instance whose connections live in the service's schema. */
export function createDb<T>(o: DbOptions): Kysely<T> {
  const pool = new pg.Pool({
    connectionString: o.url,
    max: o.poolMax,
    types,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    options: `-c search_path=${o.schema} -c statement_timeout=${o.statementTimeoutMs ?? 10_000}`,
  });
  // pg emits 'error' on a connection whose server went away, and on the pool too while it is idle;
  // an 'error' event nobody listens to ends the process. A checked-out connection has no pool
  // listener at all, so every connection gets one of its own for its whole life. Queries on it
  // fail by themselves and the pool discards it on release.
  pool.on("connect", (client) => client.on("error", (err) => o.onConnectionError?.(err)));
  pool.on("error", () => undefined); // already reported by the connection's own listener
  return new Kysely<T>({ dialect: new PostgresDialect({ pool }) });
}

export interface MigrateOptions {
  /**
   * Wait for an unreachable Postgres (retrying with backoff) until this aborts, instead of failing:
   * a service started before its database reports not-ready rather than exiting. A migration that
   * fails for any other reason still throws at once.
   */
  signal?: AbortSignal;
  /** Told before each wait (log it). */
  onRetry?: (err: unknown, delayMs: number) => void;
}

/** Longest pause between two attempts to reach a dependency, ms. */
const MAX_BACKOFF_MS = 5_000;

/** Creates the schema if needed and applies the listed migrations in name order. */
export async function migrate(db: Kysely<unknown>, schema: string, migrations: Record<string, Migration>, o: MigrateOptions = {}): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await migrateOnce(db, schema, migrations);
    } catch (err) {
      if (!o.signal || !isConnectionError(err)) throw err;
      const delayMs = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt);
      o.onRetry?.(err, delayMs);
      // Rejects with the signal's AbortError when the service is stopped while waiting.
      await sleep(delayMs, undefined, { signal: o.signal });
    }
  }
}

async function migrateOnce(db: Kysely<unknown>, schema: string, migrations: Record<string, Migration>): Promise<void> {
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(db);
  if (await newerSchema(db, schema, migrations)) return;
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ""} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * True when a newer release already migrated this schema past every migration listed here: during a
 * rolling upgrade (or a rollback) an older replica starts against it. Migrations are additive (see
 * docs/operations.md, "Compatibility between releases"), so the older code runs on the newer schema
 * as it is; Kysely would refuse it as "corrupted". A schema missing one of ours is still migrated.
 */
async function newerSchema(db: Kysely<unknown>, schema: string, migrations: Record<string, Migration>): Promise<boolean> {
  const table = await sql<{ exists: boolean }>`SELECT to_regclass(${`${schema}.kysely_migration`}) IS NOT NULL AS exists`.execute(db);
  if (!table.rows[0]?.exists) return false;
  const done = new Set((await sql<{ name: string }>`SELECT name FROM ${sql.id(schema, "kysely_migration")}`.execute(db)).rows.map((r) => r.name));
  const ours = Object.keys(migrations);
  const unknown = [...done].filter((name) => !(name in migrations));
  if (unknown.length === 0) return false;
  if (ours.some((name) => !done.has(name))) {
    throw new Error(`schema ${schema} has migrations this release does not know (${unknown.join(", ")}) but lacks some of its own: refusing to guess`);
  }
  return true;
}
