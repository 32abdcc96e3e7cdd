import { setTimeout as sleep } from "node:timers/promises";
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
  /** Spool files still held by another process at the end (a live replica's): not drained. */
  heldElsewhere: number;
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
  const connecting = connect({
    servers: config.natsUrl.split(",").map((s) => s.trim()),
    name: `data-plane spool drain ${config.replicaId}`,
    ...config.natsCredentials,
    inboxPrefix: INBOX_PREFIX["data-plane"],
    maxReconnectAttempts: -1,
    // NATS away when the Job starts: wait for it, as the replica would have.
    waitOnFirstConnect: true,
    timeout: 5_000,
  });
  const nc = await Promise.race([
    connecting,
    sleep(graceMs).then(() => {
      throw new Error(`NATS not reachable within ${Math.round(graceMs / 1000)} s; nothing drained`);
    }),
  ]);
  try {
    const signing = config.usageSigningKey;
    const js = new JetStreamPublish(nc, INBOX_PREFIX["data-plane"], signing ? (data) => signUsage(signing, data) : undefined);
    const spool = new UsageSpool({ dir: config.spoolDir, replicaId: `drain-${config.replicaId}`, maxEvents: config.spoolMaxEvents, lockStaleMs: config.spoolLockStaleMs, log, skippedLines: skipped });
    const publisher = new UsagePublisher(() => js, spool, log, config.publishTimeoutMs, { published, publishBatch }, config.usageBatchEvents);
    // Takes over every file whose holder is gone. A replica that died (not stopped) keeps its files
    // locked until its heartbeat is stale (DATA_PLANE_SPOOL_LOCK_STALE_MS): wait for them.
    const deadline = Date.now() + graceMs;
    await spool.open();
    while (spool.heldElsewhere > 0 && Date.now() < deadline) {
      await sleep(1_000);
      await spool.rescan();
    }
    const found = spool.size;
    await publisher.start();
    await publisher.stop(Math.max(0, deadline - Date.now()));
    const values = (await published.get()).values;
    const results = Object.fromEntries(values.map((v) => [String(v.labels.result), v.value]));
    return { found, left: spool.size, heldElsewhere: spool.heldElsewhere, results };
  } finally {
    await nc.close().catch(() => undefined);
  }
}
