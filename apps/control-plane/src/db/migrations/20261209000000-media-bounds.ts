import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Media bounds, in prompt tokens, for inputs whose bytes say little about what providers bill: the
 * most one PDF page, one second of video or audio sent as a file, one media part given by a URL the
 * gateway cannot size, and the results of one web search can cost. 0 = not declared (the data-plane
 * refuses that kind of input). And the prompt tokens a provider adds when tools are offered (0: none).
 */
export const mediaBounds: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE models ADD COLUMN max_input_tokens_per_pdf_page bigint NOT NULL DEFAULT 0 CHECK (max_input_tokens_per_pdf_page >= 0);
      ALTER TABLE models ADD COLUMN max_input_tokens_per_media_second bigint NOT NULL DEFAULT 0 CHECK (max_input_tokens_per_media_second >= 0);
      ALTER TABLE models ADD COLUMN max_input_tokens_per_url_part bigint NOT NULL DEFAULT 0 CHECK (max_input_tokens_per_url_part >= 0);
      ALTER TABLE models ADD COLUMN max_input_tokens_per_web_search bigint NOT NULL DEFAULT 0 CHECK (max_input_tokens_per_web_search >= 0);
      ALTER TABLE models ADD COLUMN tool_prompt_tokens bigint NOT NULL DEFAULT 0 CHECK (tool_prompt_tokens >= 0);
      -- What a model took before keeps working after the upgrade, now bounded (docs/operations.md,
      -- "Media bounds on upgrade"): a model with a search price held its searches' fees, and now holds
      -- their results at 8,000 tokens a search; a model that takes images took PDFs by their bytes,
      -- and now holds them at 3,000 tokens a page. The operator's next catalog apply replaces both.
      UPDATE models SET max_input_tokens_per_web_search = 8000 WHERE web_search_price_minor IS NOT NULL;
      UPDATE models SET max_input_tokens_per_pdf_page = 3000 WHERE max_input_tokens_per_image > 0;
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE models DROP COLUMN max_input_tokens_per_pdf_page, DROP COLUMN max_input_tokens_per_media_second,
        DROP COLUMN max_input_tokens_per_url_part, DROP COLUMN max_input_tokens_per_web_search, DROP COLUMN tool_prompt_tokens
    `.execute(db);
  },
};
