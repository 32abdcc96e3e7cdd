import { sql, type Kysely, type Migration } from "@gateway/db";
import { editedApplyUsageBatch } from "./apply-function.js";

/** The record's new columns, in the three places apply_usage_batch names its columns, and what its insert returns. */
const COLUMNS: [string, string][] = [
  ["basis, catalog_version, route_pin)", "basis, catalog_version, route_pin, end_user, project_id, tags, budget_leases)"],
  ["r.catalog_version, r.route_pin\n", "r.catalog_version, r.route_pin, r.end_user, r.project_id, r.tags, r.budget_leases\n"],
  ["catalog_version bigint, route_pin text)", "catalog_version bigint, route_pin text, end_user text, project_id text, tags text[], budget_leases text[])"],
  ["reasoning_tokens, absorbed_minor\n        ), rolled AS (", "reasoning_tokens, absorbed_minor, budget_leases\n        ), rolled AS ("],
];

/** Each priced record's budget leases with its cost and organization, gathered with the rest of what the insert returned. */
const GATHER: [string, string][] = [
  ["        v_lcost bigint[];\n", "        v_lcost bigint[];\n        v_budget jsonb;\n        v_bid text[];\n        v_breleased bigint[];\n        v_bcost bigint[];\n"],
  [
    "          array_agg(date_trunc('month', ins.created_at AT TIME ZONE 'UTC')::date)\n        INTO applied, v_org, v_lease, v_cost, v_month\n",
    `          array_agg(date_trunc('month', ins.created_at AT TIME ZONE 'UTC')::date),
          (SELECT jsonb_agg(jsonb_build_array(b.l, i.cost_minor, i.org_id)) FROM ins i
             CROSS JOIN LATERAL (SELECT DISTINCT u AS l FROM unnest(i.budget_leases) AS u) b WHERE i.budget_leases IS NOT NULL AND i.cost_minor > 0)
        INTO applied, v_org, v_lease, v_cost, v_month, v_budget
`,
  ],
];

/** A record's lease_id settles a credit lease only (a budget lease holds no credit). */
const CREDIT_ONLY: [string, string] = [
  "        JOIN leases l ON l.id = d.lease_id AND l.org_id = d.org_id;\n",
  "        JOIN leases l ON l.id = d.lease_id AND l.org_id = d.org_id AND l.scope = '';\n",
];

/** Step 4b: the budget leases and their windows. */
const SPEND_BUDGETS: [string, string] = [
  "        -- 5. Balances, spend and holds.\n",
  `        -- 4b. Budget leases (docs/billing.md, "Budgets"), after the credit leases, in id order, then their
        --     windows in key order: each record's cost is spent from every budget it was held under, and
        --     what its lease held for it is released from that window, as a credit lease's is.
        IF v_budget IS NOT NULL THEN
          PERFORM 1 FROM leases WHERE id IN (SELECT x->>0 FROM jsonb_array_elements(v_budget) AS x) AND scope <> '' ORDER BY id FOR UPDATE;
          SELECT coalesce(array_agg(l.id), '{}'), array_agg(LEAST(d.cost, l.remaining_minor)), array_agg(d.cost)
          INTO v_bid, v_breleased, v_bcost
          FROM (SELECT x->>0 AS lease_id, x->>2 AS org_id, sum((x->>1)::bigint) AS cost FROM jsonb_array_elements(v_budget) AS x GROUP BY 1, 2) d
          JOIN leases l ON l.id = d.lease_id AND l.org_id = d.org_id AND l.scope <> '';
          IF cardinality(v_bid) > 0 THEN
            UPDATE leases SET remaining_minor = leases.remaining_minor - u.released, applied_minor = leases.applied_minor + u.cost
            FROM unnest(v_bid, v_breleased, v_bcost) AS u(id, released, cost)
            WHERE leases.id = u.id;
            PERFORM 1 FROM budget_windows w
            WHERE (w.org_id, w.scope, w.window_start) IN (SELECT l.org_id, l.scope, l.window_start FROM leases l WHERE l.id = ANY(v_bid))
            ORDER BY w.org_id, w.scope, w.window_start FOR UPDATE;
            UPDATE budget_windows w SET spent_minor = w.spent_minor + s.cost, held_minor = GREATEST(0, w.held_minor - s.released)
            FROM (SELECT l.org_id, l.scope, l.window_start, sum(u.cost) AS cost, sum(u.released) AS released
                  FROM unnest(v_bid, v_breleased, v_bcost) AS u(id, released, cost) JOIN leases l ON l.id = u.id GROUP BY 1, 2, 3) s
            WHERE w.org_id = s.org_id AND w.scope = s.scope AND w.window_start = s.window_start;
          END IF;
        END IF;

        -- 5. Balances, spend and holds.
`,
];

const EDITS: [string, string][] = [...COLUMNS, ...GATHER, CREDIT_ONLY, SPEND_BUDGETS];

/**
 * Budgets per organization, key, project and end user, each over a window (docs/billing.md,
 * "Budgets"):
 * - `budget_windows`: per (organization, scope, window start) the spend applied under that budget
 *   and what its open leases hold, as `accounts` is for credit. A window's row is made by the first
 *   lease of the window, its spend seeded from the hourly rollups for the organization's and a key's
 *   budget (spend before the budget was used this window counts), none for a project or an end user.
 * - A lease has a `scope` ("" for credit) and, for a budget, the window it holds in; it expires at
 *   that window's end at the latest.
 * - Records keep the request's end user, project and tags, and the budget leases that held it;
 *   apply_usage_batch spends each priced record from its budgets (step 4b), and a record's lease_id
 *   settles only a credit lease. New nullable columns: no rewrite of the partitions. A ledger of the
 *   previous release calling the function sends none of them (jsonb_to_recordset reads NULL).
 */
export const budgets: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE budget_windows (
        org_id text NOT NULL,
        scope text NOT NULL,
        window_start timestamptz NOT NULL,
        window_end timestamptz,
        limit_minor bigint NOT NULL,
        spent_minor bigint NOT NULL DEFAULT 0,
        held_minor bigint NOT NULL DEFAULT 0 CHECK (held_minor >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, scope, window_start)
      );
      -- In the order apply_usage_batch takes them (records, then leases): taken the other way, an
      -- apply holding the records and waiting for the leases held this migration up until its lock
      -- timeout, again and again under steady traffic.
      ALTER TABLE usage_records ADD COLUMN end_user text, ADD COLUMN project_id text, ADD COLUMN tags text[], ADD COLUMN budget_leases text[];
      ALTER TABLE leases ADD COLUMN scope text NOT NULL DEFAULT '', ADD COLUMN window_start timestamptz, ADD COLUMN window_end timestamptz;
    `.execute(db);
    await sql.raw(await editedApplyUsageBatch(db, EDITS)).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql.raw(await editedApplyUsageBatch(db, EDITS.map(([from, to]) => [to, from]).reverse() as [string, string][])).execute(db);
    await sql`
      ALTER TABLE usage_records DROP COLUMN end_user, DROP COLUMN project_id, DROP COLUMN tags, DROP COLUMN budget_leases;
      ALTER TABLE leases DROP COLUMN scope, DROP COLUMN window_start, DROP COLUMN window_end;
      DROP TABLE budget_windows;
    `.execute(db);
  },
};
