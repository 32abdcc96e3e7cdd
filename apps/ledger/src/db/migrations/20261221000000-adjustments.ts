import { sql, type Kysely, type Migration } from "@gateway/db";
import { editedApplyUsageBatch } from "./apply-function.js";

/** The accounts with promotional credit among the batch's, found while they are locked (step 3): usage draws it first. */
const LOCK_WITH_PROMO: [string, string] = [
  "        PERFORM 1 FROM accounts WHERE org_id = ANY(v_orgs) ORDER BY org_id FOR UPDATE;\n",
  `        SELECT array_agg(a.org_id) FILTER (WHERE a.promo_minor > 0), array_agg(a.promo_minor) FILTER (WHERE a.promo_minor > 0)
        INTO v_porg, v_ppromo
        FROM (SELECT org_id, promo_minor FROM accounts WHERE org_id = ANY(v_orgs) ORDER BY org_id FOR UPDATE) a;
`,
];

const DECLARE: [string, string] = ["        v_bcost bigint[];\n", "        v_bcost bigint[];\n        v_porg text[];\n        v_ppromo bigint[];\n"];

/**
 * Step 5 draws promotional credit before paid credit; 5b moves what each organization drew from its
 * paid journal account to its promotional one within the batch's posting (rare: only organizations
 * holding promotional credit), so `org:<id>` sums to the paid part and `promo:<id>` to promo_minor.
 */
const DRAW_PROMO: [string, string] = [
  "        UPDATE accounts SET balance_minor = accounts.balance_minor - o.cost, spent_minor = accounts.spent_minor + o.cost,\n",
  "        UPDATE accounts SET balance_minor = accounts.balance_minor - o.cost, spent_minor = accounts.spent_minor + o.cost,\n          promo_minor = GREATEST(0, accounts.promo_minor - o.cost),\n",
];
const JOURNAL_PROMO: [string, string] = [
  "        WHERE accounts.org_id = o.org_id;\n      END\n",
  `        WHERE accounts.org_id = o.org_id;

        -- 5b. What each organization drew of its promotional credit (docs/billing.md, "Adjustments"):
        --     its paid account's entry in the posting is lowered by it and its promotional account's made.
        IF v_porg IS NOT NULL AND posted THEN
          WITH drawn AS (
            SELECT p.org_id, LEAST(p.promo, o.cost) AS amount
            FROM unnest(v_porg, v_ppromo) AS p(org_id, promo)
            JOIN (SELECT e.org_id, sum(e.cost) AS cost FROM unnest(v_org, v_cost) AS e(org_id, cost) GROUP BY e.org_id) o ON o.org_id = p.org_id
            WHERE o.cost > 0
          ), paid AS (
            UPDATE journal_entries j SET amount_minor = j.amount_minor + d.amount
            FROM drawn d WHERE j.txn_id = p_posting AND j.account = 'org:' || d.org_id
          )
          INSERT INTO journal_entries (txn_id, kind, account, amount_minor)
          SELECT p_posting, 'usage', 'promo:' || d.org_id, -d.amount FROM drawn d ORDER BY d.org_id;
          -- An organization whose usage promotional credit paid whole has no paid entry left.
          DELETE FROM journal_entries WHERE txn_id = p_posting AND amount_minor = 0;
        END IF;
      END
`,
];

const EDITS: [string, string][] = [DECLARE, LOCK_WITH_PROMO, DRAW_PROMO, JOURNAL_PROMO];

/**
 * Adjustments, postpaid credit and commercial metadata (docs/billing.md, "Adjustments", "Commercial
 * metadata"):
 * - `adjustments`: refunds of a request (whole or part), credit notes, promotional credit granted
 *   and expired, and credit limits set; each idempotent on its key, and (but a limit, which moves no
 *   money) a balanced journal transaction of its own.
 * - `accounts`: the promotional part of the balance (`promo_minor`, drawn before paid credit), what
 *   was granted and expired of it, what refunds and credit notes credited (`adjusted_minor`), and
 *   the credit limit (the balance may go to −limit; leases grant from balance + limit − held). So
 *   balance = topped_up + adjusted + promo_granted − promo_expired − spent. Constant defaults: no
 *   rewrite of the table.
 * - `top_ups`: what was paid for it, in which currency, and the payment and invoice references.
 * - `org_billing`: per organization (and '' for every organization's defaults) the external
 *   customer id, the currency and the price of a credit, and the time zone of its statements.
 * - apply_usage_batch draws promotional credit first (step 5, 5b). Unchanged for every organization
 *   without promotional credit but for one aggregate over the rows it already locks.
 */
