import { sql, type Kysely, type Migration } from "@gateway/db";

/** Spend per organization and calendar month (UTC), kept in the usage transaction, for budgets. */
export const monthlySpend: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE monthly_spend (
        org_id text NOT NULL,
        month date NOT NULL,
        spent_minor bigint NOT NULL DEFAULT 0 CHECK (spent_minor >= 0),
        PRIMARY KEY (org_id, month)
      );
      INSERT INTO monthly_spend (org_id, month, spent_minor)
        SELECT org_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, sum(cost_minor) FROM usage_records GROUP BY 1, 2;
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE monthly_spend`.execute(db);
  },
};
