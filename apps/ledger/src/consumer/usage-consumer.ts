import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { sql } from "@gateway/db";
import { INBOX_PREFIX, RefusalEventV1, USAGE_REFUSED_SUBJECT, USAGE_STREAM, UsageEventV1, decodeEvent, usageMessageEvents, verifyUsage } from "@gateway/events";
import type { Span } from "@gateway/observability";
import type { LedgerContext } from "../context.js";
import { applyRecords, batchRecords, type BatchRecords } from "./apply-usage.js";
import { applyRefusals } from "./apply-refusals.js";
import { batchSpan, countAttempts, endBatchSpan } from "./batch-telemetry.js";
import { ensureUsageStream } from "./ensure-stream.js";
import { Puller, type Delivered } from "./puller.js";
import { Delivery, permanent, pgText, type Item } from "./delivery.js";
import { PriceSheets } from "../pricing/price-sheets.js";
import { outOfHorizon, overLease, priceProblem, type PriceProblem } from "./event-checks.js";

/** Pause before pulling again after the stream or the durable went away, or NATS did not answer. */
const REOPEN_DELAY_MS = 1_000;
/**
 * A pull round NATS has not ended by then is given up (its late messages are still processed). With
 * messages, the durable has max_ack_pending out (the server holds such a round, `expires` would make
 * every empty round wait too); without any, NATS is away or the durable is gone (a pull for a
 * missing durable goes unanswered), so the durable is ensured again.
 */
const ROUND_TIMEOUT_MS = 2_000;
/** Longest pause between rounds while the stream stays empty (the pause doubles from the linger). */
const IDLE_POLL_MAX_MS = 50;
/** Redelivery delay for a batch whose transaction failed for a passing reason (Postgres down). */
const RETRY_DELAY_MS = 1_000;

/**
 * Pulls usage events from the durable consumer in rounds (puller.ts: each asks for what is there,
 * up to `batchMax`, and none waits at the server between rounds) and applies each round's events
 * in one transaction (see applyUsageBatch); rounds come back to back while the stream has a backlog,
 * `batchLingerMs` apart otherwise. Acks follow the commit; a batch that fails for a passing reason is
 * redelivered. An event that can never be applied is isolated by splitting the batch, written to
 * `dead_letters` and acked: it never blocks the stream and is never silently dropped. Several
 * ledgers may pull from the same durable: the usage record's primary key makes that safe.
 */
