import { sql, type Kysely, type Migration } from "@gateway/db";
import { editedApplyUsageBatch } from "./apply-function.js";

/** The three places apply_usage_batch names a record's last column: the insert, the select, the record type. */
const EDITS: [string, string][] = [
  ["attempt_outcome, attempt_ms, basis)", "attempt_outcome, attempt_ms, basis, catalog_version)"],
  ["r.attempt_outcome, r.attempt_ms, r.basis\n", "r.attempt_outcome, r.attempt_ms, r.basis, r.catalog_version\n"],
  ["attempt_ms integer, basis text)", "attempt_ms integer, basis text, catalog_version bigint)"],
];

/**
 * Usage records name the catalog version whose prices the data-plane applied (UsageEventV1
 * catalog_version): the version the ledger will check a cost against, and the one the billing
 * team's feed exports. NULL for records before it. apply_usage_batch stores it: the function of
 * 20261206000000-usage-basis with that one column added, edited in place rather than restated
 * (a ledger of the previous release calling it sends none: jsonb_to_recordset reads NULL).
 */
export const usageCatalogVersion: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE usage_records ADD COLUMN catalog_version bigint`.execute(db);
    await sql.raw(await editedApplyUsageBatch(db, EDITS)).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql
      .raw(
        await editedApplyUsageBatch(
          db,
          EDITS.map(([from, to]) => [to, from]),
        ),
      )
      .execute(db);
    await sql`ALTER TABLE usage_records DROP COLUMN catalog_version`.execute(db);
  },
};