export const adjustments: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      -- The tables apply_usage_batch writes, in the order it takes them (the posting's journal entries,
      -- then the accounts): taken the other way, an apply holding the journal and waiting for the
      -- accounts held this migration up until its lock timeout, again and again under steady traffic.
      LOCK TABLE journal_entries, accounts IN ACCESS EXCLUSIVE MODE;
      ALTER TABLE accounts
        ADD COLUMN promo_minor bigint NOT NULL DEFAULT 0 CHECK (promo_minor >= 0),
        ADD COLUMN promo_granted_minor bigint NOT NULL DEFAULT 0,
        ADD COLUMN promo_expired_minor bigint NOT NULL DEFAULT 0,
        ADD COLUMN adjusted_minor bigint NOT NULL DEFAULT 0,
        ADD COLUMN credit_limit_minor bigint NOT NULL DEFAULT 0 CHECK (credit_limit_minor >= 0);
      CREATE TABLE adjustments (
        id text PRIMARY KEY,
        org_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('refund', 'credit_note', 'promo_grant', 'promo_expiry', 'credit_limit')),
        amount_minor bigint NOT NULL CHECK (amount_minor >= 0),
        request_id text,
        grant_id text,
        period text NOT NULL,
        reason text NOT NULL DEFAULT '',
        reference text NOT NULL DEFAULT '',
        made_by text NOT NULL,
        expires_at timestamptz,
        expired_minor bigint NOT NULL DEFAULT 0,
        settled boolean NOT NULL DEFAULT false,
        idempotency_key text UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX adjustments_org ON adjustments (org_id, created_at);
      CREATE INDEX adjustments_refunds ON adjustments (request_id) WHERE kind = 'refund';
      CREATE INDEX adjustments_expiring ON adjustments (expires_at) WHERE kind = 'promo_grant' AND NOT settled AND expires_at IS NOT NULL;
      ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_kind_check;
      ALTER TABLE journal_entries ADD CONSTRAINT journal_entries_kind_check CHECK (kind IN ('usage', 'top_up', 'refund', 'credit_note', 'promo_grant', 'promo_expiry')) NOT VALID;
      ALTER TABLE top_ups ADD COLUMN paid_amount_minor bigint CHECK (paid_amount_minor >= 0), ADD COLUMN paid_currency text,
        ADD COLUMN payment_reference text, ADD COLUMN invoice_reference text;
      CREATE TABLE org_billing (
        org_id text PRIMARY KEY,
        external_customer_id text,
        currency text,
        price_per_credit_micros bigint CHECK (price_per_credit_micros >= 0),
        time_zone text,
        updated_by text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX org_billing_external_customer ON org_billing (external_customer_id) WHERE external_customer_id IS NOT NULL;
    `.execute(db);
    await sql.raw(await editedApplyUsageBatch(db, EDITS)).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql.raw(await editedApplyUsageBatch(db, EDITS.map(([from, to]) => [to, from]).reverse() as [string, string][])).execute(db);
    await sql`
      DROP TABLE org_billing, adjustments;
      ALTER TABLE top_ups DROP COLUMN paid_amount_minor, DROP COLUMN paid_currency, DROP COLUMN payment_reference, DROP COLUMN invoice_reference;
      DELETE FROM journal_entries WHERE kind NOT IN ('usage', 'top_up');
      ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_kind_check;
      ALTER TABLE journal_entries ADD CONSTRAINT journal_entries_kind_check CHECK (kind IN ('usage', 'top_up'));
      ALTER TABLE accounts DROP COLUMN promo_minor, DROP COLUMN promo_granted_minor, DROP COLUMN promo_expired_minor, DROP COLUMN adjusted_minor, DROP COLUMN credit_limit_minor;
    `.execute(db);
  },
};
