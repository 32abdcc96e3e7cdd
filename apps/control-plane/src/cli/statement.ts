import type { Adjustment, Statement } from "@gateway/proto";
import { inCurrency } from "./money.js";
import { csvField } from "./usage-export.js";

/**
 * The columns of `gatewayctl usage statement --format csv`, one row per statement line
 * (docs/billing.md, "Statements"). `amount_minor` is what a line charges, in minor credit units:
 * usage and the rounding positive, payments (top-ups) and credits (refunds, credit notes,
 * promotional credit) negative, an expiry of promotional credit positive; `balance_minor` is set on
 * the two balance rows only, and closing = opening − Σ amount_minor.
 */
export const STATEMENT_COLUMNS = [
  "section",
  "date",
  "reference",
  "description",
  "model",
  "item",
  "quantity",
  "unit_price_minor",
  "per",
  "amount_minor",
  "amount_exact_minor",
  "balance_minor",
  "amount_currency",
] as const;

export type StatementRow = Record<(typeof STATEMENT_COLUMNS)[number], string | number>;

const blank = (): StatementRow => Object.fromEntries(STATEMENT_COLUMNS.map((c) => [c, ""])) as StatementRow;
const iso = (ms: number) => new Date(ms).toISOString();

/** What an adjustment charges (the opposite of what it does to the balance). */
function adjustmentCharge(a: Adjustment): number {
  if (a.kind === "credit_limit") return 0;
  return a.kind === "promo_expiry" ? a.amount_minor : -a.amount_minor;
}

function adjustmentText(a: Adjustment): string {
  const what: Record<string, string> = {
    refund: `Refund of request ${a.request_id}`,
    credit_note: "Credit note",
    promo_grant: `Promotional credit${a.expires_at_ms ? ` (expires ${iso(a.expires_at_ms)})` : ""}`,
    promo_expiry: `Promotional credit ${a.grant_id} expired`,
    credit_limit: `Credit limit set to ${a.amount_minor} minor units`,
  };
  return [what[a.kind] ?? a.kind, a.period ? `for ${a.period}` : "", a.reason ? `— ${a.reason}` : "", a.made_by ? `(${a.made_by})` : ""].filter(Boolean).join(" ");
}

/** The statement as rows, in order: opening balance, top-ups, usage lines, rounding, adjustments, closing balance. */
export function statementRows(s: Statement): StatementRow[] {
  const money = (minor: number) => inCurrency(minor, s.price_per_credit_micros, s.currency);
  const rows: StatementRow[] = [];
  rows.push({ ...blank(), section: "opening_balance", date: iso(s.from_ms), description: "Opening balance", balance_minor: s.opening_balance_minor, amount_currency: money(s.opening_balance_minor) });
  for (const t of s.top_ups) {
    const paid = t.paid_amount_minor ? ` (paid ${t.paid_amount_minor} ${t.paid_currency} minor units)` : "";
    const refs = [t.payment_reference && `payment ${t.payment_reference}`, t.invoice_reference && `invoice ${t.invoice_reference}`].filter(Boolean).join(", ");
    rows.push({
      ...blank(),
      section: "top_up",
      date: iso(t.created_at_ms),
      reference: t.top_up_id,
      description: `Top-up${paid}${refs ? ` — ${refs}` : ""}`,
      amount_minor: -t.amount_minor,
      amount_currency: money(-t.amount_minor),
    });
  }
  for (const l of s.lines) {
    rows.push({
      ...blank(),
      section: "usage",
      description: `${l.model} ${l.item}`,
      model: l.model,
      item: l.item,
      quantity: l.quantity,
      unit_price_minor: l.unit_price_minor,
      per: l.per,
      amount_minor: l.amount_minor,
      amount_exact_minor: l.amount_exact_minor,
      amount_currency: money(l.amount_minor),
    });
  }
  rows.push({
    ...blank(),
    section: "rounding",
    description: `Rounding: each of ${s.requests} requests is billed its line items rounded up to a whole minor unit${s.late_usage_minor ? `; ${s.late_usage_minor} of the usage was received before ${s.month}` : ""}`,
    amount_minor: s.rounding_minor,
    amount_currency: money(s.rounding_minor),
  });
  for (const a of s.adjustments) {
    const charge = adjustmentCharge(a);
    rows.push({
      ...blank(),
      section: "adjustment",
      date: iso(a.created_at_ms),
      reference: a.adjustment_id,
      item: a.kind,
      description: adjustmentText(a),
      amount_minor: charge,
      amount_currency: money(charge),
    });
  }
  rows.push({ ...blank(), section: "closing_balance", date: iso(s.to_ms), description: "Closing balance", balance_minor: s.closing_balance_minor, amount_currency: money(s.closing_balance_minor) });
  return rows;
}

/** Whether the rows tie: closing = opening − Σ charges, and the usage lines with the rounding are the usage. */
export function statementTies(s: Statement, rows: StatementRow[]): { charges: number; ties: boolean } {
  const charges = rows.reduce((n, r) => n + (typeof r.amount_minor === "number" ? r.amount_minor : 0), 0);
  const usage = rows.filter((r) => r.section === "usage" || r.section === "rounding").reduce((n, r) => n + Number(r.amount_minor), 0);
  return { charges, ties: s.opening_balance_minor - charges === s.closing_balance_minor && usage === s.usage_minor };
}

export const STATEMENT_CSV_HEADER = `${STATEMENT_COLUMNS.join(",")}\r\n`;

export function statementCsv(rows: StatementRow[]): string {
  return STATEMENT_CSV_HEADER + rows.map((r) => `${STATEMENT_COLUMNS.map((c) => csvField(String(r[c]))).join(",")}\r\n`).join("");
}
