import { setTimeout as sleep } from "node:timers/promises";
import { AckPolicy, DeliverPolicy, jetstreamManager } from "@nats-io/jetstream";
import { GatewayError } from "@gateway/errors";
import { USAGE_STREAM } from "@gateway/events";
import type { ReplayUsageRequest, ReplayUsageResponseInput } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { sinceOf } from "../rpc/window.js";
import { UsageConsumer } from "./usage-consumer.js";

const SECOND_NS = 1_000_000_000;
/** How often the replay's progress is read. */
const POLL_MS = 100;
/** A replay left by a ledger that died is removed by NATS after this long without a pull. */
const INACTIVE_NS = 10 * 60 * SECOND_NS;

/** The replay's durable on USAGE, beside the ledger's own (the NATS permissions name both). */
export const replayDurable = (durable: string) => `${durable}_replay`;

/**
 * ReplayUsage (gatewayctl ledger replay --since T; docs/operations.md, "Recovery"): after Postgres
 * was restored to a point in time, the usage events USAGE still holds from T on are read again by a
 * durable of their own and applied through the consumer's own checks and apply, beside the
 * ledger's durable. An event applied before (kept by the restore, or by the live consumer since)
 * applies nothing: usage_dedup remembers it. One replay at a time per ledger deployment (the
 * durable's name); it ends once it has acknowledged the stream's last event as of its start.
 */
export function replayUsage(ctx: LedgerContext) {
  let running = false;
  return async (req: ReplayUsageRequest, call?: { cancelled: boolean }): Promise<ReplayUsageResponseInput> => {
    const since = sinceOf(req);
    const nc = ctx.nats;
    if (!nc || !ctx.natsConnected) throw new GatewayError("service_unavailable", "NATS is not reachable; the replay cannot read the usage stream.", { retry_after_s: 1 });
    if (running) throw new GatewayError("conflict", "a replay is already running on this ledger");
    running = true;
    const jsm = await jetstreamManager(nc);
    const durable = replayDurable(ctx.config.consumerDurable);
    try {
      const stream = await jsm.streams.info(USAGE_STREAM);
      const firstAvailableMs = stream.state.messages > 0 ? Date.parse(stream.state.first_ts) : 0;
      const last = stream.state.last_seq;
      await jsm.consumers.delete(USAGE_STREAM, durable).catch(() => undefined);
      if (stream.state.messages === 0) return { events: 0, applied: 0, duplicates: 0, set_aside: 0, first_available_ms: 0 };
      await jsm.consumers.add(USAGE_STREAM, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.StartTime,
        opt_start_time: since.toISOString(),
        ack_wait: 30 * SECOND_NS,
        max_ack_pending: ctx.config.maxAckPending,
        num_replicas: ctx.config.streamReplicas,
        inactive_threshold: INACTIVE_NS,
      });
      // The ledger's context with the replay's durable: a prototype, not a copy, so the connection's
      // state (natsConnected, nats) stays the live one.
      const replayCtx: LedgerContext = Object.create(ctx, { config: { value: { ...ctx.config, consumerDurable: durable } } });
      // Never re-created by the consumer: a replay whose durable disappears (deleted by another
      // replay, or idle too long) ends here instead of reading the whole stream again.
      const consumer = new UsageConsumer(replayCtx, nc, false);
      await consumer.start();
      try {
        for (;;) {
          const info = await jsm.consumers.info(USAGE_STREAM, durable).catch(() => {
            throw new GatewayError("conflict", "the replay's durable disappeared (another replay started, or NATS removed it): run the replay again");
          });
          // Done once everything up to the stream's last event at the start is acknowledged (or there was nothing from since_ms on).
          if (info.ack_floor.stream_seq >= last || (info.num_pending === 0 && info.num_ack_pending === 0)) break;
          // The caller gave up (gatewayctl stopped, its deadline passed): what was applied stays applied.
          if (call?.cancelled) throw new GatewayError("service_unavailable", "the replay was cancelled by its caller; run it again to finish", { retry_after_s: 1 });
          await sleep(POLL_MS);
        }
      } finally {
        await consumer.stop();
      }
      const { events, applied, duplicates, setAside } = consumer.counts;
      ctx.log.info({ since_ms: req.since_ms, events, applied, duplicates, set_aside: setAside }, "usage replayed");
      return { events, applied, duplicates, set_aside: setAside, first_available_ms: firstAvailableMs };
    } finally {
      await jsm.consumers.delete(USAGE_STREAM, durable).catch(() => undefined);
      running = false;
    }
  };
}
