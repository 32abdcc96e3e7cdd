import { connect } from "@nats-io/transport-node";
import { INBOX_PREFIX, signUsage } from "@gateway/events";
import { Counter, Histogram, createLogger, createMetricsRegistry } from "@gateway/observability";
import type { DataPlaneConfig } from "../config.js";
import { JetStreamPublish } from "./jetstream-publish.js";
import { UsagePublisher } from "./publisher.js";
import { UsageSpool } from "./spool.js";

export interface DrainResult {
  /** Events in the spool when the drain began, and left in it when it ended (0: drained). */
  found: number;
  left: number;
  /** By result, as gateway_usage_events_total counts them (replayed, dead_lettered). */
  results: Record<string, number>;
}

/**
 * The spool drain (`node dist/main.js drain-spool`; docs/operations.md, "Recovery: a stranded
 * spool"): publishes every usage event a data-plane left in DATA_PLANE_SPOOL_DIR, a volume whose
 * replica is gone (scaled away), signed and acknowledged as the replica would have, then exits. The
 * ledger applies each event once (its request id), so a drain that is stopped and run again, or one
 * that races a returning replica, bills nothing twice. Waits for NATS up to `graceMs`.
 */
export async function drainSpool(config: DataPlaneConfig, graceMs: number): Promise<DrainResult> {
  const log = createLogger({ service: "data-plane", level: config.logLevel });
  const registry = createMetricsRegistry("data-plane", false);
  const published = new Counter({ name: "gateway_usage_events_total", help: "Usage events by result", labelNames: ["result"], registers: [registry] });
  const publishBatch = new Histogram({ name: "gateway_usage_publish_batch_events", help: "Usage events per publish", registers: [registry] });
  const skipped = new Counter({ name: "gateway_usage_spool_skipped_lines_total", help: "Spool lines skipped", registers: [registry] });
  const nc = await connect({
    servers: config.natsUrl.split(",").map((s) => s.trim()),
    name: `data-plane spool drain ${config.replicaId}`,
    ...config.natsCredentials,
    inboxPrefix: INBOX_PREFIX["data-plane"],
    maxReconnectAttempts: -1,
    timeout: 5_000,
  });
  try {
    const signing = config.usageSigningKey;
    const js = new JetStreamPublish(nc, INBOX_PREFIX["data-plane"], signing ? (data) => signUsage(signing, data) : undefined);
    const spool = new UsageSpool({ dir: config.spoolDir, replicaId: `drain-${config.replicaId}`, maxEvents: config.spoolMaxEvents, lockStaleMs: config.spoolLockStaleMs, log, skippedLines: skipped });
    const publisher = new UsagePublisher(() => js, spool, log, config.publishTimeoutMs, { published, publishBatch }, config.usageBatchEvents);
    // Takes over every file whose holder is gone (a departed replica's heartbeat is stale).
    await spool.open();
    const found = spool.size;
    await publisher.start();
    await publisher.stop(graceMs);
    const values = (await published.get()).values;
    const results = Object.fromEntries(values.map((v) => [String(v.labels.result), v.value]));
    return { found, left: spool.size, results };
  } finally {
    await nc.close().catch(() => undefined);
  }
}
