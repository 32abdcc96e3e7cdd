import { GatewayError } from "@gateway/errors";
import { REFUSAL_MESSAGE_MAX, REFUSAL_MODEL_MAX, type RefusalEventV1 } from "@gateway/events";
import type { Counter } from "@gateway/observability";
import type { Authenticated } from "../http/request-context.js";

/**
 * Per-key token buckets (`perSecond` tokens a second, at most `burst`) in a Map kept in order of
 * last use: past `maxKeys` the least recently refused key is forgotten (it starts full again when
 * it comes back). One map lookup, one delete and one insert per refusal: nothing grows with traffic.
 */
export class KeyBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly maxKeys: number,
  ) {}

  /** Takes one token of the key's bucket at `now` (ms): false when it is empty (or the rate is 0). */
  take(keyId: string, now: number): boolean {
    if (this.perSecond <= 0) return false;
    let b = this.buckets.get(keyId);
    if (b) {
      this.buckets.delete(keyId);
      b.tokens = Math.min(this.burst, b.tokens + (Math.max(0, now - b.at) * this.perSecond) / 1000);
      b.at = now;
    } else {
      if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
      b = { tokens: this.burst, at: now };
    }
    this.buckets.set(keyId, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  get size(): number {
    return this.buckets.size;
  }
}

/** What sends a refusal record: JetStream with an acknowledgement, never the spool (UsagePublisher.publishRefusal). */
export interface RefusalSink {
  publishRefusal(event: RefusalEventV1): Promise<boolean>;
}

/** Refusal publishes awaiting their acknowledgement at once, per replica; past it, refusals are dropped (counted). */
const MAX_IN_FLIGHT = 1_000;

/**
 * Whether a request's error leaves a refusal record (docs/billing.md, "Refusal records"): a gateway
 * error with a 4xx status other than a rate limit's 429, and not an input guardrail's denial (its
 * own record, with the rules' outcomes, pipeline/bill.ts recordDenial).
 */
export function refusalOf(err: unknown): GatewayError | undefined {
  if (!(err instanceof GatewayError)) return undefined;
  const s = err.httpStatus;
  return s >= 400 && s < 500 && s !== 429 && err.code !== "guardrail_denied" ? err : undefined;
}

/**
 * The model a request asked for, as a refusal record keeps it: the string the body named, cut to
 * REFUSAL_MODEL_MAX characters and made storable; "" when it named none.
 */
export function askedModel(state: Authenticated, body: unknown): string {
  const asked = state.model ?? (body !== null && typeof body === "object" ? (body as { model?: unknown }).model : undefined);
  return typeof asked === "string" ? storable(asked, REFUSAL_MODEL_MAX) : "";
}

/** The text cut to `max` characters without splitting a pair, without NUL (Postgres' text cannot hold it). */
export function storable(s: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the character Postgres text cannot hold.
  return s.slice(0, max).replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/**
 * Records requests refused before routing: one `usage.v1.refused` event each, published without
 * waiting (the refusal is answered at once, and nothing was billed), at most `perSecond` per key
 * (burst `burst`), at most MAX_IN_FLIGHT at once; a refusal NATS does not take is dropped, never
 * spooled. Every refusal is counted by result: published, rate_limited, dropped.
 */
export class RefusalRecorder {
  private readonly buckets: KeyBuckets;
  private inFlight = 0;

  constructor(
    private readonly sink: RefusalSink,
    limits: { perSecond: number; burst: number; maxKeys: number },
    private readonly counted: Counter<"result">,
    private readonly now: () => number = Date.now,
  ) {
    this.buckets = new KeyBuckets(limits.perSecond, limits.burst, limits.maxKeys);
  }

  /**
   * Records `err` (a refusal: refusalOf) of the request; returns the publish's promise (true once
   * acknowledged) for tests and benchmarks, or undefined when the record was not sent.
   */
  record(state: Authenticated, route: string, err: GatewayError, body: unknown): Promise<boolean> | undefined {
    const now = this.now();
    if (!this.buckets.take(state.key.key_id, now)) {
      this.counted.inc({ result: "rate_limited" });
      return undefined;
    }
    if (this.inFlight >= MAX_IN_FLIGHT) {
      this.counted.inc({ result: "dropped" });
      return undefined;
    }
    const event: RefusalEventV1 = {
      version: 1,
      request_id: state.requestId,
      org_id: state.key.org_id,
      key_id: state.key.key_id,
      model: askedModel(state, body),
      route,
      status: err.httpStatus,
      error_code: err.code,
      message: storable(err.message, REFUSAL_MESSAGE_MAX),
      stream: body !== null && typeof body === "object" && (body as { stream?: unknown }).stream === true,
      created_at_ms: state.startedAt,
      duration_ms: Math.max(0, now - state.startedAt),
      model_resolved: state.modelResolved,
    };
    this.inFlight++;
    return this.sink.publishRefusal(event).then((acked) => {
      this.inFlight--;
      this.counted.inc({ result: acked ? "published" : "dropped" });
      return acked;
    });
  }
}
