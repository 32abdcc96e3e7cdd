import { sql, type Kysely, type Migration } from "@gateway/db";

/** Journal entries are published on JetStream from this outbox column (one message per transaction). */
export const journalPublished: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE journal_entries ADD COLUMN published_at timestamptz;
      CREATE INDEX journal_entries_unpublished ON journal_entries (id) WHERE published_at IS NULL;
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE journal_entries DROP COLUMN published_at`.execute(db);
  },
};
