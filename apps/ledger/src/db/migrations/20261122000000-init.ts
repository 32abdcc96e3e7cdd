import { sql, type Kysely, type Migration } from "@gateway/db";

export const init: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE accounts (
        org_id text PRIMARY KEY,
        balance_minor bigint NOT NULL DEFAULT 0,
        held_minor bigint NOT NULL DEFAULT 0 CHECK (held_minor >= 0),
        spent_minor bigint NOT NULL DEFAULT 0 CHECK (spent_minor >= 0),
        topped_up_minor bigint NOT NULL DEFAULT 0 CHECK (topped_up_minor >= 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE leases (
        id text PRIMARY KEY,
        org_id text NOT NULL REFERENCES accounts(org_id),
        holder text NOT NULL,
        granted_minor bigint NOT NULL DEFAULT 0 CHECK (granted_minor >= 0),
        remaining_minor bigint NOT NULL DEFAULT 0 CHECK (remaining_minor >= 0),
        applied_minor bigint NOT NULL DEFAULT 0 CHECK (applied_minor >= 0),
        status text NOT NULL CHECK (status IN ('open', 'released', 'expired')),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        released_at timestamptz
      );
      CREATE INDEX leases_open_expiry ON leases (expires_at) WHERE status = 'open';
      CREATE INDEX leases_released_pending ON leases (released_at) WHERE status = 'released' AND remaining_minor > 0;
      CREATE TABLE usage_records (
        request_id text PRIMARY KEY,
        org_id text NOT NULL,
        key_id text NOT NULL,
        model text NOT NULL,
        route text NOT NULL,
        provider text NOT NULL,
        upstream_model text NOT NULL,
        lease_id text NOT NULL,
        input_tokens bigint NOT NULL,
        output_tokens bigint NOT NULL,
        cached_input_tokens bigint NOT NULL DEFAULT 0,
        estimated boolean NOT NULL DEFAULT false,
        cost_minor bigint NOT NULL CHECK (cost_minor >= 0),
        input_price_minor_per_mtok bigint NOT NULL,
        output_price_minor_per_mtok bigint NOT NULL,
        stream boolean NOT NULL,
        status integer NOT NULL,
        duration_ms integer NOT NULL,
        created_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX usage_records_org_created ON usage_records (org_id, created_at);
      CREATE TABLE top_ups (
        id text PRIMARY KEY,
        org_id text NOT NULL,
        amount_minor bigint NOT NULL CHECK (amount_minor > 0),
        idempotency_key text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE journal_entries (
        id bigserial PRIMARY KEY,
        txn_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('usage', 'top_up')),
        account text NOT NULL,
        amount_minor bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX journal_entries_txn ON journal_entries (txn_id);
      CREATE INDEX journal_entries_account ON journal_entries (account, id);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE journal_entries, top_ups, usage_records, leases, accounts`.execute(db);
  },
};
