import { setTimeout as sleep } from "node:timers/promises";
import { sql, type Kysely } from "kysely";
import { createDb } from "./connect.js";
import { isConnectionError } from "./health.js";

/**
 * One schema change. By default it runs in a transaction of its own, recorded as applied in the same
 * transaction. `transaction: false` runs it on a plain connection, for what Postgres refuses inside
 * one (`CREATE INDEX CONCURRENTLY`) and for backfills in bounded batches: such a migration must be
 * safe to run again after it stopped part-way (each step checks whether it is done; a batch loop
 * resumes from what is there), since it is recorded only once it returns.
 */
export interface Migration {
  // biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema (Kysely's own Migration type says the same).
  up(db: Kysely<any>): Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  down?(db: Kysely<any>): Promise<void>;
  transaction?: boolean;
}

export interface MigrateOptions {
  /**
   * Wait for an unreachable Postgres (retrying with backoff) until this aborts, instead of failing.
   * A migration that fails for any other reason still throws at once.
   */
  signal?: AbortSignal;
  /** Told before each wait (log it). */
  onRetry?: (err: unknown, delayMs: number) => void;
  /** Told as each migration starts and ends. */
  onProgress?: (event: { migration: string; phase: "start" | "done" | "lock_wait"; ms?: number }) => void;
  /** Longest statement, ms (0: none). A migration run by the service at start keeps its pool's. */
  statementTimeoutMs?: number;
  /**
   * Longest wait for a table lock, ms: a DDL statement queued behind a long transaction would make
   * every insert queue behind it. Past this the statement gives up, and the migration is tried
   * again after a pause (up to `lockAttempts` times).
   */
  lockTimeoutMs?: number;
  lockAttempts?: number;
}

/** Longest pause between two attempts to reach a dependency, ms. */
const MAX_BACKOFF_MS = 5_000;

/**
 * Applies the listed migrations not applied yet, in name order, each recorded in
 * `<schema>.kysely_migration` (the table Kysely's migrator kept, so schemas it migrated carry on).
 * One run at a time per schema (a session advisory lock): a second `migrate` waits for the first.
 */
export function migrate(db: Kysely<unknown>, schema: string, migrations: Record<string, Migration>, o: MigrateOptions = {}): Promise<void> {
  return whenReachable(() => migrateOnce(db, schema, migrations, o), o);
}

/** `fn`, tried again while Postgres is unreachable when `o.signal` is given (until it aborts). */
async function whenReachable<T>(fn: () => Promise<T>, o: Pick<MigrateOptions, "signal" | "onRetry">): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!o.signal || !isConnectionError(err)) throw err;
      const delayMs = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt);
      o.onRetry?.(err, delayMs);
      // Rejects with the signal's AbortError when the service is stopped while waiting.
      await sleep(delayMs, undefined, { signal: o.signal });
    }
  }
}

/** The names of the migrations the schema ran (none when it has no migration table yet). */
async function appliedMigrations(db: Kysely<unknown>, schema: string): Promise<Set<string>> {
  const table = await sql<{ exists: boolean }>`SELECT to_regclass(${`${schema}.kysely_migration`}) IS NOT NULL AS exists`.execute(db);
  if (!table.rows[0]?.exists) return new Set();
  return new Set((await sql<{ name: string }>`SELECT name FROM ${sql.id(schema, "kysely_migration")}`.execute(db)).rows.map((r) => r.name));
}

const LOCK_NOT_AVAILABLE = "55P03";

async function migrateOnce(db: Kysely<unknown>, schema: string, migrations: Record<string, Migration>, o: MigrateOptions): Promise<void> {
  await db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(hashtext(${`${schema}.migrate`}))`.execute(conn);
    try {
      // Only when missing: even CREATE SCHEMA IF NOT EXISTS needs CREATE on the database, which a role
      // given its schema by deploy/postgres/roles.sql does not have.
      const exists = await sql`SELECT 1 FROM pg_namespace WHERE nspname = ${schema}`.execute(conn);
      if (exists.rows.length === 0) await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(conn);
      await sql`CREATE TABLE IF NOT EXISTS ${sql.id(schema, "kysely_migration")} (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)`.execute(conn);
      const pending = await pendingMigrations(conn, schema, migrations);
      if (pending.length === 0) return;
      if (o.statementTimeoutMs !== undefined) await sql`SELECT set_config('statement_timeout', ${String(o.statementTimeoutMs)}, false)`.execute(conn);
      await sql`SELECT set_config('lock_timeout', ${String(o.lockTimeoutMs ?? 0)}, false)`.execute(conn);
      for (const name of pending) await applyOne(conn, schema, name, migrations[name]!, o);
    } finally {
      await sql`RESET lock_timeout; RESET statement_timeout`.execute(conn).catch(() => undefined);
      await sql`SELECT pg_advisory_unlock(hashtext(${`${schema}.migrate`}))`.execute(conn).catch(() => undefined);
    }
  });
}

async function applyOne(conn: Kysely<unknown>, schema: string, name: string, m: Migration, o: MigrateOptions): Promise<void> {
  const started = Date.now();
  o.onProgress?.({ migration: name, phase: "start" });
  const record = (db: Kysely<unknown>) => sql`INSERT INTO ${sql.id(schema, "kysely_migration")} (name, timestamp) VALUES (${name}, ${new Date().toISOString()})`.execute(db);
  for (let attempt = 1; ; attempt++) {
    try {
      if (m.transaction === false) {
        await m.up(conn);
        await record(conn);
      } else {
        await conn.transaction().execute(async (trx) => {
          await m.up(trx);
          await record(trx);
        });
      }
      o.onProgress?.({ migration: name, phase: "done", ms: Date.now() - started });
      return;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code !== LOCK_NOT_AVAILABLE || attempt >= (o.lockAttempts ?? 60)) {
        throw new Error(`migration ${name} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      // Gave way to the traffic: a long transaction holds the table. Try again shortly.
      o.onProgress?.({ migration: name, phase: "lock_wait", ms: Date.now() - started });
      await sleep(Math.min(MAX_BACKOFF_MS, 200 * attempt));
    }
  }
}

