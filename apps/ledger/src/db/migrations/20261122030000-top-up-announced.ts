import { sql, type Kysely, type Migration } from "@gateway/db";

/** Top-ups are announced on JetStream from this outbox column, so no announcement is ever lost. */
export const topUpAnnounced: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE top_ups ADD COLUMN announced_at timestamptz;
      UPDATE top_ups SET announced_at = created_at;
      CREATE INDEX top_ups_unannounced ON top_ups (created_at) WHERE announced_at IS NULL;
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE top_ups DROP COLUMN announced_at`.execute(db);
  },
};
