import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Alerts (docs/billing.md, "Alerts"): the thresholds an organization set, kept where the ledger
 * sees the spend — a budget window's percentages of its cap, the account's balances — with the last
 * one announced, and `alerts`, the outbox of crossings: made after the spend that crossed them
 * committed, published on `ledger.v1.alert` (message id = alert id), then marked announced. Columns
 * with constant defaults: no rewrite of `accounts`.
 */
export const alerts: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE budget_windows ADD COLUMN alert_pcts smallint[] NOT NULL DEFAULT '{}', ADD COLUMN alerted_pct smallint NOT NULL DEFAULT 0;
      ALTER TABLE accounts ADD COLUMN balance_alerts_minor bigint[] NOT NULL DEFAULT '{}', ADD COLUMN balance_alerted_minor bigint;
      CREATE TABLE alerts (
        id text PRIMARY KEY,
        org_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('budget', 'balance')),
        scope text,
        window_start timestamptz,
        window_end timestamptz,
        threshold_pct smallint,
        limit_minor bigint,
        spent_minor bigint,
        threshold_minor bigint,
        balance_minor bigint,
        created_at timestamptz NOT NULL DEFAULT now(),
        announced_at timestamptz
      );
      CREATE INDEX alerts_unannounced ON alerts (created_at) WHERE announced_at IS NULL;
      CREATE INDEX alerts_org ON alerts (org_id, created_at);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`
      DROP TABLE alerts;
      ALTER TABLE accounts DROP COLUMN balance_alerts_minor, DROP COLUMN balance_alerted_minor;
      ALTER TABLE budget_windows DROP COLUMN alert_pcts, DROP COLUMN alerted_pct;
    `.execute(db);
  },
};
