/**
 * What each billing system is sent for a feed entry (docs/billing.md, "Pushing usage to a billing
 * system"): one destination per file would be three files of twenty lines; they share the runner
 * (push.ts) and differ only here, in what an entry becomes, how it is sent and what an answer means.
 */
import type { FeedEntry, OrgBilling } from "@gateway/proto";
import { currencyDigits } from "../money.js";

/** A request to the destination: a path, a body and headers of its own (an idempotency key). */
export interface Outgoing {
  path: string;
  body: string;
  contentType: string;
  headers?: Record<string, string>;
  /** The entries it carries, by number (for the manual list and the count). */
  seqs: number[];
}

/** How the destination answered one request. */
export type Verdict = "sent" | "duplicate" | { refused: string } | "retry";

/** An entry the connector will not send, and why: the operator settles it by hand (the manual list). */
export interface Manual {
  seq: number;
  kind: string;
  org_id: string;
  amount_minor: number;
  reason: string;
}

export interface Destination {
  name: "stripe" | "lago" | "openmeter";
  /** How long the destination drops a repeated idempotency key, ms: a batch sent longer ago is not resent blindly. */
  dedupWindowMs: number;
  /** The requests for a page of entries, and the entries it leaves to the operator. */
  requests(entries: FeedEntry[], billing: (orgId: string) => OrgBilling | undefined, now: number): { out: Outgoing[]; manual: Manual[] };
  /** What an answer means (a 2xx, a duplicate, a refusal for good, or try again). */
  verdict(status: number, body: string): Verdict;
}

export interface DestinationOptions {
  /** Stripe's meter event name, Lago's billable metric code, OpenMeter's event type. */
  event: string;
  /** The CloudEvents `source` (OpenMeter). */
  source: string;
}

const DAY_MS = 86_400_000;

