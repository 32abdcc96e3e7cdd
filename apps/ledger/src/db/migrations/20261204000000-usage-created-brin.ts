import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * A BRIN index on usage_records.created_at for the console's reads across every organization
 * (provider health: the attempts of the last hour). Records arrive in about the order they were
 * made, so block ranges summarise the table well; the index is a few pages per gigabyte and costs
 * the apply path next to nothing (a B-tree here would add a write per record).
 */
export const usageCreatedBrin: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE INDEX usage_records_created_brin ON usage_records USING brin (created_at) WITH (pages_per_range = 32, autosummarize = on)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX usage_records_created_brin`.execute(db);
  },
};
