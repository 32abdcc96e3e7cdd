import { sql, type Kysely } from "@gateway/db";
import type { LedgerDb } from "../db/schema.js";

/** What refunds gave back of each of these records, by request id (absent: nothing); one read on the refunds' index. */
export async function refundsOf(db: Kysely<LedgerDb>, records: readonly { request_id: string; org_id: string }[]): Promise<Map<string, number>> {
  if (records.length === 0) return new Map();
  const r = await sql<{ request_id: string; org_id: string; s: string }>`
    SELECT request_id, org_id, sum(amount_minor) AS s FROM adjustments
    WHERE kind = 'refund' AND request_id = ANY(${records.map((x) => x.request_id)}::text[])
    GROUP BY 1, 2`.execute(db);
  const orgOf = new Map(records.map((x) => [x.request_id, x.org_id]));
  return new Map(r.rows.filter((x) => orgOf.get(x.request_id) === x.org_id).map((x) => [x.request_id, Number(x.s)]));
}
