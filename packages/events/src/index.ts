import { z } from "zod";

/**
 * Versioned events exchanged over NATS. Subject names carry the version; a consumer validates
 * every message with the schema of the subject's version and drops what does not parse.
 */

/** JetStream stream holding usage events; the ledger consumes it with a durable consumer. */
export const USAGE_STREAM = "USAGE";
export const USAGE_SUBJECT = "usage.v1.recorded";
/**
 * `usage.v1.batch`: several `usage.v1.recorded` events in one message, one JSON event per line
 * (`\n`-separated). A data-plane coalesces the events finished in one event-loop turn into one
 * publish and one acknowledgement; every event keeps its own request id, which is what the ledger
 * deduplicates on. Ledgers read both subjects; upgrade ledgers before data-planes.
 */
export const USAGE_BATCH_SUBJECT = "usage.v1.batch";
/** Most events, and most bytes, a data-plane puts in one `usage.v1.batch` message. */
export const USAGE_BATCH_MAX_EVENTS = 64;
export const USAGE_BATCH_MAX_BYTES = 256 * 1024;
export const USAGE_STREAM_SUBJECTS = ["usage.v1.>"];

/** Core NATS subject on which the control-plane announces changes to cached decisions. */
export const CONTROL_CHANGED_SUBJECT = "control.v1.changed";
/** JetStream subject on which the ledger announces top-ups (stream LEDGER; message id = top-up id). */
export const LEDGER_BALANCE_SUBJECT = "ledger.v1.balance";
/** JetStream subject of the ledger's journal, one message per transaction (message id = `journal-<txn_id>`). */
export const LEDGER_JOURNAL_SUBJECT = "ledger.v1.journal";
/** `ledger.v1.alert`: a budget's or the balance's threshold crossed (LedgerAlertV1), once the spend is durable. */
export const LEDGER_ALERT_SUBJECT = "ledger.v1.alert";
/** The control-plane's durable on LEDGER for alerts, filtered to LEDGER_ALERT_SUBJECT (it sends the webhooks). */
export const ALERTS_DURABLE = "control-plane-alerts";

/** `ledger.v1.journal`: one double-entry transaction; its entries sum to zero. */
export const LedgerJournalV1 = z.object({
  version: z.literal(1),
  /** Usage posting id (`post_…`, one applied batch; its records carry it as `journal_txn_id`) or top-up id (`top_…`). */
  txn_id: z.string(),
  /** Adjustments (docs/billing.md, "Adjustments") are journaled under their own kinds; a consumer should accept kinds it does not know. */
  kind: z.enum(["usage", "top_up", "refund", "credit_note", "promo_grant", "promo_expiry"]),
  /** Unix ms when the transaction was recorded. */
  created_at_ms: z.number().int(),
  /**
   * Signed amounts in minor credit units per account: `org:<id>` (paid credit), `promo:<id>`
   * (promotional credit), `system:revenue`, `system:funding`, `system:refunds`,
   * `system:credit_notes`, `system:promotions`.
   */
  entries: z.array(z.object({ account: z.string(), amount_minor: z.number().int() })),
});
export type LedgerJournalV1 = z.infer<typeof LedgerJournalV1>;

/** JetStream stream of the ledger's announcements. */
export const LEDGER_STREAM = "LEDGER";
export const LEDGER_STREAM_SUBJECTS = ["ledger.v1.>"];

/**
 * JetStream stream of the catalog's price sheets (@gateway/pricing), one subject per catalog version,
 * written by the control-plane before the version is committed and read by the ledger, which
 * recomputes each usage event's cost with the sheet of the version it names (docs/security.md).
 */
export const CATALOG_STREAM = "CATALOG";
export const CATALOG_STREAM_SUBJECTS = ["catalog.v1.prices.>"];
export const catalogPricesSubject = (version: number) => `catalog.v1.prices.${version}`;

const minor = z.number().int().nonnegative();

/** How a usage record's figures were obtained (UsageTokens.basis). */
export const USAGE_BASES = ["reported", "estimated", "drained", "bounded"] as const;
export type UsageBasis = (typeof USAGE_BASES)[number];

/**
 * Token counts as the provider reported them (or as counted by the gateway when it did not). The
 * totals include their parts (docs/billing.md, "Token accounting"): each token is billed once, in
 * exactly one line item — cache reads, cache writes, the rest of the prompt at the input price;
 * reasoning, the rest of the completion at the output price.
 */
