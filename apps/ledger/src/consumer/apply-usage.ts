import { sql, type Kysely } from "@gateway/db";
import type { UsageEventV1 } from "@gateway/events";
import type { LedgerDb } from "../db/schema.js";
import { newId } from "../ids.js";

/** What one batch did: the request ids it applied (the others were already applied). */
export interface BatchResult {
  applied: Set<string>;
  /** The journal posting carrying the batch's cost, or undefined when nothing cost anything. */
  postingId: string | undefined;
}

interface LeaseDelta {
  cost: number;
  orgId: string;
}

interface OrgDelta {
  cost: number;
  released: number;
}

const monthOf = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}-01`;
};

/**
 * Applies a batch of usage events in one transaction with set-based statements: one multi-row
 * insert of usage records that skips request ids already applied (the primary key is the
 * idempotency boundary, so duplicates inside the batch, across batches and across ledger replicas
 * change nothing), then per-lease and per-organization aggregates of what was new, the monthly
 * spend, and one journal posting.
 *
 * Lock order, the same in every transaction of the ledger: usage records (by request id), monthly
 * spend (by org, month; only batches write it), accounts (by org id), leases (by lease id). Each
 * phase locks in sorted order and finishes before the next begins, so concurrent batches and lease
 * RPCs never deadlock. Account rows are locked last, right before the two updates that end the
 * transaction, so a hot organization's row is held for those and the commit only.
 */
export async function applyUsageBatch(db: Kysely<LedgerDb>, events: readonly UsageEventV1[]): Promise<BatchResult> {
  // Duplicates inside the batch: the first occurrence wins (a redelivery carries the same event).
  const byId = new Map<string, UsageEventV1>();
  for (const ev of events) if (!byId.has(ev.request_id)) byId.set(ev.request_id, ev);
  if (byId.size === 0) return { applied: new Set(), postingId: undefined };
  const postingId = newId("post");
  const rows = [...byId.values()].map((ev) => ({
    request_id: ev.request_id,
    org_id: ev.org_id,
    key_id: ev.key_id,
    model: ev.model,
    route: ev.route,
    provider: ev.provider,
    upstream_model: ev.upstream_model,
    lease_id: ev.lease_id,
    input_tokens: ev.usage.input_tokens,
    output_tokens: ev.usage.output_tokens,
    cached_input_tokens: ev.usage.cached_input_tokens,
    estimated: ev.usage.estimated,
    cost_minor: ev.cost_minor,
    input_price_minor_per_mtok: ev.input_price_minor_per_mtok,
    output_price_minor_per_mtok: ev.output_price_minor_per_mtok,
    stream: ev.stream,
    status: ev.status,
    duration_ms: ev.duration_ms,
    // Direct callers may pass events that were not parsed (the schema's defaults not filled in).
    line_items: ev.line_items ?? [],
    guardrails: ev.guardrails ?? [],
    created_at_ms: ev.created_at_ms,
  }));

  return db.transaction().execute(async (trx) => {
    const inserted = await sql<{ request_id: string }>`
      INSERT INTO usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens,
        output_tokens, cached_input_tokens, estimated, cost_minor, input_price_minor_per_mtok, output_price_minor_per_mtok,
        stream, status, duration_ms, line_items, guardrails, created_at, journal_txn_id)
      SELECT r.request_id, r.org_id, r.key_id, r.model, r.route, r.provider, r.upstream_model, r.lease_id, r.input_tokens,
        r.output_tokens, r.cached_input_tokens, r.estimated, r.cost_minor, r.input_price_minor_per_mtok, r.output_price_minor_per_mtok,
        r.stream, r.status, r.duration_ms, r.line_items, r.guardrails, to_timestamp(r.created_at_ms / 1000.0), ${postingId}::text
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(request_id text, org_id text, key_id text, model text, route text,
        provider text, upstream_model text, lease_id text, input_tokens bigint, output_tokens bigint, cached_input_tokens bigint,
        estimated boolean, cost_minor bigint, input_price_minor_per_mtok bigint, output_price_minor_per_mtok bigint, stream boolean,
        status integer, duration_ms integer, line_items jsonb, guardrails jsonb, created_at_ms bigint)
      ORDER BY r.request_id
      ON CONFLICT (request_id) DO NOTHING
      RETURNING request_id`.execute(trx);
    const applied = new Set(inserted.rows.map((r) => r.request_id));
    if (applied.size === 0) return { applied, postingId: undefined };

    const orgs = new Map<string, OrgDelta>();
    const leases = new Map<string, LeaseDelta>();
    const months = new Map<string, { org_id: string; month: string; spent: number }>();
    for (const id of applied) {
      const ev = byId.get(id)!;
      const org = orgs.get(ev.org_id) ?? { cost: 0, released: 0 };
      org.cost += ev.cost_minor;
      orgs.set(ev.org_id, org);
      if (ev.lease_id) {
        const l = leases.get(ev.lease_id) ?? { cost: 0, orgId: ev.org_id };
        // A lease belongs to one org; an event naming another org's lease settles nothing there.
        if (l.orgId === ev.org_id) l.cost += ev.cost_minor;
        leases.set(ev.lease_id, l);
      }
      if (ev.cost_minor > 0) {
        const month = monthOf(ev.created_at_ms);
        const k = `${ev.org_id}\u0000${month}`;
        const m = months.get(k) ?? { org_id: ev.org_id, month, spent: 0 };
        m.spent += ev.cost_minor;
        months.set(k, m);
      }
    }
    const orgIds = [...orgs.keys()].sort();
    const monthRows = [...months.values()].sort((a, b) => (a.org_id === b.org_id ? a.month.localeCompare(b.month) : a.org_id < b.org_id ? -1 : 1));
    let postedId: string | undefined;
    if (monthRows.length > 0) {
      await sql`
        INSERT INTO monthly_spend (org_id, month, spent_minor)
        SELECT m.org_id, m.month, m.spent FROM jsonb_to_recordset(${JSON.stringify(monthRows)}::jsonb) AS m(org_id text, month date, spent bigint)
        ORDER BY m.org_id, m.month
        ON CONFLICT (org_id, month) DO UPDATE SET spent_minor = monthly_spend.spent_minor + EXCLUDED.spent_minor`.execute(trx);
      // One balanced posting for the batch: each org's debit, and the revenue they sum to.
      const debits = orgIds.map((org_id) => ({ org_id, cost: orgs.get(org_id)!.cost })).filter((o) => o.cost > 0);
      const total = debits.reduce((s, o) => s + o.cost, 0);
      const entries = [...debits.map((o) => ({ account: `org:${o.org_id}`, amount: -o.cost })), { account: "system:revenue", amount: total }];
      await sql`
        INSERT INTO journal_entries (txn_id, kind, account, amount_minor)
        SELECT ${postingId}::text, 'usage', e.account, e.amount FROM jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) AS e(account text, amount bigint)`.execute(trx);
      postedId = postingId;
    }
    await sql`INSERT INTO accounts (org_id) SELECT o FROM unnest(${orgIds}::text[]) AS o ORDER BY o ON CONFLICT (org_id) DO NOTHING`.execute(trx);
    await sql`SELECT org_id FROM accounts WHERE org_id = ANY(${orgIds}::text[]) ORDER BY org_id FOR UPDATE`.execute(trx);

    const leaseIds = [...leases.keys()].sort();
    if (leaseIds.length > 0) {
      const held = await sql<{ id: string; org_id: string; remaining_minor: number }>`
        SELECT id, org_id, remaining_minor FROM leases WHERE id = ANY(${leaseIds}::text[]) ORDER BY id FOR UPDATE`.execute(trx);
      const updates: { id: string; released: number; applied: number }[] = [];
      for (const l of held.rows) {
        const d = leases.get(l.id)!;
        if (l.org_id !== d.orgId) continue;
        // Summed per event, min(cost, remaining) telescopes to min(total cost, remaining).
        const released = Math.min(d.cost, l.remaining_minor);
        orgs.get(d.orgId)!.released += released;
        updates.push({ id: l.id, released, applied: d.cost });
      }
      if (updates.length > 0) {
        await sql`
          UPDATE leases SET remaining_minor = remaining_minor - u.released, applied_minor = applied_minor + u.applied
          FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS u(id text, released bigint, applied bigint)
          WHERE leases.id = u.id`.execute(trx);
      }
    }

    const orgRows = orgIds.map((org_id) => ({ org_id, cost: orgs.get(org_id)!.cost, released: orgs.get(org_id)!.released }));
    await sql`
      UPDATE accounts SET balance_minor = balance_minor - o.cost, spent_minor = spent_minor + o.cost,
        held_minor = GREATEST(0, held_minor - o.released), updated_at = now()
      FROM jsonb_to_recordset(${JSON.stringify(orgRows)}::jsonb) AS o(org_id text, cost bigint, released bigint)
      WHERE accounts.org_id = o.org_id`.execute(trx);

    return { applied, postingId: postedId };
  });
}

/** Applies one event (a batch of one); false for a duplicate. */
export async function applyUsage(db: Kysely<LedgerDb>, ev: UsageEventV1): Promise<boolean> {
  return (await applyUsageBatch(db, [ev])).applied.size === 1;
}
