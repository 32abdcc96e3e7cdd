/**
 * The console's one money format (docs/console.md, "Money"), run by its server (messages) and by
 * the pages alike: amounts are integers of minor credit units (1 credit = 1,000,000), shown with the
 * operator's decimals and unit. An amount — a balance, a spend, a budget — is rounded to the stated
 * decimals; a unit price is shown exactly (more decimals when it needs them, never rounded to 0).
 * Digits are grouped by commas with a decimal point, whatever the reader's locale, so the pages and
 * the server's messages read alike.
 */

/** How money is shown: the decimals of every amount (0 to 6) and the credit's unit ("credits", "USD"). */
export interface MoneyFormat {
  decimals: number;
  unit: string;
}

export const MINOR_PER_CREDIT = 1_000_000;
/** The format before an operator sets one. */
export const DEFAULT_MONEY: MoneyFormat = { decimals: 2, unit: "credits" };
/** The most decimals a credit has: its minor units. */
const MAX_DECIMALS = 6;

const grouped = (whole: number) => String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** `minor` as a number of credits with exactly `decimals` decimals (rounded half away from zero), no unit. */
export function creditsText(minor: number, decimals: number): string {
  const d = Math.min(Math.max(Math.trunc(decimals), 0), MAX_DECIMALS);
  const step = 10 ** (MAX_DECIMALS - d);
  const abs = Math.round(Math.abs(minor) / step) * step;
  const whole = Math.floor(abs / MINOR_PER_CREDIT);
  const fraction = String(abs % MINOR_PER_CREDIT)
    .padStart(MAX_DECIMALS, "0")
    .slice(0, d);
  const sign = minor < 0 && abs > 0 ? "-" : "";
  return `${sign}${grouped(whole)}${d > 0 ? `.${fraction}` : ""}`;
}

/** The decimals `minor` needs to be shown exactly. */
const exactDecimals = (minor: number) => {
  const fraction = String(Math.abs(minor) % MINOR_PER_CREDIT)
    .padStart(MAX_DECIMALS, "0")
    .replace(/0+$/, "");
  return fraction.length;
};

/** `minor` exactly, as few decimals as it needs, no unit: what a form field holds ("0.15", "2"). */
export const exactCredits = (minor: number) => creditsText(minor, exactDecimals(minor));

/** An amount (a balance, a spend, a budget) as people read it: "1,234.50 credits". */
export const formatAmount = (minor: number, f: MoneyFormat) => `${creditsText(minor, f.decimals)} ${f.unit}`;

/** A unit price, exact: at least the format's decimals, more when the price needs them ("0.000150 credits"). */
export const formatPrice = (minor: number, f: MoneyFormat) => `${creditsText(minor, Math.max(f.decimals, exactDecimals(minor)))} ${f.unit}`;

/**
 * A person's amount of credits ("12.5", "1,000.25", "0") in minor units; null when it is not a
 * non-negative amount with at most 6 decimals (a credit's minor unit) within a safe integer.
 */
export function parseCredits(text: string): number | null {
  const t = text.trim();
  const m = /^(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d{0,6}))?$/.exec(t);
  if (!m || t === "" || t === "." || (m[1] === "" && !m[2])) return null;
  const whole = Number((m[1] ?? "").replace(/,/g, "") || "0");
  const minor = whole * MINOR_PER_CREDIT + Number((m[2] ?? "").padEnd(MAX_DECIMALS, "0"));
  return Number.isSafeInteger(minor) ? minor : null;
}

/** What an amount field expects, for a message naming it: "Budget per month must be an amount in credits such as 12.50". */
export const amountExpected = (label: string, f: MoneyFormat) => `${label} must be an amount in ${f.unit} such as ${creditsText(12_500_000, Math.max(f.decimals, 1))}, with at most 6 decimals`;
