import { sql, type Kysely } from "@gateway/db";
import type { UsageEventV1 } from "@gateway/events";
import { recomputeCost } from "@gateway/pricing";
import type { LedgerDb } from "../db/schema.js";
import type { PriceSheets } from "../pricing/price-sheets.js";

/** Why an event is set aside for its cost (docs/security.md, "Usage events"). */
export interface PriceProblem {
  reason: "mispriced" | "unpriced";
  error: string;
}

/**
 * What is wrong with an event's cost: not what its counts cost at the prices of the catalog version
 * it names (`mispriced`), or not checkable (`unpriced`: no version named, or no sheet ever published
 * for it). `unchecked` when it cannot be checked and `takesUnchecked` (a ledger without signing keys,
 * or opening an upgrade); undefined when it is right, or free (free events move no credit). Throws
 * when a sheet cannot be read (the batch comes again).
 */
export async function priceProblem(ev: UsageEventV1, sheets: PriceSheets, takesUnchecked: boolean): Promise<PriceProblem | "unchecked" | undefined> {
  if (ev.cost_minor === 0) return undefined;
  const version = ev.catalog_version;
  const sheet = version === undefined ? undefined : (sheets.cached(version) ?? (await sheets.get(version)));
  if (!sheet) {
    if (takesUnchecked) return "unchecked";
    return { reason: "unpriced", error: version === undefined ? "the event names no catalog version" : `no price sheet was ever published for catalog version ${version}` };
  }
  const cost = recomputeCost(ev, sheet);
  if (typeof cost === "string") return { reason: "mispriced", error: cost };
  if (cost !== ev.cost_minor) return { reason: "mispriced", error: `the event says ${ev.cost_minor}; its counts cost ${cost} at catalog version ${version}` };
  return undefined;
}

/**
 * The events that claim more than the credit ever granted to the lease they settle, with that
 * grant: a hold covers the worst its request can cost and comes out of that lease, so only a
 * provider's overrun, or an event forged with the signing key and inflated counts, does
 * (docs/security.md). One read of the batch's leases.
 */
export async function overLease(db: Kysely<LedgerDb>, events: readonly UsageEventV1[]): Promise<Map<UsageEventV1, number>> {
  const named = events.filter((ev) => ev.lease_id !== "" && ev.cost_minor > 0);
  const over = new Map<UsageEventV1, number>();
  if (named.length === 0) return over;
  const ids = [...new Set(named.map((ev) => ev.lease_id))];
  const rows = await sql<{ id: string; org_id: string; granted_minor: string }>`SELECT id, org_id, granted_minor FROM leases WHERE id = ANY(${ids}::text[])`.execute(db);
  const leases = new Map(rows.rows.map((r) => [r.id, r]));
  for (const ev of named) {
    const l = leases.get(ev.lease_id);
    if (l !== undefined && l.org_id === ev.org_id && ev.cost_minor > Number(l.granted_minor)) over.set(ev, Number(l.granted_minor));
  }
  return over;
}

/** How far ahead of the ledger's clock an event's time may be (clock skew); further is not a real request's. */
const FUTURE_SKEW_MS = 24 * 3_600_000;

/**
 * Why an event lies outside what deduplication covers (usage_dedup remembers a request id for the
 * horizon): older, it could have been applied and forgotten, so applying it might bill twice; far
 * in the future, its month may have no partition yet. Undefined when it is inside.
 */
export function outOfHorizon(ev: Pick<UsageEventV1, "created_at_ms">, horizonMs: number, now: number): string | undefined {
  if (ev.created_at_ms < now - horizonMs) {
    return `the event is from ${new Date(ev.created_at_ms).toISOString()}, older than the deduplication horizon (${Math.round(horizonMs / 3_600_000)} h): it may have been applied and forgotten`;
  }
  if (ev.created_at_ms > now + FUTURE_SKEW_MS) return `the event is from ${new Date(ev.created_at_ms).toISOString()}, more than a day ahead of the ledger's clock`;
  return undefined;
}
