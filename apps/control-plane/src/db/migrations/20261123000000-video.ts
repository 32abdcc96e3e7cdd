import { sql, type Kysely, type Migration } from "@gateway/db";

/** Video models (spec column), the fal provider kind and the video job records. */
export const video: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE models ADD COLUMN video jsonb`.execute(db);
    await sql`ALTER TABLE providers DROP CONSTRAINT IF EXISTS providers_kind_check`.execute(db);
    await sql`ALTER TABLE providers ADD CONSTRAINT providers_kind_check CHECK (kind IN ('openai', 'anthropic', 'openai-compatible', 'fal'))`.execute(db);
    await sql`
      CREATE TABLE video_jobs (
        id text PRIMARY KEY,
        org_id text NOT NULL REFERENCES organizations(id),
        key_id text NOT NULL,
        model text NOT NULL,
        provider text NOT NULL,
        upstream_model text NOT NULL,
        upstream_job_id text NOT NULL,
        upstream_json jsonb NOT NULL DEFAULT '{}',
        request_json jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'in_progress', 'completed', 'failed', 'cancelled')),
        progress integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
        error_code text NOT NULL DEFAULT '',
        error_message text NOT NULL DEFAULT '',
        outputs_json jsonb NOT NULL DEFAULT '[]',
        duration_s integer NOT NULL CHECK (duration_s > 0),
        resolution text NOT NULL,
        audio boolean NOT NULL DEFAULT false,
        price_minor_per_second bigint NOT NULL CHECK (price_minor_per_second >= 0),
        max_cost_minor bigint NOT NULL CHECK (max_cost_minor >= 0),
        lease_id text NOT NULL,
        cost_minor bigint NOT NULL DEFAULT 0 CHECK (cost_minor >= 0),
        settled boolean NOT NULL DEFAULT false,
        trace_id text NOT NULL DEFAULT '',
        guardrails jsonb NOT NULL DEFAULT '[]',
        claimed_by text,
        claim_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        refreshed_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`.execute(db);
    // The reconciler's scan: unsettled jobs by refresh time (finished and settled jobs drop out).
    await sql`CREATE INDEX video_jobs_unsettled ON video_jobs (refreshed_at) WHERE NOT settled`.execute(db);
    await sql`CREATE INDEX video_jobs_org ON video_jobs (org_id, created_at)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE video_jobs`.execute(db);
    await sql`ALTER TABLE providers DROP CONSTRAINT IF EXISTS providers_kind_check`.execute(db);
    await sql`ALTER TABLE providers ADD CONSTRAINT providers_kind_check CHECK (kind IN ('openai', 'anthropic', 'openai-compatible'))`.execute(db);
    await sql`ALTER TABLE models DROP COLUMN video`.execute(db);
  },
};
