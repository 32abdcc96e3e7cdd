import type { Request } from "express";
import { GatewayError } from "@gateway/errors";
import { amountExpected, parseCredits, type MoneyFormat } from "./shared/money.js";

// What the routes read from a request (body fields, a page size) and the time windows they ask the ledger for.

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** The end of the current hour (Unix ms): the hourly rollups' windows end there. */
export const endOfThisHour = () => Math.floor(Date.now() / HOUR_MS) * HOUR_MS + HOUR_MS;

/** A JSON body as a record (empty when there is none). */
export const bodyOf = (req: Request) => (req.body ?? {}) as Record<string, unknown>;

/** A body field that should be a string ("" otherwise: the control-plane names what is missing). */
export const text = (v: unknown) => (typeof v === "string" ? v : "");

/** A page's size from the query (`limit`): 50 unless given, at most 200. */
export const pageLimit = (limit: string | undefined) => Math.min(Number.parseInt(limit ?? "50", 10) || 50, 200);

/**
 * An amount of credits a person typed (`field`: text or a number, "12.50"), or, for scripts, its
 * minor units (`field_minor`, an integer). Refused with a message in the operator's unit that names
 * the field as the page does (`label`), never a `_minor` name; `positive`: 0 is refused too.
 */
export function creditsOf(body: Record<string, unknown>, field: string, label: string, money: MoneyFormat, { positive = false, note = "" } = {}): number {
  const minorField = body[`${field}_minor`];
  const given = body[field];
  const minor =
    given === undefined && typeof minorField === "number" && Number.isSafeInteger(minorField)
      ? minorField
      : typeof given === "string" || typeof given === "number"
        ? parseCredits(String(given))
        : null;
  if (minor === null || minor < 0 || (positive && minor === 0)) {
    throw new GatewayError("invalid_request", `${amountExpected(label, money)}${positive ? ", more than 0" : ""}${note}.`);
  }
  return minor;
}

/** A whole number of at least 0 a person typed (a limit per minute); "" or absent: 0. Refused with a message naming it as the page does. */
export function wholeOf(v: unknown, label: string, note = ""): number {
  if (v === undefined || v === null || v === "") return 0;
  const n = typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) throw new GatewayError("invalid_request", `${label} must be a whole number of at least 0${note}.`);
  return n;
}