/**
 * The migrations listed here that the schema has not run, in order. A schema a newer release
 * migrated (migrations this list does not know) is accepted as it is when it ran every one listed
 * here: migrations are additive (docs/operations.md, "Compatibility between releases"), so an
 * older replica runs on it during a rolling upgrade or after a rollback. One that ran newer
 * migrations but lacks some of ours is refused: nothing says they still apply.
 */
async function pendingMigrations(db: Kysely<unknown>, schema: string, migrations: Record<string, Migration>): Promise<string[]> {
  const done = await appliedMigrations(db, schema);
  const pending = Object.keys(migrations)
    .filter((name) => !done.has(name))
    .sort();
  const unknown = [...done].filter((name) => !(name in migrations));
  if (unknown.length > 0 && pending.length > 0) {
    throw new Error(`schema ${schema} has migrations this release does not know (${unknown.join(", ")}) but lacks some of its own: refusing to guess`);
  }
  return pending;
}

/** A service started on a schema its migrations have not all reached. */
export class SchemaBehindError extends Error {
  constructor(
    readonly schema: string,
    readonly missing: string[],
  ) {
    super(`schema ${schema} lacks ${missing.length} migration(s) this release needs (${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""}): run the migrate step first`);
  }
}

/**
 * Throws a {@link SchemaBehindError} unless the schema ran every listed migration (it may have run
 * newer ones). Waits for an unreachable Postgres as {@link migrate} does. Read-only: a service
 * never changes its schema by itself.
 */
export function requireSchema(db: Kysely<unknown>, schema: string, migrations: Record<string, Migration>, o: Pick<MigrateOptions, "signal" | "onRetry"> = {}): Promise<void> {
  return whenReachable(async () => {
    const done = await appliedMigrations(db, schema);
    const missing = Object.keys(migrations)
      .filter((name) => !done.has(name))
      .sort();
    if (missing.length > 0) throw new SchemaBehindError(schema, missing);
  }, o);
}

/** How a service treats its schema's migrations (its `*_MIGRATE_*` settings). */
export interface MigrationSettings {
  /** Apply them as the service starts (development and tests); otherwise only check the migrate step ran. */
  onStart: boolean;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * What a service does with its schema as it starts: applies the migrations (`onStart`) or checks
 * that the migrate step applied them, waiting (until `signal` aborts) for an unreachable Postgres.
 */
export function prepareSchema(db: Kysely<unknown>, schema: string, migrations: Record<string, Migration>, settings: MigrationSettings, log: Log, signal: AbortSignal): Promise<void> {
  const onRetry = (err: unknown, delayMs: number) => log.warn({ err, retry_in_ms: delayMs }, "Postgres unreachable; waiting for it");
  if (!settings.onStart) return requireSchema(db, schema, migrations, { signal, onRetry });
  return migrate(db, schema, migrations, { signal, onRetry, lockTimeoutMs: settings.lockTimeoutMs, onProgress: progressLog(log) });
}

/** The migrate step (a service's `migrate` command, the manifests' Job): applies its migrations on a connection of its own with its own timeouts. */
export async function runMigrateStep(o: { url: string; schema: string; migrations: Record<string, Migration>; settings: MigrationSettings; log: Log }): Promise<void> {
  const db = createDb<unknown>({ url: o.url, schema: o.schema, poolMax: 1, statementTimeoutMs: o.settings.statementTimeoutMs });
  try {
    const started = Date.now();
    await migrate(db, o.schema, o.migrations, { statementTimeoutMs: o.settings.statementTimeoutMs, lockTimeoutMs: o.settings.lockTimeoutMs, onProgress: progressLog(o.log) });
    o.log.info({ schema: o.schema, ms: Date.now() - started }, "schema migrated");
  } finally {
    await db.destroy();
  }
}

const progressLog =
  (log: Log) =>
  (e: { migration: string; phase: string; ms?: number }): void => {
    if (e.phase === "lock_wait") log.warn(e, "migration gave way to a lock held by the traffic; trying again");
    else log.info(e, e.phase === "start" ? "migration started" : "migration applied");
  };
