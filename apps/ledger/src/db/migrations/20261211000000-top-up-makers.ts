import { sql, type Kysely, type Migration } from "@gateway/db";

/** Every top-up records who made it: the admin token, or an operator through a grant the control-plane signed (docs/security.md). */
export const topUpMakers: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE top_ups ADD COLUMN made_by text NOT NULL DEFAULT '';
      ALTER TABLE top_ups ADD COLUMN grant_id text UNIQUE;
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE top_ups DROP COLUMN made_by, DROP COLUMN grant_id`.execute(db);
  },
};
