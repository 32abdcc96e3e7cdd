import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { jetstream } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTROL_CHANGED_SUBJECT, ControlChangedV1, LEDGER_ALERT_SUBJECT, decodeEvent, encodeEvent, type LedgerAlertV1 } from "@gateway/events";
import { sql } from "@gateway/db";
import { eventually } from "@gateway/testing";
import type { AdminServiceMethods, ControlServiceMethods, TypedClient } from "@gateway/proto";
import { createControlPlane, loadConfig, verifySignature, type ControlPlane } from "../src/index.js";
import { createAlertMetrics } from "../src/alerts/metrics.js";
import { WebhookSender } from "../src/alerts/sender.js";
import { setAlertSettings } from "../src/rpc/alert-settings.js";
import { startTestControlPlane, type TestControlPlane } from "./support.js";

/**
 * Alerts at the control-plane (docs/billing.md, "Alerts"): the settings and what they give the
 * data-planes, the ledger's announcements taken once into the outbox, and the signed webhook
 * deliveries from it — retried, resumed after a restart, never made twice by two replicas, given up
 * after their time, refused at send time when the host resolves to a private address.
 */
const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const SECRETS_KEY = "alerts-test-secrets-key-0123456789abcdef";
const ENV = {
  CONTROL_PLANE_SECRETS_KEY: SECRETS_KEY,
  CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
  CONTROL_PLANE_WEBHOOK_RETRY_BASE_MS: "100",
  CONTROL_PLANE_WEBHOOK_RETRY_MAX_MS: "200",
  CONTROL_PLANE_WEBHOOK_TIMEOUT_MS: "2000",
};
/** What the test resolver answers: names the tests move between public and private addresses. */
const names = new Map<string, string[]>();

let t: TestControlPlane;
let cp: ControlPlane;
let admin: TypedClient<AdminServiceMethods>;
let control: TypedClient<ControlServiceMethods>;
let nc: NatsConnection;
const changes: ControlChangedV1[] = [];

