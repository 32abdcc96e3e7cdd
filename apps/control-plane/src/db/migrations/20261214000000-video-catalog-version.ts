import { sql, type Kysely, type Migration } from "@gateway/db";

/** The catalog version a video job was priced on: its usage event names it, and the ledger checks its price against it. */
export const videoCatalogVersion: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE video_jobs ADD COLUMN catalog_version bigint`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE video_jobs DROP COLUMN catalog_version`.execute(db);
  },
};
