import { sql, type Kysely } from "kysely";

export { sql, type Kysely };
export { createDb, type DbOptions } from "./connect.js";
export { migrate, prepareSchema, requireSchema, runMigrateStep, SchemaBehindError, type Migration, type MigrateOptions, type MigrationSettings } from "./migrate.js";

/** Runs `fn` in a transaction: `db`'s own when it already is one (Kysely does not nest them), a new one otherwise. */
export function inTransaction<DB, T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
export { createDbHealth, isConnectionError, unavailableWhenDbDown, type DbHealth, type DbHealthOptions } from "./health.js";