/** minor credit units in the currency's minor units (cents), exactly, as a decimal string; undefined without a currency or a price. */
export function currencyMinor(minor: number, b: OrgBilling | undefined): string | undefined {
  const r = ratio(minor, b);
  if (!r) return undefined;
  const negative = r.numerator < 0n;
  const n = negative ? -r.numerator : r.numerator;
  const fraction = (n % r.denominator).toString().padStart(12, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${n / r.denominator}${fraction ? `.${fraction}` : ""}`;
}

/** The same rounded to a whole minor unit of the currency, halves away from zero. */
export function currencyMinorRounded(minor: number, b: OrgBilling | undefined): bigint | undefined {
  const r = ratio(minor, b);
  if (!r) return undefined;
  const negative = r.numerator < 0n;
  const n = negative ? -r.numerator : r.numerator;
  const rounded = (2n * n + r.denominator) / (2n * r.denominator);
  return negative ? -rounded : rounded;
}

/** minor / 1e6 credits × price / 1e6 major units × 10^digits minor units of the currency. */
function ratio(minor: number, b: OrgBilling | undefined): { numerator: bigint; denominator: bigint } | undefined {
  if (!b?.currency || b.price_per_credit_micros <= 0) return undefined;
  return { numerator: BigInt(minor) * BigInt(b.price_per_credit_micros) * 10n ** BigInt(currencyDigits(b.currency)), denominator: 10n ** 12n };
}

/** Entries of no concern to a meter: money the gateway holds itself (top-ups, credit limits) and free records. */
function metered(e: FeedEntry): boolean {
  if (e.kind === "usage") return (e.usage?.cost_minor ?? 0) > 0;
  return e.kind === "refund" || e.kind === "credit_note" || e.kind === "promo_grant" || e.kind === "promo_expiry";
}

const manual = (e: FeedEntry, reason: string): Manual => ({ seq: e.seq, kind: e.kind, org_id: e.org_id, amount_minor: e.amount_minor, reason });
const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
const at = (e: FeedEntry) => (e.kind === "usage" ? e.usage!.created_at_ms : e.recorded_at_ms);

/**
 * Stripe Billing (API 2025, v1 meter events): usage is a meter event (`event_name`, the customer in
 * `payload[stripe_customer_id]`, the cost in minor credit units as `payload[value]`, `identifier` =
 * request id, deduplicated by Stripe for 24 hours, `timestamp` the request's, at most 35 days old);
 * one request per event. A meter event cannot be negative, so a refund, a credit note or promotional
 * credit is a credit on the customer's balance (`/v1/customers/{id}/balance_transactions`, a negative
 * amount in the currency's minor units, idempotency key = the adjustment id), an expiry a debit; an
 * organization without a currency and price per credit leaves those to the operator.
 */
export function stripe(o: DestinationOptions): Destination {
  return {
    name: "stripe",
    dedupWindowMs: DAY_MS,
    requests(entries, billing, now) {
      const out: Outgoing[] = [];
      const left: Manual[] = [];
      for (const e of entries.filter(metered)) {
        const customer = e.external_customer_id;
        if (!customer) {
          left.push(manual(e, "no external customer id (gatewayctl billing set ORG --external-id)"));
          continue;
        }
        if (e.kind === "usage") {
          // Stripe refuses a timestamp older than 35 days: an hour's margin for the trip.
          if (now - at(e) > 35 * DAY_MS - 3_600_000) {
            left.push(manual(e, "older than Stripe's 35 days for a meter event's timestamp"));
            continue;
          }
          const u = e.usage!;
          out.push({
            path: "/v1/billing/meter_events",
            contentType: "application/x-www-form-urlencoded",
            body: form({
              event_name: o.event,
              identifier: u.request_id,
              timestamp: String(Math.floor(u.created_at_ms / 1000)),
              "payload[stripe_customer_id]": customer,
              "payload[value]": String(u.cost_minor),
            }),
            seqs: [e.seq],
          });
          continue;
        }
        const b = billing(e.org_id);
        const amount = currencyMinorRounded(e.amount_minor, b);
        if (amount === undefined || amount === 0n) {
          left.push(manual(e, amount === undefined ? "no currency and price per credit to credit the customer's balance with" : `less than half a minor unit of ${b!.currency}`));
          continue;
        }
        const a = e.adjustment!;
        // A credit to the customer (what the adjustment gave the organization) is a negative balance
        // transaction, in the currency's minor units rounded half up (the exact amount in the metadata).
        out.push({
          path: `/v1/customers/${encodeURIComponent(customer)}/balance_transactions`,
          contentType: "application/x-www-form-urlencoded",
          body: form({
            amount: String(-amount),
            currency: b!.currency.toLowerCase(),
            description: `${a.kind} ${a.adjustment_id}: ${a.reason}`.slice(0, 350),
            "metadata[adjustment_id]": a.adjustment_id,
            "metadata[amount_credit_minor]": String(e.amount_minor),
          }),
          headers: { "idempotency-key": a.adjustment_id },
          seqs: [e.seq],
        });
      }
      return { out, manual: left };
    },
    verdict(status, body) {
      if (status >= 200 && status < 300) return "sent";
      if (status === 429 || status >= 500) return "retry";
      const error = parseError(body);
      // An identifier Stripe already has within its window: delivered before.
      if (status === 400 && /identifier/i.test(error) && /exist|duplicate|already/i.test(error)) return "duplicate";
      return { refused: `${status} ${error}` };
    },
  };
}

/**
 * Lago (events API): each entry one event, `transaction_id` = the request id or adjustment id (Lago
 * keeps one event per transaction id and subscription, for good: a repeat is answered 422
 * `value_already_exist`), the organization's external customer id as `external_subscription_id`,
 * the billable metric `code`, `timestamp` in seconds, the cost in `properties.amount_minor` and, at
 * the price of a credit, in `precise_total_amount_cents` (dynamic pricing). Refunds and credits are
 * events with negative amounts (a sum aggregation subtracts them). One request per event, so a
 * repeat is told from a refusal.
 */
export function lago(o: DestinationOptions): Destination {
  return {
    name: "lago",
    dedupWindowMs: Number.POSITIVE_INFINITY,
    requests(entries, billing) {
      const out: Outgoing[] = [];
      const left: Manual[] = [];
      for (const e of entries.filter(metered)) {
        if (!e.external_customer_id) {
          left.push(manual(e, "no external customer id (the Lago subscription's external id)"));
          continue;
        }
        const amount = e.kind === "usage" ? e.usage!.cost_minor : -e.amount_minor;
        const cents = currencyMinor(amount, billing(e.org_id));
        const event = {
          transaction_id: e.kind === "usage" ? e.usage!.request_id : e.adjustment!.adjustment_id,
          external_subscription_id: e.external_customer_id,
          code: o.event,
          timestamp: Math.floor(at(e) / 1000),
          properties: { amount_minor: amount, kind: e.kind, ...(e.usage ? { model: e.usage.model, request_id: e.usage.request_id } : { adjustment_id: e.adjustment!.adjustment_id }) },
          ...(cents !== undefined ? { precise_total_amount_cents: cents } : {}),
        };
        out.push({ path: "/api/v1/events", contentType: "application/json", body: JSON.stringify({ event }), seqs: [e.seq] });
      }
      return { out, manual: left };
    },
    verdict(status, body) {
      if (status >= 200 && status < 300) return "sent";
      if (status === 429 || status >= 500) return "retry";
      if (status === 422 && /"transaction_id":\["value_already_exist"\]/.test(body)) return "duplicate";
      return { refused: `${status} ${parseError(body)}` };
    },
  };
}

/**
 * OpenMeter (CloudEvents batches): `id` = the request id or adjustment id with `source` (OpenMeter
 * deduplicates on the pair), `subject` = the external customer id, `type` = the meter's event type,
 * `time` the request's, `data` the cost in minor units (negative for refunds and credits), the
 * model and the tokens.
 */
export function openmeter(o: DestinationOptions): Destination {
  return {
    name: "openmeter",
    dedupWindowMs: 32 * DAY_MS,
    requests(entries) {
      const events: Record<string, unknown>[] = [];
      const seqs: number[] = [];
      const left: Manual[] = [];
      for (const e of entries.filter(metered)) {
        if (!e.external_customer_id) {
          left.push(manual(e, "no external customer id (the OpenMeter subject)"));
          continue;
        }
        const u = e.usage;
        events.push({
          specversion: "1.0",
          id: u ? u.request_id : e.adjustment!.adjustment_id,
          source: o.source,
          type: o.event,
          subject: e.external_customer_id,
          time: new Date(at(e)).toISOString(),
          data: u
            ? { kind: "usage", amount_minor: u.cost_minor, model: u.model, input_tokens: u.input_tokens, output_tokens: u.output_tokens }
            : { kind: e.kind, amount_minor: -e.amount_minor, adjustment_id: e.adjustment!.adjustment_id },
        });
        seqs.push(e.seq);
      }
      const out: Outgoing[] = [];
      for (let i = 0; i < events.length; i += 100) {
        out.push({ path: "/api/v1/events", contentType: "application/cloudevents-batch+json", body: JSON.stringify(events.slice(i, i + 100)), seqs: seqs.slice(i, i + 100) });
      }
      return { out, manual: left };
    },
    verdict(status, body) {
      if (status >= 200 && status < 300) return "sent";
      if (status === 429 || status >= 500) return "retry";
      return { refused: `${status} ${parseError(body)}` };
    },
  };
}

function parseError(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: { message?: string } | string; message?: string; detail?: string };
    if (typeof j.error === "object" && j.error?.message) return j.error.message;
    return String(j.detail ?? j.message ?? (typeof j.error === "string" ? j.error : body)).slice(0, 500);
  } catch {
    return body.slice(0, 500);
  }
}
