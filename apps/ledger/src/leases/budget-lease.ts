import { GatewayError, budgetOfScope } from "@gateway/errors";
import { sql, type Kysely } from "@gateway/db";
import type { AcquireLeaseRequest, Lease } from "@gateway/proto";
import { toLease } from "./to-lease.js";
import { grantOf } from "./grant.js";
import type { LedgerContext } from "../context.js";
import type { BudgetWindowsTable, LedgerDb, LeaseRow } from "../db/schema.js";
import { lockAccount } from "../accounts.js";
import { newId } from "../ids.js";

/** A budget's window: when it started and when it ends (null: never), in the organization's time zone. */
export interface BudgetWindow {
  start: Date;
  end: Date | null;
}

const WINDOWS = ["day", "week", "month", "none"] as const;
type WindowKind = (typeof WINDOWS)[number];
const SCOPE = /^(org|(key|project|user):\P{Cc}{1,256})$/u;

const PERIOD: Record<WindowKind, string> = { day: "daily", week: "weekly", month: "monthly", none: "total" };

function validate(req: AcquireLeaseRequest): WindowKind {
  if (!SCOPE.test(req.scope)) throw new GatewayError("invalid_request", "scope must be org, key:<id>, project:<id> or user:<end user> (at most 256 characters, no control characters)");
  if (!Number.isSafeInteger(req.budget_limit_minor) || req.budget_limit_minor <= 0) {
    throw new GatewayError("invalid_request", "budget_limit_minor must be a positive integer (minor units) for a budget lease");
  }
  const w = req.budget_window || "month";
  if (!(WINDOWS as readonly string[]).includes(w)) throw new GatewayError("invalid_request", `budget_window must be one of ${WINDOWS.join(", ")}`);
  return w as WindowKind;
}

/**
 * The window current now: midnight of today, of this week's Monday or of the month's first day in
 * `timeZone`, to the next one; "none" from the epoch, without end. Postgres does the calendar (its
 * time-zone database, daylight saving included); an unknown zone is the caller's 400.
 */
export async function currentWindow(db: Kysely<LedgerDb>, kind: WindowKind, timeZone: string): Promise<BudgetWindow> {
  if (kind === "none") return { start: new Date(0), end: null };
  const tz = timeZone || "UTC";
  try {
    const r = await sql<{ start: Date; end: Date }>`
      SELECT (date_trunc(${kind}, now() AT TIME ZONE ${tz})) AT TIME ZONE ${tz} AS start,
             (date_trunc(${kind}, now() AT TIME ZONE ${tz}) + ${`1 ${kind}`}::interval) AT TIME ZONE ${tz} AS "end"`.execute(db);
    return r.rows[0]!;
  } catch (err) {
    if ((err as { code?: string }).code === "22023") throw new GatewayError("invalid_request", `time_zone '${tz}' is not a known IANA time zone`);
    throw err;
  }
}

/**
 * The window's row, locked; made by the window's first lease with the spend already known for it:
 * the hourly rollups of the organization (its budget) or of the key (a key's) since the window's
 * hour began. A project's or an end user's spend is not in the rollups: it counts from its first
 * budget lease (docs/billing.md, "Budgets").
 */
async function lockWindow(trx: Kysely<LedgerDb>, orgId: string, scope: string, w: BudgetWindow, limit: number): Promise<BudgetWindowsTable & { spent_minor: number; held_minor: number }> {
  const find = () =>
    sql<BudgetWindowsTable & { spent_minor: number; held_minor: number }>`
    SELECT * FROM budget_windows WHERE org_id = ${orgId} AND scope = ${scope} AND window_start = ${w.start} FOR UPDATE`.execute(trx);
  const found = (await find()).rows[0];
  if (found) return found;
  const key = scope.startsWith("key:") ? scope.slice(4) : undefined;
  const seed =
    scope === "org" || key
      ? await sql<{ spent: string }>`
          SELECT coalesce(sum(cost_minor), 0) AS spent FROM usage_rollups
          WHERE org_id = ${orgId} AND hour >= date_trunc('hour', ${w.start}::timestamptz, 'UTC') ${key ? sql`AND key_id = ${key}` : sql``}`.execute(trx)
      : undefined;
  await sql`
    INSERT INTO budget_windows (org_id, scope, window_start, window_end, limit_minor, spent_minor)
    VALUES (${orgId}, ${scope}, ${w.start}, ${w.end}, ${limit}, ${Number(seed?.rows[0]?.spent ?? 0)})
    ON CONFLICT DO NOTHING`.execute(trx);
  return (await find()).rows[0]!;
}

