import { sql, type Kysely, type Migration } from "@gateway/db";

/** What an output limit above the model's does for an organization: clamp (default) or strict (docs/agents.md). A column with a default: no rewrite. */
export const orgOutputLimit: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE organizations ADD COLUMN output_limit text NOT NULL DEFAULT 'clamp' CHECK (output_limit IN ('clamp', 'strict'))`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE organizations DROP COLUMN output_limit`.execute(db);
  },
};
