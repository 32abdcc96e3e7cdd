import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type { ExportUsageRequest, UsagePage } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { windowOf } from "./window.js";
import { toRecord } from "./get-usage.js";
import { REFUNDED } from "../adjustments/refunds.js";
import { termsOfOrg } from "../billing/terms.js";

/** Timestamps are microseconds in Postgres and milliseconds in JS: the cursor keeps Postgres's own. */
const CURSOR_AT = sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * An organization's usage records received in [from_ms, to_ms), in pages of
 * `LEDGER_EXPORT_PAGE_ROWS` ordered by (created_at, request_id). Each page is its own short
 * statement that starts right after the previous page's last row (keyset: no OFFSET, no
 * transaction held across pages, no snapshot kept for the length of a million-row export), and the
 * next page is read only once the caller has taken enough of the earlier ones (the server's
 * write buffer). Memory is a few pages, whatever the window holds.
 *
 * The range scan runs on `usage_records_org_created (org_id, created_at)`; ties on created_at are
 * put in request_id order by an incremental sort of each tie group, so no wider index (and no
 * write-blocking migration of the largest table) is needed.
 */
export function exportUsage(ctx: LedgerContext) {
  return async function* (req: ExportUsageRequest): AsyncGenerator<UsagePage> {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    const [from, to] = windowOf(req);
    const pageRows = ctx.config.exportPageRows;
    const started = Date.now();
    let records = 0;
    let pages = 0;
    let after: { at: string; requestId: string } | undefined;
    const externalCustomerId = (await termsOfOrg(ctx.db, req.org_id)).externalCustomerId;
    try {
      for (;;) {
        let q = ctx.db
          .selectFrom("usage_records as u")
          .selectAll()
          .select([CURSOR_AT.as("cursor_at"), REFUNDED.as("refunded")])
          .where("org_id", "=", req.org_id)
          .where("created_at", ">=", from)
          .where("created_at", "<", to);
        if (after) {
          const { at, requestId } = after;
          // created_at >= the cursor bounds the index scan; the OR skips the cursor's own tie group up to its row.
          q = q.where(sql<boolean>`created_at >= ${at}::timestamptz AND (created_at > ${at}::timestamptz OR request_id > ${requestId})`);
        }
        const rows = await q.orderBy("created_at").orderBy("request_id").limit(pageRows).execute();
        if (rows.length === 0) return;
        pages++;
        records += rows.length;
        const last = rows[rows.length - 1]!;
        after = { at: last.cursor_at, requestId: last.request_id };
        yield { records: rows.map((r) => toRecord(r, { refundedMinor: Number(r.refunded ?? 0), externalCustomerId })) };
        if (rows.length < pageRows) return;
      }
    } finally {
      // Also when the caller cancelled or the deadline passed half-way: what was sent is in the log.
      ctx.log.info({ org_id: req.org_id, from_ms: req.from_ms, to_ms: req.to_ms, records, pages, duration_ms: Date.now() - started }, "usage exported");
    }
  };
}
