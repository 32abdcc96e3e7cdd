import { sql, type Kysely, type Migration } from "@gateway/db";

/** Guardrail outcomes of a request, stored with its usage record: [{plugin, name?, outcome}]. */
export const guardrailOutcomes: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE usage_records ADD COLUMN guardrails jsonb NOT NULL DEFAULT '[]'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE usage_records DROP COLUMN guardrails`.execute(db);
  },
};
