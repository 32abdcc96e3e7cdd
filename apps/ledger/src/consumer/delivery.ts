import type { RefusalEventV1, UsageEventV1 } from "@gateway/events";
import type { Delivered } from "./puller.js";

/**
 * A JetStream message and the events it carries that are not settled yet: it is acked once all of
 * them are applied or dead-lettered, and never after one of them was left for redelivery.
 */
export class Delivery {
  private pending: number;
  private failed = false;

  constructor(
    readonly msg: Delivered,
    events: number,
  ) {
    this.pending = events;
  }

  /** One of its events is applied (or dead-lettered). */
  settled(): void {
    if (--this.pending === 0 && !this.failed) this.msg.ack();
  }

  /** One of its events failed for a passing reason: the whole message comes again. */
  redeliver(delayMs: number): void {
    if (this.failed) return;
    this.failed = true;
    try {
      this.msg.nak(delayMs);
    } catch {
      // NATS away too: the message is redelivered after its ack wait anyway.
    }
  }
}

/** One event of a message (a `usage.v1.batch` message carries several). */
export interface Item {
  delivery: Delivery;
  /** The event's own bytes: what is dead-lettered. */
  payload: Uint8Array;
  /** Undefined when the event failed validation, and for a refusal record. */
  ev: UsageEventV1 | undefined;
  /** A refusal record (`usage.v1.refused`, valid): stored at cost 0 beside the batch (apply-refusals.ts). */
  refusal?: RefusalEventV1;
  /** Set aside unapplied: its message is not signed by a data-plane (docs/security.md). */
  refused?: "unsigned" | "forged";
  /** What became of it, recorded only while tracing (its span says). */
  outcome?: "applied" | "duplicate" | "dead_lettered";
}

/**
 * SQLSTATE classes a retry cannot fix: data exceptions (22: a NUL in a string, a number out of
 * range), integrity violations (23) and program limits (54: an index row too large). Everything
 * else (connection loss, serialization, deadlock, shutdown, a statement timeout, out of memory or
 * disk: 53) is retried with the whole batch.
 */
export function permanent(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("22") || code.startsWith("23") || code.startsWith("54"));
}

/** A string Postgres' text type accepts (no NUL), bounded. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the character Postgres text cannot hold.
export const pgText = (s: string, max = 200): string => s.replace(/\u0000/g, "\uFFFD").slice(0, max);
