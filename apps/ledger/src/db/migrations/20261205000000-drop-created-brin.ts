import { sql, type Kysely, type Migration } from "@gateway/db";

/** Drops the withdrawn BRIN index on usage_records.created_at where 20261204000000 once made it. */
export const dropCreatedBrin: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`DROP INDEX IF EXISTS usage_records_created_brin`.execute(db);
  },
  async down(_db: Kysely<unknown>) {},
};
