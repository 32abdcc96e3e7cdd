import { GatewayError } from "@gateway/errors";
import { sql, type Kysely } from "@gateway/db";
import type { ConsoleAuditEntry, ConsoleAuditPage, ConsoleListAuditRequest, ConsoleRecordAuditRequest } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import type { ControlDb } from "../db/schema.js";
import { findOrg } from "../orgs.js";
import { liveSession, type LiveMember } from "./console-session.js";

/** What one console action wrote: the organization acted on (null: the whole gateway), the action, its target and a small detail. */
export interface AuditEntry {
  org_id: string | null;
  action: string;
  target: string;
  detail?: Record<string, unknown>;
}

export async function writeAudit(db: Kysely<ControlDb>, actor: LiveMember, entry: AuditEntry): Promise<void> {
  await db
    .insertInto("console_audit")
    .values({ org_id: entry.org_id, actor_id: actor.id, actor_email: actor.email, action: entry.action, target: entry.target, detail: JSON.stringify(entry.detail ?? {}) })
    .execute();
}

/**
 * Runs a console change and writes its audit entry in one transaction: the change and the record of
 * who made it commit together or not at all. Change events (cache evictions at the data-planes) go
 * out after the commit, so no replica reloads a row the transaction has not written yet.
 */
export async function audited<T>(ctx: ControlContext, actor: LiveMember, change: (tx: ControlContext) => Promise<T>, entry: (result: T) => AuditEntry): Promise<T> {
  const events: Parameters<ControlContext["publishChange"]>[0][] = [];
  const result = await ctx.db.transaction().execute(async (trx) => {
    const r = await change({ ...ctx, db: trx, publishChange: (ev) => events.push(ev) });
    await writeAudit(trx, actor, entry(r));
    return r;
  });
  for (const ev of events) ctx.publishChange(ev);
  return result;
}

const MAX_PAGE = 200;
const toEntry = (r: { id: string; at: Date; org_id: string | null; actor_email: string; action: string; target: string; detail: unknown }): ConsoleAuditEntry => ({
  id: String(r.id),
  at_ms: r.at.getTime(),
  org_id: r.org_id ?? "",
  actor_email: r.actor_email,
  action: r.action,
  target: r.target,
  detail_json: JSON.stringify(r.detail ?? {}),
});

/**
 * The audit log, newest first, keyset-paged by id: an organization's admin reads its organization's
 * entries; an operator reads every entry (or one organization's, with `org`). Billing and viewers: 403.
 */
export function consoleListAudit(ctx: ControlContext) {
  return async (req: ConsoleListAuditRequest): Promise<ConsoleAuditPage> => {
    const live = await liveSession(ctx, req.token);
    if (live.role !== "admin" && live.role !== "operator") throw new GatewayError("forbidden", `A ${live.role} may not read the audit log; ask one of the organization's admins.`);
    const org = live.role === "operator" ? req.org || null : live.org_id;
    const limit = Math.min(Math.max(req.limit || 50, 1), MAX_PAGE);
    const before = /^\d{1,18}$/.test(req.cursor) ? req.cursor : null;
    const rows = await sql<{ id: string; at: Date; org_id: string | null; actor_email: string; action: string; target: string; detail: unknown }>`
      SELECT id, at, org_id, actor_email, action, target, detail FROM console_audit
      WHERE (${org}::text IS NULL OR org_id = ${org}) AND (${before}::bigint IS NULL OR id < ${before}::bigint)
      ORDER BY id DESC LIMIT ${limit + 1}`.execute(ctx.db);
    const page = rows.rows.slice(0, limit);
    return { entries: page.map(toEntry), next_cursor: rows.rows.length > limit ? String(page[page.length - 1]!.id) : "" };
  };
}

/** Actions the console carries out at the ledger (top-ups), recorded by the control-plane for the operator who made them. */
const RECORDED_ACTIONS = new Set(["top_up"]);

/** Records an operator's action done elsewhere (a top-up at the ledger); the actor is the session's, never the caller's word. */
export function consoleRecordAudit(ctx: ControlContext) {
  return async (req: ConsoleRecordAuditRequest): Promise<ConsoleAuditEntry> => {
    const live = await liveSession(ctx, req.token);
    if (live.role !== "operator") throw new GatewayError("forbidden", "Only operators' actions at the ledger are recorded here.");
    if (!RECORDED_ACTIONS.has(req.action)) throw new GatewayError("invalid_request", `action must be one of ${[...RECORDED_ACTIONS].join(", ")}`);
    if (req.detail_json.length > 4096) throw new GatewayError("invalid_request", "detail_json must be at most 4096 characters");
    let detail: unknown;
    try {
      detail = JSON.parse(req.detail_json || "{}");
    } catch {
      throw new GatewayError("invalid_request", "detail_json is not valid JSON");
    }
    const org = req.org ? (await findOrg(ctx.db, req.org)).id : null;
    // One entry per top-up id however many requests record it at once (a unique index, not a read-then-write).
    const target = req.target.slice(0, 200);
    const row = await ctx.db
      .insertInto("console_audit")
      .values({ org_id: org, actor_id: live.id, actor_email: live.email, action: req.action, target, detail: JSON.stringify(detail) })
      .onConflict((oc) => oc.column("target").where(sql<boolean>`action = 'top_up'`).doNothing())
      .returning(["id", "at", "org_id", "actor_email", "action", "target", "detail"])
      .executeTakeFirst();
    if (row) return toEntry(row);
    const seen = await ctx.db
      .selectFrom("console_audit")
      .select(["id", "at", "org_id", "actor_email", "action", "target", "detail"])
      .where("action", "=", req.action)
      .where("target", "=", target)
      .executeTakeFirstOrThrow();
    return toEntry(seen);
  };
}
