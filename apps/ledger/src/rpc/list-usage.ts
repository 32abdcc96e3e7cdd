import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type { ListUsageRequest, ListUsageResponse } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { toRecord } from "./get-usage.js";

const CURSOR_AT = sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/** The cursor: the last row's created_at (Postgres's microseconds) and request id, base64url JSON. */
const encodeCursor = (at: string, requestId: string) => Buffer.from(JSON.stringify([at, requestId])).toString("base64url");

function decodeCursor(cursor: string): { at: string; requestId: string } {
  try {
    const [at, requestId] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as unknown[];
    if (typeof at === "string" && typeof requestId === "string" && !Number.isNaN(Date.parse(at))) return { at, requestId };
  } catch {
    // fall through
  }
  throw new GatewayError("invalid_request", "cursor is not one this API returned");
}

/**
 * One page of an organization's request log, newest first: (created_at, request_id) descending
 * from the cursor (keyset: the 10,000th page costs what the first does), filtered by key, model,
 * route, status and time. The scan runs backwards on (org_id, created_at), or on (org_id, key_id,
 * created_at) / (org_id, model, created_at) when a key or model is asked for, so a filter that
 * matches little of a big organization still reads only its own rows; route and status are checked
 * on the rows read.
 */
export function listUsage(ctx: LedgerContext) {
  return async (req: ListUsageRequest): Promise<ListUsageResponse> => {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    const limit = req.limit === 0 ? DEFAULT_LIMIT : req.limit;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new GatewayError("invalid_request", `limit must be from 1 to ${MAX_LIMIT}`);
    let q = ctx.db.selectFrom("usage_records").selectAll().select(CURSOR_AT.as("cursor_at")).where("org_id", "=", req.org_id);
    if (req.key_id) q = q.where("key_id", "=", req.key_id);
    if (req.model) q = q.where("model", "=", req.model);
    if (req.route) q = q.where("route", "=", req.route);
    if (req.status) q = q.where("status", "=", req.status);
    if (req.from_ms > 0) q = q.where("created_at", ">=", new Date(req.from_ms));
    if (req.to_ms > 0) q = q.where("created_at", "<", new Date(req.to_ms));
    if (req.cursor) {
      const { at, requestId } = decodeCursor(req.cursor);
      // created_at <= the cursor bounds the index scan; the OR skips the cursor's own tie group down to its row.
      q = q.where(sql<boolean>`created_at <= ${at}::timestamptz AND (created_at < ${at}::timestamptz OR request_id < ${requestId})`);
    }
    const rows = await q
      .orderBy("created_at", "desc")
      .orderBy("request_id", "desc")
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { records: page.map((r) => toRecord(r)), next_cursor: rows.length > limit && last ? encodeCursor(last.cursor_at, last.request_id) : "" };
  };
}
