import { sql, type Kysely, type Migration } from "@gateway/db";
import { editedApplyUsageBatch } from "./apply-function.js";

/** The three places apply_usage_batch names a record's last column: the insert, the select, the record type. */
const EDITS: [string, string][] = [
  ["attempt_outcome, attempt_ms, basis, catalog_version)", "attempt_outcome, attempt_ms, basis, catalog_version, route_pin)"],
  ["r.attempt_outcome, r.attempt_ms, r.basis, r.catalog_version\n", "r.attempt_outcome, r.attempt_ms, r.basis, r.catalog_version, r.route_pin\n"],
  ["attempt_ms integer, basis text, catalog_version bigint)", "attempt_ms integer, basis text, catalog_version bigint, route_pin text)"],
];

/**
 * Usage records say whether an agent session's turn landed on the deployment its session was
 * pinned to (UsageEventV1 route_pin: docs/providers.md, "Cache-warm routing"): NULL for a request
 * with no session pin (and for records before it). A nullable column without a default: no rewrite
 * of the partitions. apply_usage_batch stores it, edited in place as 20261213000000 did (a ledger of
 * the previous release calling it sends none: jsonb_to_recordset reads NULL).
 */
export const usageRoutePin: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE usage_records ADD COLUMN route_pin text`.execute(db);
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
    await sql`ALTER TABLE usage_records DROP COLUMN route_pin`.execute(db);
  },
};
