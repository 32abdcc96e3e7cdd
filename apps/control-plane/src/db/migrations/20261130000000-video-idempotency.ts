import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Video create honours Idempotency-Key: a job remembers the key it was created with and the hash
 * of that request, and an organization has at most one job per key (the unique index is what makes
 * two concurrent creates with one key end with one job). A job also keeps the upstream attempts of its
 * submit, which its usage event carries when it is billed.
 */
export const videoIdempotency: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE video_jobs ADD COLUMN idempotency_key text;
      ALTER TABLE video_jobs ADD COLUMN request_hash text NOT NULL DEFAULT '';
      CREATE UNIQUE INDEX video_jobs_org_idempotency ON video_jobs (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
      ALTER TABLE video_jobs ADD COLUMN attempts jsonb NOT NULL DEFAULT '[]';
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX video_jobs_org_idempotency`.execute(db);
    await sql`ALTER TABLE video_jobs DROP COLUMN idempotency_key, DROP COLUMN request_hash, DROP COLUMN attempts`.execute(db);
  },
};
