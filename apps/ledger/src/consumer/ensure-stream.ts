import { setTimeout as sleep } from "node:timers/promises";
import { AckPolicy, DeliverPolicy, DiscardPolicy, JetStreamApiError, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig, type StreamInfo } from "@nats-io/jetstream";
import { LEDGER_STREAM, LEDGER_STREAM_SUBJECTS, USAGE_STREAM, USAGE_STREAM_SUBJECTS } from "@gateway/events";
import type { Logger } from "@gateway/observability";
import type { StreamSizes } from "./stream-sizing.js";

const SECOND_NS = 1e9;

type StreamSettings = Pick<StreamConfig, "name" | "subjects" | "storage" | "retention" | "discard" | "duplicate_window"> & {
  num_replicas?: number;
  max_age?: number;
  max_bytes?: number;
};

/** What the ledger's configuration says about its streams and durable. */
export interface StreamOptions {
  consumerDurable: string;
  /** Unacknowledged deliveries allowed across every ledger replica on the durable. */
  maxAckPending: number;
  /** The durable's acknowledgement wait, ms (LEDGER_ACK_WAIT_MS). */
  ackWaitMs: number;
  /** Copies of USAGE and LEDGER in a NATS cluster (1 on a single server, 3 on the three-node cluster). */
  streamReplicas: number;
  /** Each stream's replay window and byte limit (stream-sizing.ts). */
  streams: StreamSizes;
}

/**
 * The settings the ledger relies on, besides the limits its configuration derives (stream-sizing.ts).
 * Limits retention, not work-queue or interest: an event stays after the ledger acknowledged it, for
 * its replay window, so a Postgres restored from a backup can be brought forward by replaying the
 * stream from the backup's instant (docs/operations.md, "Streams: sizing and retention"). DiscardOld:
 * at its byte limit the stream drops its oldest events, long applied, rather than refuse a publish.
 */
export const USAGE_STREAM_CONFIG: StreamSettings = {
  name: USAGE_STREAM,
  subjects: USAGE_STREAM_SUBJECTS,
  storage: StorageType.File,
  retention: RetentionPolicy.Limits,
  discard: DiscardPolicy.Old,
  duplicate_window: 120 * SECOND_NS,
};

/**
 * The ledger's own announcements (top-ups, message id = top-up id). The ledger owns this stream; the
 * control-plane creates it with the same settings if it starts first.
 */
export const LEDGER_STREAM_CONFIG: StreamSettings = {
  name: LEDGER_STREAM,
  subjects: LEDGER_STREAM_SUBJECTS,
  storage: StorageType.File,
  retention: RetentionPolicy.Limits,
  discard: DiscardPolicy.Old,
  duplicate_window: 120 * SECOND_NS,
};

const limits = (l: StreamSizes["usage"]) => ({ max_age: l.maxAgeNs, max_bytes: l.maxBytes });

/** The ledger's durable pull consumer; every ledger replica pulls from the same one. */
export function usageConsumerConfig(durable: string, maxAckPending: number, replicas: number, ackWaitMs: number) {
  return {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: ackWaitMs * 1_000_000,
    max_ack_pending: maxAckPending,
    // Explicit: a durable made while its stream was still moving to more replicas would otherwise
    // keep the old count, and die with the one node it lives on.
    num_replicas: replicas,
  };
}

/** A durable the cluster will not move yet (its stream still moving) is tried again this often, this many times. */
const SCALE_RETRY_MS = 1_000;
const SCALE_ATTEMPTS = 30;

// JetStream API error codes (nats-server `server/errors.json`).
const STREAM_NOT_FOUND = 10059;
const STREAM_NAME_IN_USE = 10058;
const CONSUMER_NOT_FOUND = 10014;

const apiCode = (err: unknown): number | undefined => (err instanceof JetStreamApiError ? err.code : undefined);

/**
 * Creates the USAGE stream and the durable consumer, or brings existing ones to the settings
 * above. Idempotent and safe when several ledgers and data-plane replicas run it at once.
 */
export async function ensureUsageStream(jsm: JetStreamManager, o: StreamOptions, log: Logger): Promise<void> {
  await ensureStream(jsm, { ...USAGE_STREAM_CONFIG, ...limits(o.streams.usage), num_replicas: o.streamReplicas }, log);
  const durable = o.consumerDurable;
  const want = usageConsumerConfig(durable, o.maxAckPending, o.streamReplicas, o.ackWaitMs);
  const existing = await jsm.consumers.info(USAGE_STREAM, durable).catch((err: unknown) => {
    if (apiCode(err) === CONSUMER_NOT_FOUND) return undefined;
    throw err;
  });
  if (!existing) {
    // Creating a consumer with an identical config is a no-op on the server, so a concurrent
    // create by another ledger replica is harmless.
    await jsm.consumers.add(USAGE_STREAM, want);
  } else if (
    existing.config.ack_wait !== want.ack_wait ||
    existing.config.max_ack_pending !== want.max_ack_pending ||
    // 0 = the stream's count, which ensureStream just set to ours.
    (existing.config.num_replicas || want.num_replicas) !== want.num_replicas
  ) {
    await jsm.consumers.update(USAGE_STREAM, durable, { ack_wait: want.ack_wait, max_ack_pending: want.max_ack_pending, num_replicas: want.num_replicas });
  }
}

