import type { JetStreamManager, StreamInfo } from "@nats-io/jetstream";
import { LEDGER_STREAM, USAGE_STREAM } from "@gateway/events";
import { Gauge, type Logger, type Registry } from "@gateway/observability";
import type { StreamSizes } from "./stream-sizing.js";

/** What the metrics say about one stream (docs/operations.md, "Watching the streams"). */
export interface StreamReading {
  bytes: number;
  messages: number;
  maxBytes: number;
  /** Age of the oldest event kept: how far back a replay reaches now. */
  oldestAgeSeconds: number;
  windowSeconds: number;
  /**
   * Bytes the replay window needs at the last five minutes' publish rate, over max_bytes: above 1,
   * the stream discards events younger than its window.
   */
  windowNeedRatio: number;
  /** Copies the stream is configured with, and how many of them (the leader included) are current. */
  replicas: number;
  current: number;
  /** 1 while a leader and a majority of the copies are current: publishes can be acknowledged. */
  quorum: number;
  /** The furthest a copy is behind its leader, in operations. */
  maxReplicaLag: number;
}

/** One NATS node's JetStream file store, from its monitoring endpoint's /jsz. */
export interface NodeStore {
  up: boolean;
  usedBytes: number;
  reservedBytes: number;
  maxBytes: number;
}

/** A stream's publish rate is taken over this much of its recent past. */
const RATE_WINDOW_MS = 5 * 60_000;
/** A stream within this share of its byte limit (counting its next message) or window is at its limit: the next publish discards. */
const AT_LIMIT = 0.98;
const MONITOR_TIMEOUT_MS = 2_000;

interface SeqSample {
  at: number;
  lastSeq: number;
}

/**
 * Reads the USAGE and LEDGER streams, their copies and every NATS node's store every interval, for
 * the metrics and alerts in deploy/monitoring. Every ledger replica reads the same state, so the
 * alerts take the max (or min) over replicas. Nothing here is on a request's path.
 */
