import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Alerts (docs/billing.md, "Alerts"). `org_alert_settings`: an organization's thresholds (stated to
 * the ledger with every lease, through KeyContext) and its webhook, whose signing secret is kept
 * sealed (AES-256-GCM under CONTROL_PLANE_SECRETS_KEY), never in the clear, with the secret it
 * replaced while that one still signs beside it (a day after a rotation). `alerts`: every alert
 * the ledger announced, once per alert id (a redelivered announcement finds its row), with its
 * webhook delivery: due at `next_attempt_at` while pending; a replica's claim moves it past the
 * attempt's deadline, so two replicas never make the same attempt.
 */
export const alerts: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE org_alert_settings (
        org_id text PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        budget_pcts integer[] NOT NULL DEFAULT '{}',
        balance_minor bigint[] NOT NULL DEFAULT '{}',
        webhook_url text,
        webhook_secret_sealed text,
        webhook_secret_prefix text,
        secret_created_at timestamptz,
        previous_secret_sealed text,
        previous_secret_until timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((webhook_url IS NULL) = (webhook_secret_sealed IS NULL))
      );
      CREATE TABLE alerts (
        id text PRIMARY KEY,
        org_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('budget', 'balance')),
        event jsonb NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'no_webhook')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_attempt_at timestamptz,
        last_status integer,
        last_error text,
        delivered_at timestamptz
      );
      CREATE INDEX alerts_due ON alerts (next_attempt_at) WHERE state = 'pending';
      CREATE INDEX alerts_org ON alerts (org_id, created_at DESC, id DESC);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE alerts; DROP TABLE org_alert_settings`.execute(db);
  },
};