/** The local receiver: what it got, and what it answers next (200 unless a status is queued). */
interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
let receiver: Server;
let hookUrl: string;
const received: Delivery[] = [];
const answers: number[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/gateway`;
  t = await startTestControlPlane("cp_alerts", "alerts-test-admin-token", "alerts-test-data-plane-token", ENV, {
    resolve: async (host) => names.get(host) ?? Promise.reject(new Error(`${host}: not found`)),
  });
  ({ cp, admin, control } = t);
  nc = await connect({ servers: t.nats.url });
  nc.subscribe(CONTROL_CHANGED_SUBJECT, {
    callback: (_err, msg) => {
      const ev = decodeEvent(ControlChangedV1, msg.data);
      if (ev) changes.push(ev);
    },
  });
});
/** The restart test stops the control-plane itself. */
let cpStopped = false;
afterAll(async () => {
  await nc?.close();
  if (cpStopped) {
    admin.close();
    control.close();
    await t.nats.stop();
  } else await t?.stop();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

let n = 0;
async function newOrg(): Promise<string> {
  return (await admin.CreateOrg({ name: `alerts-org-${n++}` })).id;
}

/** The ledger's announcement of one crossing (as alerts/watch.ts and the announcer make it). */
function alert(orgId: string, id: string, extra: Partial<LedgerAlertV1> = {}): LedgerAlertV1 {
  return { version: 1, alert_id: id, org_id: orgId, kind: "balance", threshold_minor: 5_000_000, balance_minor: 4_900_000, created_at_ms: Date.now(), ...extra };
}
const announce = (ev: LedgerAlertV1, msgID = ev.alert_id) => jetstream(nc).publish(LEDGER_ALERT_SUBJECT, encodeEvent(ev), { msgID });
const deliveriesOf = (id: string) => received.filter((d) => d.headers["gateway-event-id"] === id);
const rowOf = async (id: string) =>
  (await sql<{ state: string; attempts: number; last_status: number | null; last_error: string | null }>`SELECT * FROM alerts WHERE id = ${id}`.execute(cp.db)).rows[0];

describe("alert settings", () => {
  it("validates thresholds, gives them to the data-planes in the key context and evicts the organization's keys", async () => {
    const org = await newOrg();
    const key = await admin.CreateKey({ org, routes: [], models: [], name: "k", rpm_limit: 0, tpm_limit: 0, mcp_tools: [] });
    await expect(admin.SetAlertSettings({ org, budget_pcts: { values: [50, 0] } })).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringMatching(/budget_pcts must be whole percentages from 1 to 1000/),
    });
    await expect(admin.SetAlertSettings({ org, balance_minor: { values: [-1] } })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(admin.SetAlertSettings({ org, budget_pcts: { values: Array.from({ length: 11 }, (_, i) => i + 1) } })).rejects.toMatchObject({ message: expect.stringMatching(/at most 10/) });
    await expect(admin.SetAlertSettings({ org })).rejects.toMatchObject({ code: "invalid_request", message: expect.stringMatching(/nothing to change/) });

    const before = changes.length;
    const s = await admin.SetAlertSettings({ org, budget_pcts: { values: [100, 50, 80] }, balance_minor: { values: [1_000_000, 5_000_000] } });
    expect(s).toMatchObject({ org_id: org, budget_pcts: [50, 80, 100], balance_minor: [5_000_000, 1_000_000], webhook_url: "", webhook_secret: "" });
    await eventually(() => (changes.slice(before).some((c) => c.kind === "org" && c.id === org) ? true : undefined), 5_000, "the change event");
    expect((await control.AuthenticateKey({ key_hash: sha(key.secret) })).key).toMatchObject({ alert_thresholds_pct: [50, 80, 100], balance_alerts_minor: [5_000_000, 1_000_000] });
    // Left out: kept. Empty: removed.
    await admin.SetAlertSettings({ org, budget_pcts: { values: [] } });
    expect(await admin.GetAlertSettings({ org })).toMatchObject({ budget_pcts: [], balance_minor: [5_000_000, 1_000_000] });
    expect((await control.AuthenticateKey({ key_hash: sha(key.secret) })).key).toMatchObject({ alert_thresholds_pct: [], balance_alerts_minor: [5_000_000, 1_000_000] });
  });

  it("makes the signing secret once, keeps it only sealed, rotates it, and refuses a URL whose host resolves privately", async () => {
    const org = await newOrg();
    names.set("hooks.internal.test", ["10.20.30.40"]);
    await expect(admin.SetAlertSettings({ org, webhook_url: "https://hooks.internal.test/in" })).rejects.toMatchObject({
      code: "invalid_request",
      message: "webhook_url host 'hooks.internal.test' resolves to a private address (10.20.30.40).",
    });
    await expect(admin.SetAlertSettings({ org, webhook_url: "http://hooks.example.test/in" })).rejects.toMatchObject({ message: "webhook_url must be an https:// URL." });
    await expect(admin.SetAlertSettings({ org, rotate_secret: true })).rejects.toMatchObject({ message: expect.stringMatching(/no webhook/) });

    names.set("hooks.example.test", ["93.184.216.34"]);
    // A control-plane without CONTROL_PLANE_SECRETS_KEY takes thresholds but no webhook: it could not seal the secret.
    const keyless = setAlertSettings({ ...cp.ctx, secrets: undefined });
    const change = { org, budget_pcts: null, balance_minor: null, rotate_secret: false, drop_previous_secret: false };
    await expect(keyless({ ...change, webhook_url: "https://hooks.example.test/in" })).rejects.toMatchObject({
      code: "service_unavailable",
      message: expect.stringMatching(/no CONTROL_PLANE_SECRETS_KEY/),
    });
    expect(await keyless({ ...change, balance_minor: { values: [1] } })).toMatchObject({ balance_minor: [1], webhook_url: "" });

    const first = await admin.SetAlertSettings({ org, webhook_url: "https://hooks.example.test/in" });
    expect(first.webhook_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(first.webhook_secret_prefix).toBe(first.webhook_secret.slice(0, 10));
    const stored = await sql<Record<string, unknown>>`SELECT * FROM org_alert_settings WHERE org_id = ${org}`.execute(cp.db);
    expect(JSON.stringify(stored.rows)).not.toContain(first.webhook_secret.slice(10));
    // Shown once: neither reading nor changing the URL shows it again, nor makes another.
    expect((await admin.GetAlertSettings({ org })).webhook_secret).toBe("");
    const moved = await admin.SetAlertSettings({ org, webhook_url: "https://hooks.example.test/other" });
    expect(moved).toMatchObject({ webhook_secret: "", webhook_secret_prefix: first.webhook_secret_prefix });
    const rotated = await admin.SetAlertSettings({ org, rotate_secret: true });
    expect(rotated.webhook_secret).toMatch(/^whsec_/);
    expect(rotated.webhook_secret).not.toBe(first.webhook_secret);
    // "" removes the webhook and its secret.
    expect(await admin.SetAlertSettings({ org, webhook_url: "" })).toMatchObject({ webhook_url: "", webhook_secret_prefix: "", secret_created_at_ms: 0 });
  });
});

describe("deliveries", () => {
  it("delivers an announced alert signed with the organization's secret, again after a failed attempt, and once per alert id", async () => {
    const org = await newOrg();
    const { webhook_secret: secret } = await admin.SetAlertSettings({ org, webhook_url: hookUrl, balance_minor: { values: [5_000_000] } });
    answers.push(500);
    const ev = alert(org, "alert_once1");
    await announce(ev);
    const got = await eventually(() => (deliveriesOf(ev.alert_id).length >= 2 ? deliveriesOf(ev.alert_id) : undefined), 10_000, "the delivery after a 500");
    for (const d of got) {
      expect(verifySignature(secret, String(d.headers["gateway-signature"]), String(d.headers["gateway-timestamp"]), d.body)).toBe(true);
      expect(d.headers["content-type"]).toBe("application/json");
    }
    // The same bytes at every attempt.
    expect(got[0]!.body).toBe(got[1]!.body);
    expect(JSON.parse(got[0]!.body)).toMatchObject({ id: "alert_once1", type: "balance.threshold_crossed", org_id: org, balance: { threshold_minor: 5_000_000, balance_minor: 4_900_000 } });
    await eventually(async () => ((await rowOf(ev.alert_id))?.state === "delivered" ? true : undefined), 5_000, "delivered");
    expect(await rowOf(ev.alert_id)).toMatchObject({ attempts: 2, last_status: 200, last_error: null });

    // Announced again (a replay, another message id): stored once, delivered once.
    await announce(ev, "replayed-alert_once1");
    await announce({ ...ev, created_at_ms: ev.created_at_ms + 1 }, "replayed-again");
    await eventually(async () => {
      const m = await (await fetch(`http://127.0.0.1:${cp.opsPort}/metrics`)).text();
      return /control_alerts_received_total\{[^}]*outcome="duplicate"[^}]*\} ([2-9]|\d\d)/.test(m) ? true : undefined;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(deliveriesOf(ev.alert_id)).toHaveLength(2);

    const { alerts } = await admin.ListAlerts({ org });
    expect(alerts).toEqual([
      expect.objectContaining({ id: "alert_once1", kind: "balance", threshold_minor: 5_000_000, delivery_state: "delivered", attempts: 2, delivered_at_ms: expect.any(Number) }),
    ]);
  });

  it("signs with the old secret beside the new one for a day after a rotation, and with the new one alone once the old is dropped", async () => {
    const org = await newOrg();
    const { webhook_secret: old } = await admin.SetAlertSettings({ org, webhook_url: hookUrl });
    const rotated = await admin.SetAlertSettings({ org, rotate_secret: true });
    expect(rotated.previous_secret_until_ms - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    await announce(alert(org, "alert_rotated1"));
    const both = await eventually(() => deliveriesOf("alert_rotated1")[0]);
    expect(String(both.headers["gateway-signature"]).split(",")).toHaveLength(2);
    for (const secret of [old, rotated.webhook_secret]) expect(verifySignature(secret, String(both.headers["gateway-signature"]), String(both.headers["gateway-timestamp"]), both.body)).toBe(true);

    expect(await admin.SetAlertSettings({ org, drop_previous_secret: true })).toMatchObject({ previous_secret_until_ms: 0, webhook_secret: "" });
    await announce(alert(org, "alert_rotated2"));
    const one = await eventually(() => deliveriesOf("alert_rotated2")[0]);
    expect(verifySignature(rotated.webhook_secret, String(one.headers["gateway-signature"]), String(one.headers["gateway-timestamp"]), one.body)).toBe(true);
    expect(verifySignature(old, String(one.headers["gateway-signature"]), String(one.headers["gateway-timestamp"]), one.body)).toBe(false);
  });

  it("keeps an alert of an organization without a webhook, unsent", async () => {
    const org = await newOrg();
    await announce(alert(org, "alert_nohook"));
    const { alerts } = await eventually(async () => {
      const l = await admin.ListAlerts({ org });
      return l.alerts.length ? l : undefined;
    });
    expect(alerts[0]).toMatchObject({ delivery_state: "no_webhook", attempts: 0 });
  });

  it("refuses to send to a host that resolves to a private address at send time, and gives up after its time", async () => {
    const org = await newOrg();
    names.set("rebind.example.test", ["93.184.216.34"]);
    await admin.SetAlertSettings({ org, webhook_url: "https://rebind.example.test/in" });
    names.set("rebind.example.test", ["169.254.169.254"]);
    await announce(alert(org, "alert_rebind"));
    const row = await eventually(async () => {
      const r = await rowOf("alert_rebind");
      return r && r.attempts >= 1 && r.last_error ? r : undefined;
    });
    expect(row).toMatchObject({ state: "pending", last_status: null, last_error: "refused: webhook_url host 'rebind.example.test' resolves to a cloud metadata address (169.254.169.254)." });
    // A day later (CONTROL_PLANE_WEBHOOK_GIVE_UP_MS) the next failure is the last.
    await sql`UPDATE alerts SET received_at = now() - interval '25 hours' WHERE id = 'alert_rebind'`.execute(cp.db);
    await eventually(async () => ((await rowOf("alert_rebind"))?.state === "failed" ? true : undefined), 5_000, "given up");
    const m = await (await fetch(`http://127.0.0.1:${cp.opsPort}/metrics`)).text();
    expect(m).toMatch(/control_webhook_deliveries_total\{[^}]*result="gave_up"[^}]*\} 1/);
  });

  it("never makes the same attempt from two replicas (claims skip locked rows)", async () => {
    const org = await newOrg();
    await admin.SetAlertSettings({ org, webhook_url: hookUrl });
    const ids = Array.from({ length: 40 }, (_, i) => `alert_race${i}`);
    // Written straight into the outbox, all due at once; this replica's own sender is racing too.
    for (const id of ids) {
      await sql`INSERT INTO alerts (id, org_id, kind, event, body, created_at, state, next_attempt_at)
        VALUES (${id}, ${org}, 'balance', ${JSON.stringify(alert(org, id))}::jsonb, ${JSON.stringify({ id })}, now(), 'pending', now())`.execute(cp.db);
    }
    const metrics = createAlertMetrics(new (await import("@gateway/observability")).Registry());
    const replica = () => new WebhookSender(cp.ctx, { settings: cp.ctx.config.webhooks, urls: cp.ctx.webhookUrls, sealer: cp.ctx.secrets, metrics });
    const [a, b] = [replica(), replica()];
    await Promise.all([a.pass(), b.pass(), a.pass(), b.pass(), a.pass(), b.pass()]);
    await eventually(async () => {
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM alerts WHERE id = ANY(${ids}) AND state = 'delivered'`.execute(cp.db);
      return r.rows[0]!.n === ids.length ? true : undefined;
    });
    for (const id of ids) expect(deliveriesOf(id), id).toHaveLength(1);
    const attempts = await sql<{ n: number }>`SELECT sum(attempts)::int AS n FROM alerts WHERE id = ANY(${ids})`.execute(cp.db);
    expect(attempts.rows[0]!.n).toBe(ids.length);
  });
});

describe("restarts and the secrets key", () => {
  it("resumes a pending delivery after a restart, and refuses to start with webhooks but without their key", async () => {
    const org = await newOrg();
    const { webhook_secret: secret } = await admin.SetAlertSettings({ org, webhook_url: hookUrl });
    // The receiver is down (500) until after the restart.
    answers.push(500, 500, 500, 500, 500, 500, 500, 500);
    await announce(alert(org, "alert_restart"));
    await eventually(() => (deliveriesOf("alert_restart").length >= 1 ? true : undefined), 5_000, "a first attempt");
    cpStopped = true;
    await cp.stop();
    answers.length = 0;
    const before = deliveriesOf("alert_restart").length;

    // Without the key, or with another one, the control-plane does not start: it says which variable to set.
    for (const key of [undefined, "another-key-that-sealed-nothing-0123456789"]) {
      const env: Record<string, string> = { ...t.env, ...(key ? { CONTROL_PLANE_SECRETS_KEY: key } : {}) };
      if (!key) delete env.CONTROL_PLANE_SECRETS_KEY;
      const refused = createControlPlane(loadConfig(env));
      await expect(refused.start()).rejects.toMatchObject({
        message: key
          ? expect.stringMatching(/CONTROL_PLANE_SECRETS_KEY does not open the webhook signing secret/)
          : expect.stringMatching(/have an alert webhook .* but CONTROL_PLANE_SECRETS_KEY is not set/),
      });
      await refused.stop();
    }

    const again = createControlPlane(loadConfig(t.env), { resolve: async (host) => names.get(host) ?? [] });
    await again.start();
    try {
      await eventually(
        async () => ((await sql<{ state: string }>`SELECT state FROM alerts WHERE id = 'alert_restart'`.execute(again.db)).rows[0]?.state === "delivered" ? true : undefined),
        10_000,
        "delivered after the restart",
      );
      const after = deliveriesOf("alert_restart").slice(before);
      expect(after).toHaveLength(1);
      expect(verifySignature(secret, String(after[0]!.headers["gateway-signature"]), String(after[0]!.headers["gateway-timestamp"]), after[0]!.body)).toBe(true);
    } finally {
      await again.stop();
    }
  });
});
