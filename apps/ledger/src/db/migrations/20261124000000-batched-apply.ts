import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Batched usage application:
 * - usage is journaled per batch ("posting"), one entry per organization plus revenue; each usage
 *   record names the posting that carried its cost (`journal_txn_id`);
 * - a closed lease keeps its hold until the consumer has applied everything published before
 *   `settle_after` (see docs/billing.md, "When a hold is released");
 * - events that can never be applied are kept in `dead_letters` for the billing team.
 */
export const batchedApply: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE usage_records ADD COLUMN journal_txn_id text;
      ALTER TABLE leases ADD COLUMN settle_after timestamptz;
      UPDATE leases SET settle_after = released_at WHERE status <> 'open';
      DROP INDEX IF EXISTS leases_released_pending;
      CREATE INDEX leases_unsettled ON leases (settle_after) WHERE status <> 'open' AND remaining_minor > 0;
      CREATE TABLE dead_letters (
        id bigserial PRIMARY KEY,
        payload_sha256 text NOT NULL UNIQUE,
        subject text NOT NULL,
        stream_seq bigint NOT NULL,
        request_id text,
        org_id text,
        reason text NOT NULL CHECK (reason IN ('invalid', 'rejected')),
        error text NOT NULL,
        payload bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX dead_letters_org ON dead_letters (org_id, id);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`
      DROP TABLE dead_letters;
      DROP INDEX leases_unsettled;
      ALTER TABLE leases DROP COLUMN settle_after;
      ALTER TABLE usage_records DROP COLUMN journal_txn_id;
    `.execute(db);
  },
};