/**
 * Opens or extends a budget lease: budget, not credit, held for a replica's requests of one
 * (organization, scope) in the current window, as a credit lease holds balance. Grants never take
 * the window's spend plus what is held above the cap; beyond the need, at most a quarter of what is
 * left, so replicas share a budget. A lease belongs to the window it opened in and expires at its
 * end: extending one of a past window is `not_found` (the holder opens one in the new window). A
 * dedicated lease (a video job's, `dedicated`) is renewed past its window's end until released: the
 * job is counted in the window it was held in. Lock order: the account, the lease, then its window,
 * as apply_usage_batch locks them.
 */
export async function acquireBudgetLease(ctx: LedgerContext, req: AcquireLeaseRequest, ttlMs: number): Promise<Lease> {
  const kind = validate(req);
  const w = await currentWindow(ctx.db, kind, req.time_zone);
  // A dedicated lease (a video job's) stays its window's until released: renewed past the window's end.
  const end = req.dedicated ? null : w.end;
  const expiresAt = new Date(Math.min(Date.now() + ttlMs, end?.getTime() ?? Number.POSITIVE_INFINITY));
  return ctx.db.transaction().execute(async (trx) => {
    // The account first, as every other writer of leases locks it (usage application: account,
    // leases, windows): a new lease's foreign key reads the account row, and taken after the window
    // that wait would close a cycle with an apply holding the account and waiting for the window.
    await lockAccount(trx, req.org_id);
    let lease: LeaseRow | undefined;
    if (req.lease_id) {
      lease = (await sql<LeaseRow>`SELECT * FROM leases WHERE id = ${req.lease_id} FOR UPDATE`.execute(trx)).rows[0];
      const current = lease && lease.org_id === req.org_id && lease.scope === req.scope && lease.window_start?.getTime() === w.start.getTime();
      if (!lease || !current || lease.status !== "open" || lease.expires_at.getTime() <= Date.now()) {
        throw new GatewayError("not_found", `lease ${req.lease_id} is not open in the current window`);
      }
    }
    const win = await lockWindow(trx, req.org_id, req.scope, w, req.budget_limit_minor);
    const left = req.budget_limit_minor - win.spent_minor - win.held_minor;
    const wanted = req.amount_minor;
    if (wanted > 0 && (left < req.min_amount_minor || left <= 0)) {
      ctx.metrics.leaseRefusals.inc({ reason: "budget_exceeded" });
      const b = budgetOfScope(req.scope);
      throw new GatewayError("budget_exceeded", `${b.name} ${PERIOD[kind]} budget is reached (${Math.max(0, left)} left of ${req.budget_limit_minor}, needed ${req.min_amount_minor} minor units).`, {
        action: "contact_org_admin",
        budget: b.kind,
      });
    }
    const grant = grantOf(req, left);
    await sql`
      UPDATE budget_windows SET held_minor = held_minor + ${grant}, limit_minor = ${req.budget_limit_minor}, alert_pcts = ${alertPcts(req)}::smallint[], updated_at = now()
      WHERE org_id = ${req.org_id} AND scope = ${req.scope} AND window_start = ${w.start}`.execute(trx);
    if (lease) {
      const r = await sql<LeaseRow>`
        UPDATE leases SET granted_minor = granted_minor + ${grant}, remaining_minor = remaining_minor + ${grant}, expires_at = ${expiresAt}
        WHERE id = ${lease.id} RETURNING *`.execute(trx);
      return toLease(r.rows[0]!, left - grant);
    }
    const r = await sql<LeaseRow>`
      INSERT INTO leases (id, org_id, holder, granted_minor, remaining_minor, status, expires_at, scope, window_start, window_end)
      VALUES (${newId("lease")}, ${req.org_id}, ${req.holder || "unknown"}, ${grant}, ${grant}, 'open', ${expiresAt}, ${req.scope}, ${w.start}, ${end})
      RETURNING *`.execute(trx);
    return toLease(r.rows[0]!, left - grant);
  });
}

/** The percentages whose crossing is announced: 1–1000, each once, in order. */
export function alertPcts(req: Pick<AcquireLeaseRequest, "alert_thresholds_pct">): number[] {
  return [...new Set((req.alert_thresholds_pct ?? []).filter((p) => Number.isInteger(p) && p >= 1 && p <= 1_000))].sort((a, b) => a - b).slice(0, 10);
}

/** Lowers a budget window's held amount (never below zero): a closed budget lease's remaining hold. */
export async function releaseBudgetHeld(trx: Kysely<LedgerDb>, l: Pick<LeaseRow, "org_id" | "scope" | "window_start">, amount: number): Promise<void> {
  if (amount <= 0 || !l.window_start) return;
  await sql`
    UPDATE budget_windows SET held_minor = GREATEST(0, held_minor - ${amount}), updated_at = now()
    WHERE org_id = ${l.org_id} AND scope = ${l.scope} AND window_start = ${l.window_start}`.execute(trx);
}