export const UsageTokens = z.object({
  /** Every prompt token, cache reads and cache writes included. */
  input_tokens: z.number().int().nonnegative(),
  /** Every completion token, reasoning included. */
  output_tokens: z.number().int().nonnegative(),
  /** Of input_tokens: read from the provider's prompt cache (billed at the cached-input price). */
  cached_input_tokens: z.number().int().nonnegative().default(0),
  /** Of input_tokens: written to the provider's prompt cache (billed at the cache-write price). Absent in older events: 0. */
  cache_creation_input_tokens: z.number().int().nonnegative().optional(),
  /** Of output_tokens: reasoning tokens (billed at the reasoning price). Absent in older events: 0. */
  reasoning_tokens: z.number().int().nonnegative().optional(),
  /** True when the upstream gave no usage and the gateway counted tokens itself (basis `estimated` or `bounded`). */
  estimated: z.boolean().default(false),
  /**
   * How the figures were obtained (docs/billing.md, "Token accounting"):
   * - `reported`: the provider's own usage report (`estimated` false);
   * - `estimated`: counted by the gateway from what was generated, the provider having reported none (`estimated` true);
   * - `drained`: the client left, the gateway kept reading the provider's stream without forwarding it and got the
   *   provider's own final usage report (`estimated` false);
   * - `bounded`: the stream ended without the provider's usage; what was seen plus the hidden work bounded by the
   *   model's output rate × the time the provider had the request (`estimated` true).
   * Added in place: absent in events of data-planes before it (read as `estimated` when `estimated` is true,
   * `reported` otherwise: usageBasis), and dropped by ledgers before it (the object strips unknown keys). A value
   * this schema does not know is dropped, never the event.
   */
  basis: z.enum(USAGE_BASES).optional().catch(undefined),
});
export type UsageTokens = z.infer<typeof UsageTokens>;

/**
 * A usage record's basis, for one that has none (recorded before the field, or answered by a ledger
 * before it: null, undefined or ""): `estimated` when the gateway counted, `reported` otherwise.
 */
export function usageBasis(basis: string | null | undefined, estimated: boolean): string {
  return basis || (estimated ? "estimated" : "reported");
}

/** One billed quantity: tokens at a price per million, or units (images) at a price each. */
export const LineItem = z.object({
  /** input_tokens, cached_input_tokens, cache_creation_input_tokens, output_tokens, reasoning_tokens, images … */
  item: z.string().max(64),
  quantity: z.number().int().nonnegative(),
  /** Minor credit units per `per`. */
  unit_price_minor: z.number().int().nonnegative(),
  /** "1M tokens" or "image". */
  per: z.string().max(32),
  /** Extra attributes of the item (size, quality): a few short strings, bounded like every field (MAX_USAGE_EVENT_BYTES). */
  attributes: z
    .record(z.string().max(64), z.string().max(256))
    .refine((a) => Object.keys(a).length <= 8, "at most 8 attributes")
    .optional(),
});
export type LineItem = z.infer<typeof LineItem>;

/** How an upstream attempt ended (docs/billing.md, "Attempts and who pays"). */
export const ATTEMPT_OUTCOMES = ["served", "failed", "timeout", "client_gone", "cut"] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/**
 * The most bytes a valid usage event can serialize to (every string, array and record of
 * UsageEventV1 is bounded; packages/events checks the largest one): below one batch message and far
 * below NATS's smallest usual max_payload (1 MiB), so no event the schema accepts is refused for
 * its size. One that is anyway goes to the data-plane's dead-letter file (docs/operations.md).
 */
export const MAX_USAGE_EVENT_BYTES = 200 * 1024;

/** Most attempts one usage event records (retries × deployments are bounded far below it by configuration). */
export const MAX_RECORDED_ATTEMPTS = 32;

/**
 * One upstream attempt of a request, as the ledger records it. `outcome`: served (the provider
 * answered), failed (it generated nothing: a connect error, 429, 5xx, an invalid answer), timeout
 * (the request reached the provider and the gateway gave up waiting: the provider may bill it),
 * client_gone (the caller left; what the provider did is billed), cut (the provider ended a stream
 * early). `payer`: the caller (billed in cost_minor), the operator (absorbed: the provider may
 * charge it, the caller is not billed), or none (the provider charges nothing).
 */
