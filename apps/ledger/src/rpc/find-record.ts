import { sql, type Kysely } from "@gateway/db";
import type { LedgerDb, UsageRow } from "../db/schema.js";

/**
 * One organization's usage record by request id. Recent months' partitions carry no request id
 * index (one less index to write per record: usage_dedup already maps a recent id to its time),
 * so a recent record is found through usage_dedup, its month's partition and (org_id, created_at);
 * an older one through the request id index its month gets once past the horizon (the legacy
 * table's primary key before the partitioning). Another organization's record is not returned.
 */
export async function findRecord(db: Kysely<LedgerDb>, requestId: string, orgId: string, horizonMs: number): Promise<UsageRow | undefined> {
  const recent = await sql<UsageRow>`
    SELECT u.* FROM usage_records u
    WHERE u.org_id = ${orgId} AND u.request_id = ${requestId}
      AND u.created_at = (SELECT d.created_at FROM usage_dedup d WHERE d.request_id = ${requestId})`.execute(db);
  if (recent.rows[0]) return recent.rows[0];
  // Not remembered: older than the horizon, or not applied. Only the months past the horizon are read.
  const older = await sql<UsageRow>`
    SELECT * FROM usage_records
    WHERE org_id = ${orgId} AND request_id = ${requestId} AND created_at < ${new Date(Date.now() - horizonMs)}`.execute(db);
  return older.rows[0];
}
