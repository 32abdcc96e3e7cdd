import { sql, type Kysely, type Migration } from "@gateway/db";

/** One guardrail document per organization: the source as written and the normalized rules. */
export const guardrails: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE guardrail_rules (
        org_id text PRIMARY KEY REFERENCES organizations(id),
        document text NOT NULL,
        rules jsonb NOT NULL,
        version bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE guardrail_rules`.execute(db);
  },
};
