/**
 * Amounts for display and export (docs/billing.md, "Commercial metadata"): integers and BigInt
 * only. A credit is 1,000,000 minor units; its price is in millionths of the currency's major unit.
 */
import { UsageError } from "./command.js";

/** A price typed as a decimal (`1`, `0.25`, `1.000001`) in millionths: at most six decimals. */
export function parseMicros(text: string, flag: string): number {
  const m = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(text);
  if (!m) throw new UsageError(`${flag} must be a decimal number with at most six decimals (1.25), got '${text}'`);
  return Number(m[1]) * 1_000_000 + Number((m[2] ?? "").padEnd(6, "0"));
}

/** Decimals of the currency's minor unit (2 for EUR, 0 for JPY), as Intl knows it. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * `minor` credit units in the currency at `pricePerCreditMicros`, as a decimal string with the
 * currency's digits, rounded half away from zero; "" without a price or a currency.
 */
export function inCurrency(minor: number, pricePerCreditMicros: number, currency: string): string {
  if (!currency || pricePerCreditMicros <= 0) return "";
  const digits = currencyDigits(currency);
  // minor / 1e6 credits × price / 1e6 major units = minor × price / 1e12; in units of 10^-digits.
  const numerator = BigInt(minor) * BigInt(pricePerCreditMicros) * 10n ** BigInt(digits);
  const denominator = 10n ** 12n;
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  const units = (2n * n + denominator) / (2n * denominator);
  const s = units.toString().padStart(digits + 1, "0");
  const whole = digits > 0 ? s.slice(0, -digits) : s;
  const fraction = digits > 0 ? `.${s.slice(-digits)}` : "";
  return `${negative && units > 0n ? "-" : ""}${whole}${fraction}`;
}
