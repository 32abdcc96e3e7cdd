import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "@gateway/db";
import type { Selectable } from "kysely";
import type { ControlContext } from "../context.js";
import type { OrgAlertSettingsTable } from "../db/schema.js";
import type { WebhookSettings } from "../config.js";
import { retryDelayMs } from "./backoff.js";
import type { AlertMetrics } from "./metrics.js";
import { postOnce, type PostResult } from "./post.js";
import type { SecretSealer } from "./secrets.js";
import { signatureHeader } from "./signature.js";
import type { WebhookUrlPolicy } from "./webhook-url.js";

/** Alerts claimed (and attempted at once) per pass. */
const BATCH = 16;
/** The longest pause between two looks for due alerts, ms (a new alert wakes the sender sooner). */
const POLL_MS = 1_000;
/** Delivered, failed and unsent alerts are kept this long (their ids deduplicate replays), then deleted. */
const KEEP_DAYS = 90;
const PRUNE_EVERY_MS = 3_600_000;
const USER_AGENT = "gateway-webhooks/1";

interface Claimed {
  id: string;
  org_id: string;
  body: string;
  attempts: number;
  received_at: Date;
}

/** An organization's webhook as an attempt reads it. */
type Hook = Pick<Selectable<OrgAlertSettingsTable>, "webhook_url" | "webhook_secret_sealed" | "previous_secret_sealed" | "previous_secret_until">;

interface Outcome extends PostResult {
  /** The webhook was removed meanwhile: nothing more to send. */
  unsent?: boolean;
}

/**
 * Delivers alerts from the `alerts` table to their organizations' webhooks, at least once. Every
 * control-plane replica runs one: a pass claims due rows with FOR UPDATE SKIP LOCKED and moves
 * their next attempt past this attempt's deadline in the same statement, so no two replicas make
 * the same attempt, and an attempt a replica died in is made again once its claim runs out. Each
 * attempt signs the stored body afresh (Gateway-Timestamp, Gateway-Signature); a failure is tried
 * again after an exponential backoff with jitter, until CONTROL_PLANE_WEBHOOK_GIVE_UP_MS after the
 * alert arrived. All of it is in Postgres, so a restart resumes where the last replica left off.
 */
export class WebhookSender {
  private loop: Promise<void> | undefined;
  private stopping = false;
  private readonly abort = new AbortController();
  private wakeUp: (() => void) | undefined;
  private lastPrune = 0;

  constructor(
    private readonly ctx: ControlContext,
    private readonly deps: { settings: WebhookSettings; urls: WebhookUrlPolicy; sealer: SecretSealer | undefined; metrics: AlertMetrics },
  ) {}

  start(): void {
    this.loop = this.run();
  }

  /** A new alert is due: look now rather than at the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    this.wakeUp?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let claimed = 0;
      let waitMs = POLL_MS;
      try {
        claimed = await this.pass();
        waitMs = await this.untilNextDue();
        await this.prune();
      } catch (err) {
        if (!this.stopping) this.ctx.log.warn({ err }, "webhook deliveries: pass failed; trying again");
      }
      if (claimed === BATCH || this.stopping) continue;
      await new Promise<void>((resolve) => {
        this.wakeUp = resolve;
        sleep(waitMs, undefined, { signal: this.abort.signal }).then(resolve, resolve);
      });
      this.wakeUp = undefined;
    }
  }

  /** Claims the alerts due now (at most a batch) and attempts each; returns how many it claimed. */
  async pass(): Promise<number> {
    const { timeoutMs } = this.deps.settings;
    // Long enough for the attempt and its bookkeeping: only a replica that died keeps its claim to the end.
    const claimS = (2 * timeoutMs + 5_000) / 1_000;
    const claimed = await sql<Claimed>`
      WITH due AS (
        SELECT id FROM alerts WHERE state = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
      UPDATE alerts a SET attempts = a.attempts + 1, last_attempt_at = now(), next_attempt_at = now() + make_interval(secs => ${claimS})
      FROM due WHERE a.id = due.id
      RETURNING a.id, a.org_id, a.body, a.attempts, a.received_at`.execute(this.ctx.db);
    if (claimed.rows.length === 0) return 0;
    const orgs = [...new Set(claimed.rows.map((r) => r.org_id))];
    const hooks = await this.ctx.db
      .selectFrom("org_alert_settings")
      .select(["org_id", "webhook_url", "webhook_secret_sealed", "previous_secret_sealed", "previous_secret_until"])
      .where("org_id", "in", orgs)
      .execute();
    const byOrg = new Map(hooks.map((h) => [h.org_id, h]));
    await Promise.all(
      claimed.rows.map(async (row) => {
        const outcome = await this.attempt(row, byOrg.get(row.org_id)).catch((err: unknown): Outcome => ({ ok: false, status: 0, error: err instanceof Error ? err.message : String(err) }));
        await this.record(row, outcome);
      }),
    );
    return claimed.rows.length;
  }

