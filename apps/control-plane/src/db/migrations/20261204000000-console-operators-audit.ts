import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Operators and the console's audit log (docs/console.md). An operator is a console member of no
 * organization with the role `operator` (one per address); it acts across organizations from the
 * operator pages. `console_audit` keeps every change made through the console — keys created and
 * revoked, members invited and removed, budgets, top-ups, catalog changes — with who made it (the
 * member's id and address as they were), written in the same transaction as the change where the
 * control-plane makes it. Organization admins read their organization's entries, operators all.
 */
export const consoleOperatorsAudit: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE console_members ALTER COLUMN org_id DROP NOT NULL;
      ALTER TABLE console_members DROP CONSTRAINT console_members_role_check;
      ALTER TABLE console_members ADD CONSTRAINT console_members_role_check
        CHECK (role IN ('admin', 'billing', 'viewer', 'operator') AND (role = 'operator') = (org_id IS NULL));
      CREATE UNIQUE INDEX console_members_operator_email ON console_members (lower(email)) WHERE org_id IS NULL;
      CREATE INDEX console_members_email ON console_members (lower(email));
      CREATE TABLE console_audit (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        org_id text REFERENCES organizations (id),
        actor_id text NOT NULL,
        actor_email text NOT NULL,
        action text NOT NULL,
        target text NOT NULL,
        detail jsonb NOT NULL DEFAULT '{}'
      );
      CREATE INDEX console_audit_org ON console_audit (org_id, id);
      CREATE INDEX console_audit_target ON console_audit (action, target);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`
      DROP TABLE console_audit;
      DROP INDEX console_members_email;
      DROP INDEX console_members_operator_email;
      DELETE FROM console_members WHERE org_id IS NULL;
      ALTER TABLE console_members DROP CONSTRAINT console_members_role_check;
      ALTER TABLE console_members ADD CONSTRAINT console_members_role_check CHECK (role IN ('admin', 'billing', 'viewer'));
      ALTER TABLE console_members ALTER COLUMN org_id SET NOT NULL;
    `.execute(db);
  },
};
