import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Reasoning models: whether a model may think before and between its visible tokens without
 * streaming that thinking, and the fastest its provider can generate (output tokens per second,
 * reasoning included; an upper bound), which bounds the hidden reasoning of a stream that ended
 * without the provider's usage. false / 0 = not a reasoning model / not declared. Models priced for
 * reasoning before this are marked reasoning models (no rate: the older bound).
 */
export const reasoningModels: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE models ADD COLUMN reasoning boolean NOT NULL DEFAULT false;
      ALTER TABLE models ADD COLUMN max_output_tokens_per_second bigint NOT NULL DEFAULT 0 CHECK (max_output_tokens_per_second >= 0);
      -- Until now a reasoning price was what marked a reasoning model: those keep being billed their
      -- hidden reasoning (at the output limit less what was seen, having no rate yet) until the
      -- operator's next catalog apply says otherwise.
      UPDATE models SET reasoning = true WHERE reasoning_price_minor_per_mtok IS NOT NULL;
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE models DROP COLUMN reasoning, DROP COLUMN max_output_tokens_per_second`.execute(db);
  },
};
