/**
 * The USAGE and LEDGER streams sized from what an operator states (docs/performance.md, "Sizing";
 * docs/operations.md, "Streams: sizing and retention"): how long an event must stay replayable (the
 * stream's replay window), the traffic the deployment is built for, and each NATS node's JetStream
 * store. Every node of an R3 cluster holds a whole copy of each stream, so the arithmetic is per node.
 *
 * Each stream gets `max_age` = its window and `max_bytes` = its share of the node's usable store, in
 * proportion to what its window needs: the store never fills before a stream's own limit discards its
 * oldest events (DiscardOld), so a publish is never refused for space. A configuration whose windows
 * cannot fit at 1.25x the stated traffic is refused at start, with the numbers.
 */

/**
 * Bytes one request leaves in each stream's file store, JetStream's per-message overhead included
 * (bench/jetstream-sizing.ts measured 870 and 14 on 2026-11-28, batched as the data-plane publishes
 * under load), with room for larger events: long model names, several attempts, metadata.
 */
export const STORE_BYTES_PER_REQUEST = { usage: 1_100, ledger: 32 } as const;
/**
 * Bytes one refusal record (`usage.v1.refused`, docs/billing.md, "Refusal records") leaves in USAGE:
 * one message each (never batched), its message id and signature headers and JetStream's overhead
 * included (bench/jetstream-sizing.ts, 2026-11-28), with room for a long model id and message.
 */
export const STORE_BYTES_PER_REFUSAL = 700;
/** Refusal records a second assumed when none is stated: a tenth of the stated requests. */
export const DEFAULT_REFUSALS_PER_REQUEST = 0.1;
/** The stated traffic times this must fit: a stream at its stated rate sits at 80% of its share. */
export const TRAFFIC_HEADROOM = 1.25;
/** Of a node's store, what streams may reserve: the rest is NATS's own (Raft logs, compaction). */
export const STORE_USABLE_FRACTION = 0.9;

export interface SizingInput {
  /** Each NATS node's JetStream file store (its max_file_store), bytes. */
  storeBytes: number;
  /** Reserved on every node by other streams (the data-plane's RESPONSES bucket), bytes. */
  reservedBytes: number;
  /** Sustained requests per second the deployment is built for. */
  requestsPerSecond: number;
  /**
   * Refusal records per second USAGE must hold beside them: keys refusing at once × each key's cap
   * (DATA_PLANE_REFUSAL_RECORDS_PER_S, per replica). Absent: a tenth of requestsPerSecond.
   */
  refusalsPerSecond?: number;
  /** How long a usage event must stay replayable, ms. */
  usageReplayMs: number;
  /** How long a top-up or journal announcement must stay replayable, ms. */
  ledgerReplayMs: number;
}

export interface StreamLimits {
  /** The replay window, ns (JetStream's max_age). */
  maxAgeNs: number;
  maxBytes: number;
  /** Seconds of the window, for the metrics. */
  windowSeconds: number;
}

export interface StreamSizes {
  usage: StreamLimits;
  ledger: StreamLimits;
}

const GIB = 1024 ** 3;
const fmtHours = (ms: number) => `${Math.round((ms / 3_600_000) * 10) / 10} h`;
const fmtBytes = (b: number) => (b >= GIB ? `${(b / GIB).toFixed(1)} GiB` : `${(b / 1024 ** 2).toFixed(1)} MiB`);

/** The two streams' limits, or the reasons the stated windows cannot fit, with the numbers. */
export function sizeStreams(s: SizingInput): { sizes: StreamSizes; problems: [] } | { sizes: undefined; problems: string[] } {
  const need = (ms: number, perRequest: number) => (ms / 1000) * s.requestsPerSecond * perRequest * TRAFFIC_HEADROOM;
  const refusals = s.refusalsPerSecond ?? s.requestsPerSecond * DEFAULT_REFUSALS_PER_REQUEST;
  // USAGE holds the refusal records too: per second, what the requests and the refusals leave.
  const usageBytesPerSecond = s.requestsPerSecond * STORE_BYTES_PER_REQUEST.usage + refusals * STORE_BYTES_PER_REFUSAL;
  const usageNeed = (s.usageReplayMs / 1000) * usageBytesPerSecond * TRAFFIC_HEADROOM;
  const ledgerNeed = need(s.ledgerReplayMs, STORE_BYTES_PER_REQUEST.ledger);
  const usable = s.storeBytes * STORE_USABLE_FRACTION - s.reservedBytes;
  const total = usageNeed + ledgerNeed;
  if (usable <= 0 || total > usable) {
    const fitHours = Math.floor(Math.max(0, usable - ledgerNeed) / (3600 * usageBytesPerSecond * TRAFFIC_HEADROOM));
    const storeNeeded = Math.ceil((total + s.reservedBytes) / STORE_USABLE_FRACTION / GIB);
    return {
      sizes: undefined,
      problems: [
        `the streams' replay windows do not fit each NATS node's store: USAGE ${fmtHours(s.usageReplayMs)} (LEDGER_USAGE_REPLAY_WINDOW) and LEDGER ${fmtHours(s.ledgerReplayMs)} (LEDGER_JOURNAL_REPLAY_WINDOW) at ${s.requestsPerSecond} requests/s (LEDGER_STATED_REQUESTS_PER_SECOND) x ${TRAFFIC_HEADROOM} headroom need ${fmtBytes(usageNeed)} + ${fmtBytes(ledgerNeed)} (${STORE_BYTES_PER_REQUEST.usage} and ${STORE_BYTES_PER_REQUEST.ledger} bytes a request; USAGE also ${refusals} refusal records/s (LEDGER_STATED_REFUSALS_PER_SECOND) at ${STORE_BYTES_PER_REFUSAL} bytes)`,
        `the store (LEDGER_NATS_STORE_BYTES) is ${fmtBytes(s.storeBytes)}: ${Math.round(STORE_USABLE_FRACTION * 100)}% of it less ${fmtBytes(s.reservedBytes)} reserved for other streams (LEDGER_NATS_RESERVED_BYTES) leaves ${fmtBytes(Math.max(0, usable))}`,
        fitHours > 0
          ? `shorten LEDGER_USAGE_REPLAY_WINDOW to ${fitHours}h at most, or give each NATS node a store (max_file_store and its volume) of ${storeNeeded} GiB or more`
          : `give each NATS node a store (max_file_store and its volume) of ${storeNeeded} GiB or more`,
      ],
    };
  }
  const limits = (ms: number, share: number): StreamLimits => ({
    maxAgeNs: ms * 1e6,
    maxBytes: Math.floor((usable * share) / total),
    windowSeconds: ms / 1000,
  });
  return { sizes: { usage: limits(s.usageReplayMs, usageNeed), ledger: limits(s.ledgerReplayMs, ledgerNeed) }, problems: [] };
}