  private async attempt(row: Claimed, hook: Hook | undefined): Promise<Outcome> {
    const url = hook?.webhook_url;
    if (!url || !hook.webhook_secret_sealed) return { ok: false, status: 0, unsent: true, error: "the organization's webhook was removed before the alert was delivered" };
    const secret = this.deps.sealer?.open(row.org_id, hook.webhook_secret_sealed);
    if (secret === undefined) return { ok: false, status: 0, error: "the signing secret could not be unsealed (CONTROL_PLANE_SECRETS_KEY)" };
    // A secret a rotation replaced signs too until its day is over: a receiver holding either verifies.
    const previous =
      hook.previous_secret_sealed && hook.previous_secret_until && hook.previous_secret_until.getTime() > Date.now() ? this.deps.sealer?.open(row.org_id, hook.previous_secret_sealed) : undefined;
    const deadline = AbortSignal.timeout(this.deps.settings.timeoutMs);
    // The address rules again, on the addresses this attempt connects to (a name may resolve elsewhere since it was set).
    const target = await this.deps.urls.target(url);
    if ("refused" in target) return { ok: false, status: 0, error: `refused: webhook_url ${target.refused}` };
    const timestamp = Math.floor(Date.now() / 1000);
    return postOnce(
      target,
      {
        "user-agent": USER_AGENT,
        "gateway-event-id": row.id,
        "gateway-timestamp": String(timestamp),
        "gateway-signature": [secret, ...(previous ? [previous] : [])].map((s) => signatureHeader(s, timestamp, row.body)).join(","),
      },
      row.body,
      deadline,
    );
  }

  /** An attempt's result. A delivery counts even if this replica's claim ran out meanwhile; a failure only reschedules its own attempt. */
  private async record(row: Claimed, o: Outcome): Promise<void> {
    const { settings, metrics } = this.deps;
    if (o.ok) {
      await this.ctx.db
        .updateTable("alerts")
        .set({ state: "delivered", delivered_at: new Date(), next_attempt_at: null, last_status: o.status, last_error: null })
        .where("id", "=", row.id)
        .where("state", "=", "pending")
        .execute();
      metrics.deliveries.inc({ result: "delivered" });
      return;
    }
    const next = Date.now() + retryDelayMs(row.attempts, settings.retryBaseMs, settings.retryMaxMs);
    const over = o.unsent || next > row.received_at.getTime() + settings.giveUpMs;
    await this.ctx.db
      .updateTable("alerts")
      .set({
        state: o.unsent ? "no_webhook" : over ? "failed" : "pending",
        next_attempt_at: over ? null : new Date(next),
        last_status: o.status || null,
        last_error: (o.error ?? "").slice(0, 500),
      })
      .where("id", "=", row.id)
      .where("state", "=", "pending")
      .where("attempts", "=", row.attempts)
      .execute();
    if (o.unsent) return;
    metrics.deliveries.inc({ result: over ? "gave_up" : "failed" });
    const log = { alert_id: row.id, org_id: row.org_id, attempt: row.attempts, status: o.status, error: o.error };
    if (over) this.ctx.log.warn(log, "alert webhook given up");
    else this.ctx.log.info({ ...log, retry_in_ms: next - Date.now() }, "alert webhook attempt failed; will retry");
  }

  /** The pause until the earliest due alert (bounded), and the pending gauges as of now. */
  private async untilNextDue(): Promise<number> {
    const r = await sql<{ n: number; next: Date | null; oldest: Date | null }>`
      SELECT count(*)::int AS n, min(next_attempt_at) AS next, min(received_at) AS oldest FROM alerts WHERE state = 'pending'`.execute(this.ctx.db);
    const { n, next, oldest } = r.rows[0]!;
    this.deps.metrics.pending.set(n);
    this.deps.metrics.oldestPendingSeconds.set(oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0);
    return next ? Math.min(POLL_MS, Math.max(10, next.getTime() - Date.now())) : POLL_MS;
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await sql`DELETE FROM alerts WHERE state <> 'pending' AND received_at < now() - make_interval(days => ${KEEP_DAYS})`.execute(this.ctx.db);
  }
}