export const AttemptV1 = z.object({
  /** 1-based, in the order the attempts were made. */
  attempt: z.number().int().positive(),
  provider: z.string().max(128),
  upstream_model: z.string().max(512),
  /** The provider's HTTP status; 0 when it never answered (connect error, timeout). */
  status: z.number().int().nonnegative(),
  outcome: z.enum(ATTEMPT_OUTCOMES),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  /** The counts are not the provider's report: counted by the gateway, or (timeout) the request's worst case. */
  estimated: z.boolean(),
  /** The attempt at the catalog's price, minor credit units. */
  cost_minor: minor,
  /** What the provider charges the operator for it (the deployment's cost price; default the catalog price). */
  provider_cost_minor: minor,
  payer: z.enum(["caller", "operator", "none"]),
  duration_ms: z.number().int().nonnegative(),
  /**
   * The rest of the provider's split of the counts (docs/billing.md, "Reconciliation"): of
   * input_tokens, read from and written to the prompt cache; of output_tokens, reasoning. Added in
   * place: absent in older events (0), dropped by ledgers before it.
   */
  cached_input_tokens: z.number().int().nonnegative().optional(),
  cache_creation_input_tokens: z.number().int().nonnegative().optional(),
  reasoning_tokens: z.number().int().nonnegative().optional(),
  /** The provider's service tier for the attempt (OpenAI `service_tier`, Anthropic `usage.service_tier`); an unusual value is dropped, never the event. */
  service_tier: z.string().max(32).optional().catch(undefined),
});
export type AttemptV1 = z.infer<typeof AttemptV1>;

/**
 * `usage.v1.recorded`: one per request that reached a provider (billed, or failed at every attempt). NATS message id = request_id. Strings
 * are bounded so that no valid event can be refused by Postgres (an index row too large).
 */
export const UsageEventV1 = z.object({
  version: z.literal(1),
  /** Request id (`req_…`); the ledger's idempotency key. */
  request_id: z.string().min(1).max(128),
  org_id: z.string().min(1).max(128),
  key_id: z.string().min(1).max(128),
  /** Public model id the caller asked for. */
  model: z.string().min(1).max(256),
  /** Route kind: chat, messages, embeddings, images, video. */
  route: z.string().min(1).max(64),
  /** Catalog hub code of the provider that served the request. */
  provider: z.string().max(128),
  upstream_model: z.string().max(512),
  /** Credit lease the request's reservation was taken from; settled against it. */
  lease_id: z.string().max(128),
  usage: UsageTokens,
  /** Price applied, minor credit units per million input tokens. */
  input_price_minor_per_mtok: minor,
  /** Price applied, minor credit units per million output tokens. */
  output_price_minor_per_mtok: minor,
  /** Amount to debit, minor credit units (integer, rounded up per request). */
  cost_minor: minor,
  /**
   * The catalog version whose prices were applied (the one the model was resolved from at admission).
   * Added in place: a data-plane before it sends none; ledgers before it drop it.
   */
  catalog_version: z.number().int().nonnegative().optional(),
  /**
   * Cache-warm routing (docs/providers.md): whether the request's agent session landed on the
   * deployment it was pinned to — "hit"; "new": no live pin, pinned now; "moved": the pinned one
   * could not serve it, pinned to the one that did. Absent: no session pin. Added in place.
   */
  route_pin: z.enum(["hit", "new", "moved"]).optional(),
  /**
   * The provider's service tier for the served attempt (OpenAI's `service_tier`: default, flex,
   * priority, scale; Anthropic's `usage.service_tier`: standard, priority, batch), for reconciling
   * with its bill. Absent: the provider said none. Added in place; an unusual value is dropped.
   */
  service_tier: z.string().max(32).optional().catch(undefined),
  /**
   * Budgets (docs/billing.md, "Budgets"): the budget leases the request was held under (the ledger
   * spends its cost from each), and whose spend it is — the end user as the organization reads it,
   * the key's project, the key's and the request's tags. Added in place: absent, none.
   */
  budget_leases: z.array(z.string().min(1).max(64)).max(8).optional(),
  end_user: z.string().min(1).max(256).optional(),
  project_id: z.string().min(1).max(64).optional(),
  tags: z.array(z.string().min(1).max(64)).max(20).optional(),
  /** What cost_minor is made of. */
  line_items: z.array(LineItem).max(50).default([]),
  /**
   * Every upstream attempt the request made, in order (added in place: older events have none,
   * ledgers that predate it drop the field). An event for a request that failed at every attempt
   * has cost_minor 0 and the error's status.
   */
  attempts: z.array(AttemptV1).max(MAX_RECORDED_ATTEMPTS).default([]),
  /**
   * The usual case, one attempt that served the request exactly as this event bills it (the
   * caller pays, the provider answered 200): only what the event does not say, and `attempts`
   * empty. Keeps the event, the ledger's validation and the stored record small for the case
   * nearly every request is (docs/billing.md, "Attempts and who pays").
   */
  served_attempt: z.object({ outcome: z.enum(ATTEMPT_OUTCOMES), duration_ms: z.number().int().nonnegative(), provider_cost_minor: minor }).optional(),
  /** Guardrail outcomes in rule order (empty when the organization has no rules). */
  guardrails: z
    .array(z.object({ plugin: z.string().max(64), name: z.string().max(128).optional(), outcome: z.enum(["pass", "denied", "masked", "logged", "error", "skipped"]) }))
    .max(50)
    .default([]),
  /** Whether the response was streamed. */
  stream: z.boolean(),
  /** HTTP status returned to the caller. */
  status: z.number().int(),
  /** Unix time in milliseconds when the request was received. */
  created_at_ms: z.number().int().nonnegative(),
  /** Milliseconds from request receipt to the last byte sent. */
  duration_ms: z.number().int().nonnegative(),
  /**
   * W3C `traceparent` of the span that published the event, present when the data-plane traces:
   * the ledger links its apply span to it. A batch message carries many events, each in its own
   * trace, so this rides in the event rather than in a message header. Added in place (ledgers
   * that predate it drop the unknown field); an invalid value is dropped, never the event.
   */
  traceparent: z.string().max(128).optional().catch(undefined),
});
export type UsageEventV1 = z.infer<typeof UsageEventV1>;

