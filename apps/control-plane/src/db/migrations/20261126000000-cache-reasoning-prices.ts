import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Prices of prompt-cache reads, prompt-cache writes and reasoning tokens, minor credit units per
 * million tokens. NULL = not set: cache reads and writes at the input price, reasoning at the output
 * price (what every request was billed before these prices existed).
 */
export const cacheReasoningPrices: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE models ADD COLUMN cached_input_price_minor_per_mtok bigint CHECK (cached_input_price_minor_per_mtok >= 0);
      ALTER TABLE models ADD COLUMN cache_write_price_minor_per_mtok bigint CHECK (cache_write_price_minor_per_mtok >= 0);
      ALTER TABLE models ADD COLUMN reasoning_price_minor_per_mtok bigint CHECK (reasoning_price_minor_per_mtok >= 0);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE models DROP COLUMN cached_input_price_minor_per_mtok, DROP COLUMN cache_write_price_minor_per_mtok, DROP COLUMN reasoning_price_minor_per_mtok`.execute(db);
  },
};
