import { sql, type Kysely, type Migration } from "@gateway/db";

export const init: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE organizations (
        id text PRIMARY KEY,
        name text NOT NULL UNIQUE,
        in_trial boolean NOT NULL DEFAULT true,
        monthly_budget_minor bigint NOT NULL DEFAULT 0 CHECK (monthly_budget_minor >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        org_id text NOT NULL REFERENCES organizations(id),
        name text NOT NULL DEFAULT '',
        key_hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        routes text[] NOT NULL DEFAULT '{}',
        models text[] NOT NULL DEFAULT '{}',
        rpm_limit bigint NOT NULL DEFAULT 0,
        tpm_limit bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_org ON api_keys (org_id, created_at DESC);
      CREATE TABLE providers (
        code text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('openai', 'anthropic', 'openai-compatible')),
        base_url text NOT NULL,
        credential_ref text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE models (
        id text PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('draft', 'published')),
        routes text[] NOT NULL,
        context_window integer NOT NULL CHECK (context_window >= 0),
        max_output_tokens integer NOT NULL CHECK (max_output_tokens >= 0),
        input_price_minor_per_mtok bigint NOT NULL CHECK (input_price_minor_per_mtok >= 0),
        output_price_minor_per_mtok bigint NOT NULL CHECK (output_price_minor_per_mtok >= 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE deployments (
        id serial PRIMARY KEY,
        model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
        provider_code text NOT NULL REFERENCES providers(code),
        upstream_model text NOT NULL,
        priority integer NOT NULL DEFAULT 0,
        weight integer NOT NULL DEFAULT 1
      );
      CREATE INDEX deployments_model ON deployments (model_id, priority);
      CREATE TABLE org_models (
        org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
        PRIMARY KEY (org_id, model_id)
      );
      CREATE TABLE catalog_state (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL);
      INSERT INTO catalog_state VALUES (1, 1);
      CREATE TABLE trial_policy (
        id integer PRIMARY KEY CHECK (id = 1),
        version integer NOT NULL,
        scope text NOT NULL,
        allowed_models text[] NOT NULL,
        unlock_topup_minor bigint NOT NULL CHECK (unlock_topup_minor >= 0)
      );
      INSERT INTO trial_policy VALUES (1, 1, 'chat', '{}', 5000000);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE trial_policy, catalog_state, org_models, deployments, models, providers, api_keys, organizations`.execute(db);
  },
};