export class UsageConsumer {
  private puller: Puller | undefined;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private readonly abort = new AbortController();
  private buffer: Item[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  /** The apply lanes (LEDGER_APPLY_CONCURRENCY): one batch in a transaction at a time on each; false after a batch that failed. */
  private readonly lanes: Promise<boolean>[];
  private nextLane = 0;
  /** The preparation chain: batches checked in order, each while the one before it applies. */
  private preparing: Promise<unknown> = Promise.resolve();
  /** True while rounds reach the durable; drives readiness. */
  running = false;
  private readonly sheets: PriceSheets;

  /** What became of the events this consumer read (a replay reports them). */
  readonly counts = { events: 0, applied: 0, duplicates: 0, setAside: 0 };

  constructor(
    private readonly ctx: LedgerContext,
    private readonly nc: NatsConnection,
    /**
     * `false` for a durable made by someone else with settings of its own (a replay's start time):
     * never created or changed here, only read, so one that disappears stays gone.
     */
    private readonly ensureDurable = true,
  ) {
    this.sheets = new PriceSheets(ctx.db, nc);
    this.lanes = Array.from({ length: ctx.config.applyConcurrency }, () => Promise.resolve(true));
  }

  /** Ensures stream and consumer and starts pulling; throws if that fails the first time. */
  async start(): Promise<void> {
    await this.ensure();
    this.loop = this.poll();
  }

  /**
   * Stops pulling, applies and acks what came. The round in flight is let finish, not interrupted:
   * it asks only for what is there (no_wait), so the server ends it at once with its messages and a
   * status, or it times out (NATS away). Interrupted, messages the server had already sent for it
   * could arrive after the subscription closed and wait out the durable's 30 s ack wait, which a
   * loaded machine made likely (apps/ledger/tests/ledger.test.ts, "one of two ledgers stops").
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    await this.loop;
    this.puller?.close();
    await this.flush();
    await Promise.all(this.lanes);
  }

  private async ensure(): Promise<void> {
    const { config, log } = this.ctx;
    const jsm = await jetstreamManager(this.nc);
    if (this.ensureDurable) await ensureUsageStream(jsm, config, log);
    else await jsm.consumers.info(USAGE_STREAM, config.consumerDurable);
    this.puller ??= new Puller(this.nc, USAGE_STREAM, config.consumerDurable, (m) => this.receive(m), INBOX_PREFIX.ledger);
    this.running = true;
  }

  /**
   * Pull rounds until stop(). A full round is followed by the next at once (a backlog drains at
   * batch size, one batch applying while the next arrives); after a short one the ledger pauses
   * for the linger, doubling up to IDLE_POLL_MAX_MS while the stream stays empty, so an idle
   * ledger asks NATS 20 times a second and an event waits at most that long to be applied. A
   * round that finds the stream or the durable gone ensures them again (a recreated durable starts
   * from the beginning of the stream; every replayed event is a duplicate, which applies nothing).
   */
  private async poll(): Promise<void> {
    const { batchMax, batchLingerMs, maxAckPending } = this.ctx.config;
    // Never more than the durable lets out: the server would hold the rest of such a round.
    const batch = Math.min(batchMax, maxAckPending);
    const linger = Math.max(1, batchLingerMs);
    let pause = linger;
    // The rounds whose batches are still applying, oldest first.
    const applying: Promise<void>[] = [];
    const applied = async () => {
      await Promise.all(applying.splice(0));
    };
    while (!this.stopping && !this.nc.isClosed()) {
      // While NATS is away a pull would only wait in the client's reconnect buffer, and every one
      // written there would be answered at once on reconnection, each with a batch.
      if (!this.ctx.natsConnected) {
        if (!(await this.pause(linger))) break;
        continue;
      }
      const { end, got } = this.puller ? await this.puller.pull(batch, ROUND_TIMEOUT_MS) : { end: "gone" as const, got: 0 };
      const came = got > 0;
      // A round that reached the durable: ready again, even when ensuring it failed while NATS was
      // away (nothing else would say so until some later round timed out).
      if (came || (end !== "gone" && end !== "timeout")) this.running = true;
      if (came) {
        // At most LEDGER_APPLY_CONCURRENCY rounds applying and the one just pulled, queued behind them.
        applying.push(this.flush());
        while (applying.length > this.ctx.config.applyConcurrency) await applying.shift();
      }
      if (end === "full") {
        pause = linger;
        continue;
      }
      if (end === "timeout" && came) {
        await applied();
        continue;
      }
      if (end === "gone" || end === "timeout") {
        this.running = false;
        this.ctx.log.warn({ durable: this.ctx.config.consumerDurable, end }, "usage consumer not answering; ensuring the stream and the durable again");
        if (!(await this.pause(REOPEN_DELAY_MS))) break;
        await this.ensure().catch((err: unknown) => this.ctx.log.error({ err }, "usage consumer could not be ensured; retrying"));
        continue;
      }
      // busy (max_ack_pending out): wait for the batches applying to be acked.
      if (end === "busy") await applied();
      pause = came ? linger : Math.min(pause * 2, IDLE_POLL_MAX_MS);
      if (!(await this.pause(pause))) break;
    }
    this.running = false;
  }

  /** Sleeps `ms` unless stop() is called first; false when it was. */
  private async pause(ms: number): Promise<boolean> {
    try {
      await sleep(ms, undefined, { signal: this.abort.signal });
      return true;
    } catch {
      return false;
    }
  }

  /** Buffers one message's events; applied after the round that brought them, or after the linger for a late one. */
  private receive(msg: Delivered): void {
    const events = usageMessageEvents(msg.subject, msg.data);
    if (events.length === 0) {
      // A batch with no event (nothing a data-plane sends): keep it where the billing team looks.
      events.push(msg.data);
    }
    const delivery = new Delivery(msg, events.length);
    // Checked once per message, before any of its events is read as usage.
    const keys = this.ctx.config.usageSigningKeys;
    const verdict = keys.size > 0 ? verifyUsage(msg.signature, msg.data, keys) : "ok";
    const refused = verdict === "ok" || (verdict === "unsigned" && this.ctx.config.acceptUnsignedUsage) ? undefined : verdict;
    this.counts.events += events.length;
    if (msg.subject === USAGE_REFUSED_SUBJECT) {
      // A refusal record: its own schema (an invalid one has neither `ev` nor `refusal` and is set aside as such).
      const refusal = decodeEvent(RefusalEventV1, msg.data);
      this.buffer.push({ delivery, payload: msg.data, ev: undefined, ...(refusal ? { refusal } : {}), ...(refused ? { refused } : {}) });
    } else for (const payload of events) this.buffer.push({ delivery, payload, ev: decodeEvent(UsageEventV1, payload), ...(refused ? { refused } : {}) });
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flush(), this.ctx.config.batchLingerMs);
    }
  }

  /**
   * Applies what is buffered, in batches; resolves when they are done. Two stages per batch: its
   * checks (signatures' verdicts, the horizon, prices, the lease cap) and its records' JSON are
   * prepared in order, one batch at a time, while earlier batches are in their transactions; the
   * transactions run on LEDGER_APPLY_CONCURRENCY lanes, one at a time per lane, so the ledger's CPU
   * and Postgres' overlap and one batch inserts while another waits on its commit. Nothing a
   * preparation reads is changed by an apply (price sheets, a lease's grant); every batch is exactly
   * once in any order (usage_dedup), and each transaction locks in one order (no deadlock).
   */
  private flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const done: Promise<boolean>[] = [];
    while (this.buffer.length > 0) {
      const items = this.buffer.splice(0, this.ctx.config.batchMax);
      const prepared: Promise<Prepared | undefined> = this.preparing.then(() => this.prepare(items));
      this.preparing = prepared;
      const lane = this.nextLane;
      this.nextLane = (lane + 1) % this.lanes.length;
      this.lanes[lane] = this.lanes[lane]!.then(async (ok) => {
        // After a failed batch, wait before the next: Postgres is likely away, and a tight loop
        // would only turn every buffered event into a failed transaction and a log line.
        if (ok === false) await sleep(RETRY_DELAY_MS);
        const batch = await prepared;
        return batch ? await this.commit(batch) : false;
      })
        // Never a rejected lane: every later batch hangs off it.
        .catch((err: unknown) => {
          this.ctx.log.error({ err }, "usage apply loop failed");
          return false;
        });
      done.push(this.lanes[lane]!);
    }
    return Promise.all(done).then(() => undefined);
  }

  /**
   * A batch's first stage: dead-letters what can never be applied, caps what claims more than its
   * lease was granted and writes the records' JSON. Undefined when it failed for a passing reason
   * (Postgres or NATS away): everything not settled is left for redelivery.
   */
  private async prepare(items: Item[]): Promise<Prepared | undefined> {
    const startedAt = Date.now();
    const span = this.ctx.tracing ? batchSpan(this.ctx.tracing.tracer, items) : undefined;
    const batch: Prepared = { items, billable: [], refusals: [], records: undefined, span, startedAt };
    try {
      for (const item of items) {
        if (item.refused) {
          await this.deadLetter(
            item,
            item.refused,
            item.refused === "unsigned" ? "the message carries no data-plane signature" : "the message's signature does not verify under any usage signing key",
          );
        } else if (!item.ev && !item.refusal) await this.deadLetter(item, "invalid", "the message is not a valid usage.v1 event");
      }
      // Outside the deduplication horizon: set aside rather than risk a second apply.
      const now = Date.now();
      const inside: Item[] = [];
      for (const item of items) {
        const ev = item.ev ?? item.refusal;
        if (item.refused || !ev) continue;
        const late = outOfHorizon(ev, this.ctx.config.dedupHorizonMs, now);
        if (late) await this.deadLetter(item, "out_of_horizon", late);
        else if (item.refusal) batch.refusals.push(item);
        else inside.push(item);
      }
      // The cost each event claims, recomputed from its counts and its catalog version's prices.
      const priced = await this.priceCheck(inside);
      for (const [item, { reason, error }] of priced) await this.deadLetter(item, reason, error);
      batch.billable = priced.size > 0 ? inside.filter((i) => !priced.has(i)) : inside;
      const over = await overLease(
        this.ctx.db,
        batch.billable.map((i) => i.ev!),
      );
      for (const item of batch.billable) {
        const granted = over.get(item.ev!);
        if (granted !== undefined) await this.cap(item, granted);
      }
      batch.records = batchRecords(batch.billable.map((i) => i.ev!));
      return batch;
    } catch (err) {
      this.failed(batch, err);
      return undefined;
    }
  }

  /** A batch's second stage: its transaction, then its acks; false when it failed and was left for redelivery. */
  private async commit(batch: Prepared): Promise<boolean> {
    const end = this.ctx.metrics.applySeconds.startTimer();
    try {
      await this.applyIsolating(batch.billable, batch.records);
      await this.storeRefusals(batch.refusals);
      this.ctx.metrics.batchSize.observe(batch.items.length);
      if (batch.span) endBatchSpan(this.ctx.tracing!.tracer, batch.span, batch.startedAt, batch.items);
      return true;
    } catch (err) {
      this.failed(batch, err);
      return false;
    } finally {
      end();
    }
  }

  /**
   * Postgres is away or the transaction failed for a passing reason: redeliver everything that was
   * not acked yet (an event applied meanwhile is a duplicate next time). A nak that cannot be sent
   * (NATS away too) changes nothing: the message is redelivered after its ack wait.
   */
  private failed(batch: Prepared, err: unknown): void {
    if (batch.span) endBatchSpan(this.ctx.tracing!.tracer, batch.span, batch.startedAt, batch.items, err);
    this.ctx.metrics.usageEvents.inc({ result: "error" }, batch.items.length);
    this.ctx.log.error({ err, events: batch.items.length }, "usage batch not applied; will be redelivered");
    for (const i of batch.items) i.delivery.redeliver(RETRY_DELAY_MS);
  }

  /** The events set aside for their cost (event-checks.ts), with why; those that cannot be checked are counted. */
  private async priceCheck(items: Item[]): Promise<Map<Item, PriceProblem>> {
    const { config, metrics } = this.ctx;
    const takesUnchecked = config.acceptUnsignedUsage || config.usageSigningKeys.size === 0;
    const refused = new Map<Item, PriceProblem>();
    for (const item of items) {
      const problem = await priceProblem(item.ev!, this.sheets, takesUnchecked);
      if (problem === "unchecked") metrics.unchecked.inc();
      else if (problem) refused.set(item, problem);
    }
    return refused;
  }

  /**
   * Bills an over-lease event at most what its lease was granted: the organization never pays
   * beyond what was held for it, the operator absorbs the rest. The event as sent is kept in
   * `dead_letters` (reason `capped`) for the billing team, and counted and logged.
   */
  private async cap(item: Item, granted: number): Promise<void> {
    const ev = item.ev!;
    this.ctx.metrics.overLease.inc();
    this.ctx.log.warn(
      { request_id: ev.request_id, lease_id: ev.lease_id, cost_minor: ev.cost_minor, billed_minor: granted },
      "usage event costs more than its lease was ever granted; billed at the grant",
    );
    await this.keep(item, "capped", `billed ${granted} (the lease's grant) of the ${ev.cost_minor} it claims`);
    ev.cost_minor = granted;
  }

  /**
   * Runs `store` on `items`; when Postgres refuses them for a reason retrying cannot fix, splits
   * them in halves until the refused one is alone, and dead-letters that one. Throws for passing
   * failures (the whole batch is redelivered; what was stored is a duplicate then).
   */
  private async isolating(items: Item[], store: (items: Item[]) => Promise<void>): Promise<void> {
    if (items.length === 0) return;
    try {
      await store(items);
    } catch (err) {
      if (!permanent(err)) throw err;
      if (items.length === 1) {
        await this.deadLetter(items[0]!, "rejected", `${(err as { code?: string }).code ?? ""} ${err instanceof Error ? err.message : String(err)}`.trim());
        return;
      }
      const half = Math.ceil(items.length / 2);
      await this.isolating(items.slice(0, half), store);
      await this.isolating(items.slice(half), store);
    }
  }

  /** Applies a batch's usage events (`records`: the whole batch's, written ahead), isolating one Postgres refuses for good. */
  private applyIsolating(items: Item[], records?: BatchRecords): Promise<void> {
    return this.isolating(items, (part) => this.applyBilled(part, part === items && records ? records : batchRecords(part.map((i) => i.ev!))));
  }

  /** One transaction of usage events (apply_usage_batch), then their acks and counts. */
  private async applyBilled(items: Item[], records: BatchRecords): Promise<void> {
    const { metrics } = this.ctx;
    const { applied } = await applyRecords(this.ctx.db, records);
    for (const i of items) i.delivery.settled();
    this.counts.applied += applied.size;
    this.counts.duplicates += items.length - applied.size;
    if (this.ctx.tracing) for (const i of items) i.outcome = applied.has(i.ev!.request_id) ? "applied" : "duplicate";
    // Each applied id once; the rest of the batch (repeats inside it, ids applied before) are duplicates.
    if (applied.size > 0) {
      this.ctx.onApplied?.(new Set(items.filter((i) => applied.has(i.ev!.request_id)).map((i) => i.ev!.org_id)));
      metrics.usageEvents.inc({ result: "applied" }, applied.size);
      countAttempts(metrics, items, applied);
    }
    if (items.length > applied.size) metrics.usageEvents.inc({ result: "duplicate" }, items.length - applied.size);
  }

  /**
   * Stores a batch's refusal records (apply-refusals.ts: cost 0, counted in their rollups, no money
   * touched), each request id once; one Postgres refuses for good is isolated and set aside like a
   * usage event.
   */
  private storeRefusals(items: Item[]): Promise<void> {
    return this.isolating(items, async (part) => {
      const stored = await applyRefusals(
        this.ctx.db,
        part.map((i) => i.refusal!),
      );
      for (const i of part) i.delivery.settled();
      this.counts.applied += stored.size;
      this.counts.duplicates += part.length - stored.size;
      this.ctx.metrics.refusalRecords.inc({ result: "applied" }, stored.size);
      if (part.length > stored.size) this.ctx.metrics.refusalRecords.inc({ result: "duplicate" }, part.length - stored.size);
    });
  }

  /** Keeps a message that can never be applied where the billing team reads it, then acks it. */
  private async deadLetter(item: Item, reason: "invalid" | "rejected" | "unsigned" | "forged" | "mispriced" | "unpriced" | "out_of_horizon", error: string): Promise<void> {
    const { log, metrics } = this.ctx;
    await this.keep(item, reason, error);
    item.delivery.settled();
    this.counts.setAside++;
    item.outcome = "dead_lettered";
    metrics.usageEvents.inc({ result: "dead_lettered" });
    metrics.deadLetters.inc({ reason });
    // The payload is not logged (it may hold anything); it is in dead_letters.
    log.error({ subject: item.delivery.msg.subject, stream_seq: item.delivery.msg.seq, reason, request_id: (item.ev ?? item.refusal)?.request_id }, "usage event dead-lettered");
  }

  /** Writes an event as it came into `dead_letters` (once per payload). */
  private async keep(item: Item, reason: string, error: string): Promise<void> {
    const { msg } = item.delivery;
    const payload = Buffer.from(item.payload);
    const ev = item.ev ?? item.refusal;
    await sql`
      INSERT INTO dead_letters (payload_sha256, subject, stream_seq, request_id, org_id, reason, error, payload)
      VALUES (${createHash("sha256").update(payload).digest("hex")}, ${pgText(msg.subject)}, ${msg.seq},
        ${ev ? pgText(ev.request_id) : null}, ${ev ? pgText(ev.org_id) : null}, ${reason}, ${pgText(error, 2_000)}, ${payload})
      ON CONFLICT (payload_sha256) DO NOTHING`.execute(this.ctx.db);
  }
}

/** A batch between its two stages (UsageConsumer.prepare, commit). */
interface Prepared {
  items: Item[];
  /** What goes to apply_usage_batch: the items neither dead-lettered nor refused. */
  billable: Item[];
  /** Its refusal records (`usage.v1.refused`), stored after the billable ones in their own statement. */
  refusals: Item[];
  records: BatchRecords | undefined;
  span: Span | undefined;
  startedAt: number;
}
