import { Kysely, Migrator, PostgresDialect, sql, type Migration, type MigrationProvider } from "kysely";
import pg from "pg";

export { sql, type Kysely, type Migration };

/** int8 (bigint) as a JS number: every amount we store stays far below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

export interface DbOptions {
  url: string;
  /** The service's own schema; it is the connection's search_path. */
  schema: string;
  poolMax: number;
  /** Statement timeout, ms: no query may hang a request forever. */
  statementTimeoutMs?: number;
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
  return new Kysely<T>({ dialect: new PostgresDialect({ pool }) });
}

/** Creates the schema if needed and applies the listed migrations in name order. */
export async function migrate(db: Kysely<unknown>, schema: string, migrations: Record<string, Migration>): Promise<void> {
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(db);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ""} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