/**
 * `usage.v1.refused`: a request of a known key refused before anything was held or sent (its body
 * invalid, its model unknown or not allowed, its credit or budget short: a 4xx other than a rate
 * limit's 429), so its trace id leads to a record (docs/billing.md, "Refusal records"). Never
 * spooled and rate-limited per key at the data-plane: a refusal that could not be published is
 * dropped and counted, never retried. The ledger stores it as a usage record with cost 0, its status
 * and error code, counts it in the hourly rollups (a request and an error), and touches no balance,
 * lease or budget. NATS message id = request_id.
 * Ledgers read it before data-planes send it (DATA_PLANE_REFUSAL_RECORDS_PER_S=0 keeps a data-plane
 * from sending while older ledgers run); an older ledger sets it aside as `invalid`.
 */
export const USAGE_REFUSED_SUBJECT = "usage.v1.refused";

/** Longest model id and message a refusal record keeps (characters): what the caller sent may be anything. */
export const REFUSAL_MODEL_MAX = 256;
export const REFUSAL_MESSAGE_MAX = 256;

export const RefusalEventV1 = z.object({
  version: z.literal(1),
  /** Request id (`req_…`): the trace id the caller got; the ledger's idempotency key. */
  request_id: z.string().min(1).max(128),
  org_id: z.string().min(1).max(128),
  key_id: z.string().min(1).max(128),
  /** The model the caller asked for, as sent (cut to REFUSAL_MODEL_MAX); "" when the body named none. */
  model: z.string().max(REFUSAL_MODEL_MAX),
  /** Route kind: chat, messages, responses, embeddings, images, video, mcp. */
  route: z.string().min(1).max(64),
  /** HTTP status the caller received (4xx, never 429). */
  status: z.number().int().min(400).max(499),
  /** The error's code as the caller got it (@gateway/errors), e.g. model_not_found. */
  error_code: z.string().min(1).max(64),
  /** The error's message as the caller got it, cut to REFUSAL_MESSAGE_MAX characters. */
  message: z.string().max(REFUSAL_MESSAGE_MAX),
  /** Whether the request asked for a stream (false when the body could not be read). */
  stream: z.boolean(),
  /** Unix time in milliseconds when the request was received. */
  created_at_ms: z.number().int().nonnegative(),
  /** Milliseconds from receipt to the refusal. */
  duration_ms: z.number().int().nonnegative(),
  /**
   * True when the data-plane had resolved `model` for the key before refusing (a catalog model the
   * key can see, or a tool call's target): the hourly rollups count the refusal under its model then,
   * and under one fixed label otherwise, since an unresolved name is whatever the caller sent. Added
   * in place (ledgers that predate it drop the unknown field; its absence reads as false).
   */
  model_resolved: z.boolean().optional(),
});
export type RefusalEventV1 = z.infer<typeof RefusalEventV1>;

/** `control.v1.changed`: something the data-plane caches changed; evict it. */
export const ControlChangedV1 = z.object({
  version: z.literal(1),
  kind: z.enum(["key", "org", "catalog", "trial_policy"]),
  /** Id of the changed entity (key id, org id); absent for catalog and trial policy. */
  id: z.string().optional(),
  /** SHA-256 hex of the changed key's secret, so caches keyed by hash can evict directly. */
  key_hash: z.string().optional(),
  /** Catalog version after the change, for kind catalog. */
  catalog_version: z.number().int().optional(),
});
export type ControlChangedV1 = z.infer<typeof ControlChangedV1>;