export class StreamWatch {
  readonly streams = new Map<string, StreamReading>();
  readonly nodes = new Map<string, NodeStore>();
  /** 1 while the oldest usage event kept is unapplied and USAGE is at its limit: events are being lost to discard. */
  usageUnappliedAtLimit = 0;
  private readonly samples = new Map<string, SeqSample[]>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly jsm: () => JetStreamManager | undefined,
    private readonly o: { durable: string; streams: StreamSizes; monitorUrls: string[]; intervalMs: number },
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    const tick = () => {
      this.running ??= this.refresh()
        .catch((err: unknown) => this.log.debug({ err: String(err) }, "streams not read"))
        .finally(() => (this.running = undefined));
    };
    tick();
    this.timer = setInterval(tick, this.o.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async refresh(): Promise<void> {
    await Promise.all([this.readStreams(), ...this.o.monitorUrls.map((u) => this.readNode(u))]);
  }

  private async readStreams(): Promise<void> {
    const jsm = this.jsm();
    if (!jsm) return;
    for (const [name, limits] of [
      [USAGE_STREAM, this.o.streams.usage],
      [LEDGER_STREAM, this.o.streams.ledger],
    ] as const) {
      const at = this.now();
      const info = await jsm.streams.info(name).catch(() => undefined);
      if (!info) continue;
      this.streams.set(name, this.reading(name, info, at, limits.windowSeconds));
      if (name === USAGE_STREAM) {
        const consumer = await jsm.consumers.info(USAGE_STREAM, this.o.durable).catch(() => undefined);
        const s = info.state;
        const r = this.streams.get(name)!;
        // The next message (of the average size: the data-plane batches up to 64 events in one) would discard.
        const nextMessage = s.messages > 0 ? s.bytes / s.messages : 0;
        const atLimit = (r.maxBytes > 0 && r.bytes + nextMessage >= AT_LIMIT * r.maxBytes) || r.oldestAgeSeconds >= AT_LIMIT * r.windowSeconds;
        // Everything at or below the ack floor is applied; above it, the oldest kept event is not.
        this.usageUnappliedAtLimit = consumer && s.messages > 0 && atLimit && s.first_seq > consumer.ack_floor.stream_seq ? 1 : 0;
      }
    }
  }

  private reading(name: string, info: StreamInfo, at: number, windowSeconds: number): StreamReading {
    const s = info.state;
    let samples = this.samples.get(name) ?? [];
    // A recreated stream starts again from sequence 1.
    if (samples.length > 0 && samples.at(-1)!.lastSeq > s.last_seq) samples = [];
    samples.push({ at, lastSeq: s.last_seq });
    samples = samples.filter((x) => at - x.at <= RATE_WINDOW_MS);
    this.samples.set(name, samples);
    const first = samples[0]!;
    const perSecond = at > first.at ? ((s.last_seq - first.lastSeq) * 1000) / (at - first.at) : 0;
    const maxBytes = Math.max(info.config.max_bytes, 0);
    const need = s.messages > 0 ? perSecond * windowSeconds * (s.bytes / s.messages) : 0;
    const replicas = info.config.num_replicas || 1;
    const peers = info.cluster?.replicas ?? [];
    const current = (info.cluster?.leader || replicas === 1 ? 1 : 0) + peers.filter((p) => p.current && !p.offline).length;
    const oldest = s.messages > 0 && s.first_ts ? Date.parse(s.first_ts) : at;
    return {
      bytes: s.bytes,
      messages: s.messages,
      maxBytes,
      oldestAgeSeconds: Math.max(0, (at - oldest) / 1000),
      windowSeconds,
      windowNeedRatio: maxBytes > 0 ? need / maxBytes : 0,
      replicas,
      current,
      quorum: current >= Math.floor(replicas / 2) + 1 ? 1 : 0,
      maxReplicaLag: Math.max(0, ...peers.map((p) => p.lag ?? 0)),
    };
  }

  private async readNode(url: string): Promise<void> {
    const node = new URL(url).host;
    try {
      const r = await fetch(`${url}/jsz`, { signal: AbortSignal.timeout(MONITOR_TIMEOUT_MS) });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const j = (await r.json()) as { config?: { max_storage?: number }; storage?: number; reserved_storage?: number };
      this.nodes.set(node, { up: true, usedBytes: j.storage ?? 0, reservedBytes: j.reserved_storage ?? 0, maxBytes: j.config?.max_storage ?? 0 });
    } catch (err) {
      const last = this.nodes.get(node);
      this.nodes.set(node, { up: false, usedBytes: last?.usedBytes ?? 0, reservedBytes: last?.reservedBytes ?? 0, maxBytes: last?.maxBytes ?? 0 });
      this.log.debug({ err: String(err), node }, "NATS monitoring endpoint not read");
    }
  }
}

/** The watch's readings as gauges on `registry`, read at each scrape. */
export function streamGauges(registry: Registry, watch: StreamWatch): void {
  const perStream = (name: string, help: string, value: (r: StreamReading) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["stream"],
      registers: [registry],
      collect() {
        for (const [stream, r] of watch.streams) this.set({ stream }, value(r));
      },
    });
  perStream("ledger_stream_bytes", "Bytes a stream holds (each NATS node holds a copy)", (r) => r.bytes);
  perStream("ledger_stream_messages", "Messages a stream holds", (r) => r.messages);
  perStream("ledger_stream_max_bytes", "A stream's byte limit, derived from its replay window and the node's store", (r) => r.maxBytes);
  perStream("ledger_stream_oldest_event_age_seconds", "Age of the oldest message a stream keeps: how far back a replay reaches", (r) => r.oldestAgeSeconds);
  perStream("ledger_stream_replay_window_seconds", "How long a stream is configured to keep its messages", (r) => r.windowSeconds);
  perStream("ledger_stream_window_need_ratio", "Bytes the replay window needs at the last 5 minutes' publish rate, over the byte limit (above 1 the window is cut short)", (r) => r.windowNeedRatio);
  perStream("ledger_stream_replicas", "Copies a stream is configured with", (r) => r.replicas);
  perStream("ledger_stream_replicas_current", "Copies of a stream that are current, its leader included", (r) => r.current);
  perStream("ledger_stream_quorum", "1 while a stream has a leader and a majority of current copies (publishes can be acknowledged)", (r) => r.quorum);
  perStream("ledger_stream_replica_lag_operations", "How far a stream's most lagging copy is behind its leader, in operations", (r) => r.maxReplicaLag);
  new Gauge({
    name: "ledger_usage_unapplied_at_limit",
    help: "1 while USAGE is at its limit and its oldest event is not applied yet: the next publish discards an unbilled event",
    registers: [registry],
    collect() {
      this.set(watch.usageUnappliedAtLimit);
    },
  });
  const perNode = (name: string, help: string, value: (n: NodeStore) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["node"],
      registers: [registry],
      collect() {
        for (const [node, n] of watch.nodes) this.set({ node }, value(n));
      },
    });
  perNode("ledger_nats_monitor_up", "1 when the node's monitoring endpoint answered at the last read", (n) => (n.up ? 1 : 0));
  perNode("ledger_nats_store_used_bytes", "Bytes a NATS node's JetStream file store holds", (n) => n.usedBytes);
  perNode("ledger_nats_store_reserved_bytes", "Bytes of a NATS node's store that streams' byte limits reserve", (n) => n.reservedBytes);
  perNode("ledger_nats_store_max_bytes", "A NATS node's JetStream file store (max_file_store)", (n) => n.maxBytes);
  perNode("ledger_nats_store_used_ratio", "Share of a NATS node's JetStream file store in use", (n) => (n.maxBytes > 0 ? n.usedBytes / n.maxBytes : 0));
}
