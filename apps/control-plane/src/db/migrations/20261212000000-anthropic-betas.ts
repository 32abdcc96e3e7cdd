import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * The Anthropic betas a model forwards, by allowlist (docs/providers.md, "Anthropic betas"). Until
 * now every beta went through but the 1M-token context; on upgrade a model that serves Messages keeps
 * the betas coding agents send that change what the model may do, not what a token costs. The
 * operator's next catalog apply replaces the list.
 */
export const anthropicBetas: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE models ADD COLUMN anthropic_betas text[] NOT NULL DEFAULT '{}';
      UPDATE models SET anthropic_betas = ARRAY[
        'claude-code-20250219', 'interleaved-thinking-2025-05-14', 'fine-grained-tool-streaming-2025-05-14',
        'context-management-2025-06-27', 'token-efficient-tools-2025-02-19'
      ] WHERE 'messages' = ANY(routes);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE models DROP COLUMN anthropic_betas`.execute(db);
  },
};
