import { sql, type Kysely, type Migration } from "@gateway/db";

/** The gemini provider kind (Google's Gemini API). Additive: a release before it never writes the kind. */
export const geminiProviderKind: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE providers DROP CONSTRAINT IF EXISTS providers_kind_check`.execute(db);
    await sql`ALTER TABLE providers ADD CONSTRAINT providers_kind_check CHECK (kind IN ('openai', 'anthropic', 'openai-compatible', 'fal', 'gemini'))`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE providers DROP CONSTRAINT IF EXISTS providers_kind_check`.execute(db);
    await sql`ALTER TABLE providers ADD CONSTRAINT providers_kind_check CHECK (kind IN ('openai', 'anthropic', 'openai-compatible', 'fal'))`.execute(db);
  },
};
