import { sql } from "@gateway/db";
import type { Alert, ListAlertsRequest, ListAlertsResponse } from "@gateway/proto";
import type { LedgerAlertV1 } from "@gateway/events";
import type { ControlContext } from "../context.js";
import type { AlertsTable } from "../db/schema.js";
import type { Selectable } from "kysely";
import { findOrg } from "../orgs.js";

const MAX_PAGE = 200;
type Row = Omit<Selectable<AlertsTable>, "body">;

const ms = (d: Date | null | undefined) => d?.getTime() ?? 0;

export function toAlert(r: Row): Alert {
  const ev = r.event as LedgerAlertV1;
  return {
    id: r.id,
    org_id: r.org_id,
    kind: r.kind,
    scope: ev.scope ?? "",
    window_start_ms: ev.window_start_ms ?? 0,
    window_end_ms: ev.window_end_ms ?? 0,
    threshold_pct: ev.threshold_pct ?? 0,
    limit_minor: ev.limit_minor ?? 0,
    spent_minor: ev.spent_minor ?? 0,
    threshold_minor: ev.threshold_minor ?? 0,
    balance_minor: ev.balance_minor ?? 0,
    created_at_ms: r.created_at.getTime(),
    delivery_state: r.state,
    attempts: r.attempts,
    last_status: r.last_status ?? 0,
    last_error: r.last_error ?? "",
    last_attempt_at_ms: ms(r.last_attempt_at),
    next_attempt_at_ms: r.state === "pending" ? ms(r.next_attempt_at) : 0,
    delivered_at_ms: ms(r.delivered_at),
  };
}

/** `<created ms>.<id>` of the last alert of a page, base64url: the next page starts after it. */
const cursorOf = (r: Row) => Buffer.from(`${r.created_at.getTime()}.${r.id}`).toString("base64url");
function afterCursor(cursor: string): { at: Date; id: string } | undefined {
  const m = /^(\d{1,15})\.(.{1,64})$/.exec(Buffer.from(cursor, "base64url").toString());
  return m ? { at: new Date(Number(m[1])), id: m[2]! } : undefined;
}

/** An organization's alerts, newest first (keyset pages), with their webhook deliveries. */
export function listAlerts(ctx: ControlContext) {
  return async (req: ListAlertsRequest): Promise<ListAlertsResponse> => {
    const org = await findOrg(ctx.db, req.org);
    const limit = Math.min(Math.max(req.limit || 50, 1), MAX_PAGE);
    const after = req.cursor ? afterCursor(req.cursor) : undefined;
    const rows = await ctx.db
      .selectFrom("alerts")
      .select(["id", "org_id", "kind", "event", "created_at", "received_at", "state", "attempts", "next_attempt_at", "last_attempt_at", "last_status", "last_error", "delivered_at"])
      .where("org_id", "=", org.id)
      .$if(after !== undefined, (q) => q.where(sql<boolean>`(created_at, id) < (${after!.at}, ${after!.id})`))
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    return { alerts: page.map(toAlert), next_cursor: rows.length > limit ? cursorOf(page[page.length - 1]!) : "" };
  };
}
