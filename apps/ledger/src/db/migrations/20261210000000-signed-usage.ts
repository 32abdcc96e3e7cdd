import { sql, type Kysely, type Migration } from "@gateway/db";

/** Usage messages a data-plane did not sign (`unsigned`) or whose signature does not verify (`forged`) are set aside too (docs/security.md). */
export const signedUsage: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE dead_letters DROP CONSTRAINT dead_letters_reason_check;
      ALTER TABLE dead_letters ADD CONSTRAINT dead_letters_reason_check CHECK (reason IN ('invalid', 'rejected', 'unsigned', 'forged'));
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`
      DELETE FROM dead_letters WHERE reason IN ('unsigned', 'forged');
      ALTER TABLE dead_letters DROP CONSTRAINT dead_letters_reason_check;
      ALTER TABLE dead_letters ADD CONSTRAINT dead_letters_reason_check CHECK (reason IN ('invalid', 'rejected'));
    `.execute(db);
  },
};
