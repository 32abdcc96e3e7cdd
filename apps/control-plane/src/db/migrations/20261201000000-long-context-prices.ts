import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Long-context pricing: a model may price a request whose prompt is above a threshold (Gemini:
 * 200k tokens) at other input and output prices, every token of it. 0 / NULL = none.
 */
export const longContextPrices: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE models ADD COLUMN long_context_threshold_tokens bigint NOT NULL DEFAULT 0 CHECK (long_context_threshold_tokens >= 0);
      ALTER TABLE models ADD COLUMN long_context_input_price_minor_per_mtok bigint CHECK (long_context_input_price_minor_per_mtok >= 0);
      ALTER TABLE models ADD COLUMN long_context_output_price_minor_per_mtok bigint CHECK (long_context_output_price_minor_per_mtok >= 0);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE models DROP COLUMN long_context_threshold_tokens, DROP COLUMN long_context_input_price_minor_per_mtok, DROP COLUMN long_context_output_price_minor_per_mtok`.execute(db);
  },
};
