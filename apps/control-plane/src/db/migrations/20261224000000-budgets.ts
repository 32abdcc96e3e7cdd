import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Budgets at every level (docs/billing.md, "Budgets"): the organization's time zone (windows start at
 * its midnight) and the window of its cap (monthly_budget_minor stays its limit), where its end users
 * are read and their default cap; a key's own cap, its project and its tags; projects, each with a
 * cap over its keys; named end users' own limits (at most 1,000 per organization, enforced by the
 * control-plane). Columns with constant defaults: no rewrite. A key's project is of the key's own
 * organization (the foreign key is on both columns).
 */
export const budgets: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE organizations
        ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC',
        ADD COLUMN budget_window text NOT NULL DEFAULT 'month' CHECK (budget_window IN ('day', 'week', 'month', 'none')),
        ADD COLUMN end_user_source text NOT NULL DEFAULT '' CHECK (end_user_source IN ('', 'body', 'header')),
        ADD COLUMN end_user_budget_minor bigint NOT NULL DEFAULT 0 CHECK (end_user_budget_minor >= 0),
        ADD COLUMN end_user_budget_window text NOT NULL DEFAULT 'month' CHECK (end_user_budget_window IN ('day', 'week', 'month', 'none'));
      CREATE TABLE projects (
        id text PRIMARY KEY,
        org_id text NOT NULL REFERENCES organizations (id),
        name text NOT NULL,
        budget_minor bigint NOT NULL DEFAULT 0 CHECK (budget_minor >= 0),
        budget_window text NOT NULL DEFAULT 'month' CHECK (budget_window IN ('day', 'week', 'month', 'none')),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (org_id, name),
        UNIQUE (org_id, id)
      );
      ALTER TABLE api_keys
        ADD COLUMN budget_minor bigint NOT NULL DEFAULT 0 CHECK (budget_minor >= 0),
        ADD COLUMN budget_window text NOT NULL DEFAULT 'month' CHECK (budget_window IN ('day', 'week', 'month', 'none')),
        ADD COLUMN project_id text,
        ADD COLUMN tags text[] NOT NULL DEFAULT '{}',
        ADD CONSTRAINT api_keys_project FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id);
      CREATE INDEX api_keys_project ON api_keys (project_id) WHERE project_id IS NOT NULL;
      CREATE TABLE end_user_budgets (
        org_id text NOT NULL REFERENCES organizations (id),
        end_user text NOT NULL CHECK (length(end_user) BETWEEN 1 AND 256),
        limit_minor bigint NOT NULL CHECK (limit_minor >= 0),
        PRIMARY KEY (org_id, end_user)
      );
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`
      DROP TABLE end_user_budgets;
      ALTER TABLE api_keys DROP CONSTRAINT api_keys_project, DROP COLUMN budget_minor, DROP COLUMN budget_window, DROP COLUMN project_id, DROP COLUMN tags;
      DROP TABLE projects;
      ALTER TABLE organizations DROP COLUMN time_zone, DROP COLUMN budget_window, DROP COLUMN end_user_source, DROP COLUMN end_user_budget_minor, DROP COLUMN end_user_budget_window;
    `.execute(db);
  },
};
