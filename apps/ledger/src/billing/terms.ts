import { GatewayError } from "@gateway/errors";
import { sql, type Kysely } from "@gateway/db";
import type { LedgerDb } from "../db/schema.js";

/** An organization's commercial metadata in force: its own values, else every organization's defaults (org_id ''). */
export interface BillingTerms {
  externalCustomerId: string;
  currency: string;
  pricePerCreditMicros: number;
  timeZone: string;
}

const NONE: BillingTerms = { externalCustomerId: "", currency: "", pricePerCreditMicros: 0, timeZone: "UTC" };

/** The terms of each of `orgIds` (one read). */
export async function termsOf(db: Kysely<LedgerDb>, orgIds: readonly string[]): Promise<Map<string, BillingTerms>> {
  const ids = [...new Set(orgIds)];
  const out = new Map<string, BillingTerms>();
  if (ids.length === 0) return out;
  const r = await sql<{ org_id: string; external_customer_id: string | null; currency: string | null; price: string | null; time_zone: string | null }>`
    SELECT o.org_id, b.external_customer_id, coalesce(b.currency, d.currency) AS currency,
      coalesce(b.price_per_credit_micros, d.price_per_credit_micros) AS price, coalesce(b.time_zone, d.time_zone) AS time_zone
    FROM unnest(${ids}::text[]) AS o(org_id)
    LEFT JOIN org_billing b ON b.org_id = o.org_id
    LEFT JOIN org_billing d ON d.org_id = ''`.execute(db);
  for (const row of r.rows) {
    out.set(row.org_id, {
      externalCustomerId: row.external_customer_id ?? "",
      currency: row.currency ?? "",
      pricePerCreditMicros: Number(row.price ?? 0),
      timeZone: row.time_zone || "UTC",
    });
  }
  return out;
}

export async function termsOfOrg(db: Kysely<LedgerDb>, orgId: string): Promise<BillingTerms> {
  return (await termsOf(db, [orgId])).get(orgId) ?? NONE;
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** Months by zone and quarter hour: every zone's offset is a whole number of quarter hours, so a month never begins inside one. */
const months = new Map<string, string>();
const QUARTER_HOUR_MS = 900_000;

/** The month `at` falls in, YYYY-MM, in the IANA zone `timeZone` (a feed page asks for thousands: formatting is done once per quarter hour). */
export function monthIn(at: Date, timeZone: string): string {
  const quarter = Math.floor(at.getTime() / QUARTER_HOUR_MS);
  const key = `${timeZone}\u0000${quarter}`;
  const known = months.get(key);
  if (known) return known;
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit" });
    if (formats.size > 1_000) formats.clear();
    formats.set(timeZone, f);
  }
  const parts = f.formatToParts(new Date(quarter * QUARTER_HOUR_MS));
  const month = `${parts.find((p) => p.type === "year")!.value}-${parts.find((p) => p.type === "month")!.value}`;
  if (months.size > 10_000) months.clear();
  months.set(key, month);
  return month;
}

/** An IANA time zone this process and Postgres both know ("" reads as UTC); throws invalid_request otherwise. */
export function checkTimeZone(tz: string): string {
  if (!tz) return "UTC";
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
  } catch {
    throw new GatewayError("invalid_request", `time_zone '${tz}' is not a known IANA time zone`);
  }
  return tz;
}

/** YYYY-MM, a real month. */
export function checkMonth(month: string, field = "month"): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) throw new GatewayError("invalid_request", `${field} must be YYYY-MM, got '${month.slice(0, 40)}'`);
  return month;
}

/** An ISO 4217 code (three capital letters) that Intl can format. */
export function checkCurrency(code: string): string {
  if (!/^[A-Z]{3}$/.test(code)) throw new GatewayError("invalid_request", `currency must be an ISO 4217 code (EUR, USD), got '${code.slice(0, 20)}'`);
  try {
    new Intl.NumberFormat("en", { style: "currency", currency: code });
  } catch {
    throw new GatewayError("invalid_request", `currency '${code}' is not an ISO 4217 code`);
  }
  return code;
}
