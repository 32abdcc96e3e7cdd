import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * A top-up recorded in the console's audit log once per top-up id, even when the console records
 * it from two requests at once (a double-submitted form): the database, not a read-then-write,
 * keeps the entry single. Duplicates left by the earlier check are removed first (the oldest stays).
 */
export const consoleAuditOnce: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      DELETE FROM console_audit a USING console_audit b
        WHERE a.action = 'top_up' AND b.action = 'top_up' AND a.target = b.target AND a.id > b.id;
      CREATE UNIQUE INDEX console_audit_top_up_once ON console_audit (target) WHERE action = 'top_up';
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX console_audit_top_up_once`.execute(db);
  },
};