/** `ledger.v1.balance`: an organization's balance or lifetime top-ups changed. */
export const LedgerBalanceV1 = z.object({
  version: z.literal(1),
  org_id: z.string(),
  /** Balance after the change, minor credit units. */
  balance_minor: z.number().int(),
  /** Lifetime top-ups after the change, minor credit units. */
  topped_up_minor: minor,
  reason: z.enum(["top_up", "usage"]),
});
export type LedgerBalanceV1 = z.infer<typeof LedgerBalanceV1>;

/**
 * `ledger.v1.alert` (docs/billing.md, "Alerts"): a threshold an organization set was crossed, published
 * by the ledger after the spend that crossed it committed (an outbox: at least once; the message id
 * is `alert_id`, and receivers deduplicate on it). One event per threshold: a batch that crosses 50
 * and 80 % at once publishes two.
 */
export const LedgerAlertV1 = z.object({
  version: z.literal(1),
  /** Unique per crossing: one budget window and threshold, or one balance threshold between top-ups. */
  alert_id: z.string().min(1).max(64),
  org_id: z.string(),
  kind: z.enum(["budget", "balance"]),
  /** A budget's: its scope ("org", "key:…", "project:…", "user:…"), window (Unix ms; 0 = none), threshold, cap and spend. */
  scope: z.string().optional(),
  window_start_ms: z.number().int().optional(),
  window_end_ms: z.number().int().optional(),
  threshold_pct: z.number().int().optional(),
  limit_minor: minor.optional(),
  spent_minor: minor.optional(),
  /** The balance's: the threshold it fell to or below, and the balance then, minor units. */
  threshold_minor: minor.optional(),
  balance_minor: z.number().int().optional(),
  created_at_ms: z.number().int(),
});
export type LedgerAlertV1 = z.infer<typeof LedgerAlertV1>;

/** Core NATS subject on which data-plane replicas gossip per-key rate-limit counts. */
export const RATE_LIMIT_GOSSIP_SUBJECT = "ratelimit.v1.counts";

/** `ratelimit.v1.counts`: one replica's cumulative counts per key in the current minute window. */
export const RateLimitGossipV1 = z.object({
  version: z.literal(1),
  replica: z.string(),
  /** floor(unix ms / 60000). */
  window: z.number().int(),
  entries: z.array(z.object({ key: z.string(), requests: z.number().int().nonnegative(), tokens: z.number().int().nonnegative() })).max(100_000),
});
export type RateLimitGossipV1 = z.infer<typeof RateLimitGossipV1>;

/**
 * Reply subjects, one prefix per NATS identity: each client takes the answers to its requests
 * (JetStream API replies, publish acknowledgements, pulled messages) under its own prefix, set as
 * the connection's `inboxPrefix`, so NATS permissions let it read its own replies and nobody else's
 * (the usage events pulled by a ledger, the journal gatewayctl follows). docs/operations.md, "NATS
 * credentials and permissions".
 */
export const INBOX_PREFIX = {
  "data-plane": "_INBOX.data-plane",
  ledger: "_INBOX.ledger",
  "control-plane": "_INBOX.control-plane",
  gatewayctl: "_INBOX.gatewayctl",
} as const;

/** The control-plane's durable on stream LEDGER (`ledger.v1.balance` only): top-ups that end trials. */
export const TRIAL_UNLOCK_DURABLE = "control-plane-trial";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeEvent(event: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(event));
}

/** Parses and validates; returns undefined for a message that does not fit the schema. */
/**
 * The events a usage message carries, each as its own bytes (what is validated, applied or
 * dead-lettered on its own): one for `usage.v1.recorded`, one per non-empty line for
 * `usage.v1.batch`.
 */
export function usageMessageEvents(subject: string, data: Uint8Array): Uint8Array[] {
  if (subject !== USAGE_BATCH_SUBJECT) return [data];
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= data.length; i++) {
    if (i === data.length || data[i] === 0x0a) {
      if (i > start) out.push(data.subarray(start, i));
      start = i + 1;
    }
  }
  return out;
}

export function decodeEvent<T extends z.ZodType>(schema: T, data: Uint8Array): z.infer<T> | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(decoder.decode(data)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export { USAGE_SIGNATURE_HEADER, signUsage, usageKey, verifyUsage, type UsageKey } from "./usage-signature.js";