/** Creates the LEDGER stream the top-up announcer publishes to, or brings it to its settings. */
export async function ensureLedgerStream(jsm: JetStreamManager, o: Pick<StreamOptions, "streamReplicas" | "streams">, log: Logger): Promise<void> {
  await ensureStream(jsm, { ...LEDGER_STREAM_CONFIG, ...limits(o.streams.ledger), num_replicas: o.streamReplicas }, log);
}

/**
 * Creates a stream or brings the subjects, limits and duplicate window of an existing one to `want`,
 * leaving anything else an operator configured. A create that loses a race to another process is
 * followed by a read of what the winner made.
 */
async function ensureStream(jsm: JetStreamManager, want: StreamSettings, log: Logger): Promise<void> {
  let info = await streamInfo(jsm, want.name);
  if (!info) {
    try {
      await jsm.streams.add(want);
      return;
    } catch (err) {
      if (apiCode(err) !== STREAM_NAME_IN_USE) throw err;
      info = await streamInfo(jsm, want.name);
      if (!info) throw err;
    }
  }
  const c = info.config;
  const missing = want.subjects.filter((s) => !c.subjects.includes(s));
  const replicas = want.num_replicas ?? c.num_replicas;
  const maxAge = want.max_age ?? c.max_age;
  const maxBytes = want.max_bytes ?? c.max_bytes;
  if (missing.length > 0 || c.max_age !== maxAge || c.max_bytes !== maxBytes || c.duplicate_window !== want.duplicate_window || c.num_replicas !== replicas) {
    // The server refuses overlapping subjects: drop the ones our wildcards already cover.
    const kept = c.subjects.filter((s) => want.subjects.includes(s) || !want.subjects.some((p) => subjectCovers(p, s)));
    // A clustered server moves the stream to the new replica count in place.
    await jsm.streams.update(want.name, { ...c, subjects: [...kept, ...missing], max_age: maxAge, max_bytes: maxBytes, duplicate_window: want.duplicate_window, num_replicas: replicas });
    log.info({ stream: want.name, replicas, max_age_s: maxAge / SECOND_NS, max_bytes: maxBytes }, "stream settings updated");
  }
  // Every time, not only when the stream moved: a durable the cluster would not move then (the
  // stream still moving) is moved by a later try or the next start.
  if (replicas !== undefined && replicas > 1) void scaleDurables(jsm, want.name, replicas, log);
  if (c.storage !== want.storage || c.retention !== want.retention) {
    // Neither can be changed on a live stream; an operator has to recreate it.
    log.warn({ stream: want.name, storage: c.storage, retention: c.retention }, "stream storage or retention differs from the expected file/limits");
  }
}

/**
 * Durables made before the stream moved keep their replica count and would die with their one
 * node (the control-plane's trial-unlock durable on LEDGER, a billing team's on USAGE): bring them
 * along. Ephemeral consumers are left alone.
 */
async function scaleDurables(jsm: JetStreamManager, stream: string, replicas: number, log: Logger): Promise<void> {
  for (let attempt = 1; attempt <= SCALE_ATTEMPTS; attempt++) {
    let left = 0;
    try {
      for await (const ci of jsm.consumers.list(stream)) {
        if (!ci.config.durable_name || (ci.config.num_replicas || 0) === replicas) continue;
        await jsm.consumers.update(stream, ci.config.durable_name, { num_replicas: replicas }).then(
          () => log.info({ stream, durable: ci.config.durable_name, replicas }, "durable moved to the stream's replica count"),
          (err: unknown) => {
            left++;
            if (attempt === SCALE_ATTEMPTS) log.warn({ err, stream, durable: ci.config.durable_name }, "durable not moved to the stream's replica count");
          },
        );
      }
    } catch (err) {
      left++;
      if (attempt === SCALE_ATTEMPTS) log.warn({ err, stream }, "durables not listed to move them to the stream's replica count");
    }
    if (left === 0) return;
    await sleep(SCALE_RETRY_MS);
  }
}

async function streamInfo(jsm: JetStreamManager, name: string): Promise<StreamInfo | undefined> {
  try {
    return await jsm.streams.info(name);
  } catch (err) {
    if (apiCode(err) === STREAM_NOT_FOUND) return undefined;
    throw err;
  }
}

/** Whether every subject matching `subject` (which may hold wildcards) also matches `pattern`. */
export function subjectCovers(pattern: string, subject: string): boolean {
  const p = pattern.split(".");
  const t = subject.split(".");
  for (let i = 0; i < p.length; i++) {
    const pt = p[i];
    if (pt === ">") return t.length > i;
    const tt = t[i];
    if (tt === undefined || tt === ">") return false;
    if (pt !== "*" && (pt !== tt || tt === "*")) return false;
  }
  return t.length === p.length;
}
