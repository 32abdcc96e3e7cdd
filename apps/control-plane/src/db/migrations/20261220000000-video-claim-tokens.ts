import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Video holds that cannot lapse (docs/video.md, "Holds"). A claim carries a token of its own, so a
 * replica cannot take a job again while its own earlier claim is still at work on it (a cancel
 * racing that replica's completion). Every unsettled job has a time its hold is next due for
 * renewal, handed to one replica at a time whatever its refresh is doing. A job's recorded cost
 * never exceeds what was held for it.
 */
export const videoClaimTokens: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE video_jobs ADD COLUMN claim_token text;
      ALTER TABLE video_jobs ADD COLUMN hold_due_at timestamptz NOT NULL DEFAULT now();
      CREATE INDEX video_jobs_hold_due ON video_jobs (hold_due_at) WHERE NOT settled;
      ALTER TABLE video_jobs ADD CONSTRAINT video_jobs_cost_within_hold CHECK (cost_minor <= max_cost_minor) NOT VALID;
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE video_jobs DROP CONSTRAINT video_jobs_cost_within_hold`.execute(db);
    await sql`DROP INDEX video_jobs_hold_due`.execute(db);
    await sql`ALTER TABLE video_jobs DROP COLUMN claim_token, DROP COLUMN hold_due_at`.execute(db);
  },
};
