import type { Request } from "express";

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
