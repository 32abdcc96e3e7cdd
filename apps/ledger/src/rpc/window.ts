import { GatewayError } from "@gateway/errors";

/**
 * A read's window [from_ms, to_ms) in Unix milliseconds, checked as every windowed read checks it:
 * 0 <= from_ms < to_ms, and (when `max` is given) no longer than `max.ms`, refused with its message.
 */
export function windowOf(req: { from_ms: number; to_ms: number }, max?: { ms: number; message: string }): [Date, Date] {
  if (!Number.isSafeInteger(req.from_ms) || !Number.isSafeInteger(req.to_ms) || req.from_ms < 0 || req.from_ms >= req.to_ms) {
    throw new GatewayError("invalid_request", "the window must have 0 <= from_ms < to_ms");
  }
  if (max && req.to_ms - req.from_ms > max.ms) throw new GatewayError("invalid_request", max.message);
  return [new Date(req.from_ms), new Date(req.to_ms)];
}

/** A recovery's starting instant (`since_ms`, Unix milliseconds): in the past, as every recovery checks it. */
export function sinceOf(req: { since_ms: number }): Date {
  if (!(req.since_ms > 0) || req.since_ms > Date.now()) throw new GatewayError("invalid_request", "since_ms must be an instant in the past (ms since the epoch)");
  return new Date(req.since_ms);
}
