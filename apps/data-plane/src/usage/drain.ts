import { setTimeout as sleep } from "node:timers/promises";
import { connect } from "@nats-io/transport-node";
import { natsTlsOptions } from "@gateway/nats";
import { INBOX_PREFIX, signUsage } from "@gateway/events";
import { Counter, Gauge, Histogram, createLogger, createMetricsRegistry, type Registry } from "@gateway/observability";
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
  /** Whether the result reached DATA_PLANE_DRAIN_PUSHGATEWAY_URL (undefined: none is set). */
  pushed?: boolean;
}

/** The metric families the drain pushes (what the alerts may read of it besides the services' /metrics). */
export const DRAIN_METRIC_FAMILIES = [
  "gateway_spool_drain_events",
  "gateway_spool_drain_held_elsewhere_files",
  "gateway_spool_drain_completed_seconds",
  "gateway_usage_events_total",
  "gateway_usage_publish_batch_events",
  "gateway_usage_spool_skipped_lines_total",
] as const;

/** Deadline of the push of the drain's metrics, ms. */
const PUSH_TIMEOUT_MS = 10_000;

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
    ...natsTlsOptions(config.natsTls),
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
    const result: DrainResult = { found, left: spool.size, heldElsewhere: spool.heldElsewhere, results };
    if (config.drainPushgatewayUrl) result.pushed = await pushResult(config.drainPushgatewayUrl, config.replicaId, registry, result, log);
    return result;
  } finally {
    await nc.close().catch(() => undefined);
  }
}

/**
 * The drain's result as metrics, pushed to a Prometheus Pushgateway (a Job ends before anything
 * scrapes it), grouped by job `gateway_spool_drain` and the drain's replica id: the events found
 * and left (`GatewaySpoolDrainIncomplete` fires on any left), the files another process still
 * held, when it ended, and the events by result. False when the push failed (logged; the exit
 * code and the log line still say the result).
 */
async function pushResult(base: string, replicaId: string, registry: Registry, r: DrainResult, log: ReturnType<typeof createLogger>): Promise<boolean> {
  const events = new Gauge({
    name: "gateway_spool_drain_events",
    help: "Usage events in the drained spool when the drain began (found) and ended (left)",
    labelNames: ["state"],
    registers: [registry],
  });
  events.set({ state: "found" }, r.found);
  events.set({ state: "left" }, r.left);
  new Gauge({ name: "gateway_spool_drain_held_elsewhere_files", help: "Spool files another process still held when the drain ended", registers: [registry] }).set(r.heldElsewhere);
  new Gauge({ name: "gateway_spool_drain_completed_seconds", help: "When the drain ended, Unix seconds", registers: [registry] }).set(Math.floor(Date.now() / 1000));
  const url = `${base.replace(/\/+$/, "")}/metrics/job/gateway_spool_drain/replica/${encodeURIComponent(replicaId)}`;
  try {
    const res = await fetch(url, { method: "PUT", headers: { "content-type": registry.contentType }, body: await registry.metrics(), signal: AbortSignal.timeout(PUSH_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`the Pushgateway answered ${res.status}`);
    return true;
  } catch (err) {
    log.warn({ err, pushgateway: base }, "the drain's metrics could not be pushed");
    return false;
  }
}
