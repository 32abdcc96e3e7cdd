import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * The budgets a video job is held under (its dedicated budget leases, with the claim each was made
 * with, so a lapsed one can be held again) and who the job is attributed to (end user, project,
 * tags): its usage event carries both (docs/billing.md, "Budgets").
 */
export const videoBudgets: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE video_jobs ADD COLUMN budgets jsonb NOT NULL DEFAULT '[]', ADD COLUMN attribution jsonb NOT NULL DEFAULT '{}'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE video_jobs DROP COLUMN budgets, DROP COLUMN attribution`.execute(db);
  },
};
