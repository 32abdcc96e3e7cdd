import { sql, type Kysely, type Migration } from "@gateway/db";

/** Price per web search (a server tool the provider bills per use), minor credit units; NULL = not offered. */
export const webSearchPrice: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE models ADD COLUMN web_search_price_minor bigint CHECK (web_search_price_minor >= 0)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE models DROP COLUMN web_search_price_minor`.execute(db);
  },
};
