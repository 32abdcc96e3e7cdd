import type { Kysely, Migration } from "@gateway/db";

/**
 * Withdrawn (kept so databases that ran it stay in step; 20261205000000 drops what it made): a
 * BRIN index on usage_records.created_at for the console's provider health. On a table filled
 * continuously the newest block ranges stay unsummarised until a vacuum, so the index never
 * narrowed a recent window; provider health reads the (org_id, created_at) index per organization
 * instead (apps/ledger/src/rpc/console-reads.ts).
 */
export const usageCreatedBrin: Migration = {
  async up(_db: Kysely<unknown>) {},
  async down(_db: Kysely<unknown>) {},
};
