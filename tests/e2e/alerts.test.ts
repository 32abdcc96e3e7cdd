import { execFile } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { jetstream } from "@nats-io/jetstream";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleServer } from "@gateway/console";
import { LEDGER_ALERT_SUBJECT, encodeEvent } from "@gateway/events";
import { eventually } from "@gateway/testing";
import { consoleServiceEnv, consoleUser, startConsoleFor } from "../support/console.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";
import type { AnyBody } from "../support/api.ts";

/**
 * Alerts end to end (docs/billing.md, "Alerts"): an organization sets a balance threshold (or a
 * budget percentage) and a webhook at a local receiver, spends through the OpenAI SDK until it is
 * crossed, and the receiver gets the ledger's alert from the control-plane, signed with the
 * organization's secret — again after it failed the first attempt, and once only when the alert is
 * announced again. A
 * webhook whose host resolves to a private address is refused when set and when sent.
 */
const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
/** The control-plane's resolver for webhook hosts: these tests move names between public and private addresses. */
const names = new Map<string, string[]>();

let stack: Stack;
let console_: ConsoleServer;
let user: ReturnType<typeof consoleUser>;
let receiver: Server;
let receiverPort = 0;

/** What the receiver got, and what it answers next (200 unless a status is queued). */
interface Delivery {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
}
const received: Delivery[] = [];
const answers: number[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const h = (name: string) => String(req.headers[name] ?? "");
      received.push({ id: h("gateway-event-id"), timestamp: h("gateway-timestamp"), signature: h("gateway-signature"), body });
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverPort = (receiver.address() as { port: number }).port;
  stack = await startStack("alerts", {
    serviceEnv: {
      ...consoleServiceEnv,
      // The receiver is on the loopback: allowlisted by the operator (tests only), retried within a second.
      CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
      CONTROL_PLANE_WEBHOOK_RETRY_BASE_MS: "200",
      CONTROL_PLANE_WEBHOOK_RETRY_MAX_MS: "400",
    },
    controlOverrides: { resolve: async (host) => names.get(host) ?? Promise.reject(new Error(`${host}: not found`)) },
  });
  console_ = await startConsoleFor(stack);
  user = consoleUser(stack, console_);
});
afterAll(async () => {
  await console_?.close();
  await stack?.stop();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

async function gatewayctl(...args: string[]): Promise<string> {
  const r = await run(join(root, "bin/gatewayctl"), args, {
    env: {
      ...process.env,
      GATEWAY_ADMIN_TOKEN: stack.adminToken,
      GATEWAY_CONTROL_PLANE_ADDR: `127.0.0.1:${stack.control.grpcPort}`,
      GATEWAY_LEDGER_ADDR: `127.0.0.1:${stack.ledger().grpcPort}`,
    },
  });
  return r.stdout;
}

/**
 * A receiver's check, written as the docs tell a user to (not with the gateway's code): the
 * timestamp is recent, and a `v1=` signature is the hex HMAC-SHA256 of `<timestamp>.<raw body>`
 * under the secret, compared in constant time.
 */
function signedBy(secret: string, d: Delivery): boolean {
  if (Math.abs(Date.now() / 1000 - Number(d.timestamp)) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${d.timestamp}.${d.body}`).digest();
  return d.signature.split(",").some((part) => {
    const [scheme, hex] = part.trim().split("=");
    const given = Buffer.from(hex ?? "", "hex");
    return scheme === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe("alert webhooks", () => {
  let org: TestOrg;
  let secret = "";
  let alertId = "";

  it("delivers the crossing of a balance threshold to the organization's webhook, signed, again after a failed attempt", async () => {
    org = await createOrg(stack, { balanceMinor: 1_000_000 });
    // Set before the key's first request: its first lease states the threshold to the ledger.
    const set = JSON.parse(await gatewayctl("alerts", "set", org.orgId, "--balance-minor", "999990", "--webhook", `http://127.0.0.1:${receiverPort}/gateway-alerts`, "--json")) as AnyBody;
    expect(set).toMatchObject({ balance_minor: [999_990], webhook_url: `http://127.0.0.1:${receiverPort}/gateway-alerts` });
    secret = set.webhook_secret as string;
    expect(secret).toMatch(/^whsec_/);
    // Shown once: afterwards only its first characters.
    const shown = await gatewayctl("alerts", "show", org.orgId);
    expect(shown).toContain(`(secret ${secret.slice(0, 10)}…)`);
    expect(shown).not.toContain(secret);

    // The receiver is down for the first attempt.
    answers.push(500);
    const openai = new OpenAI({ apiKey: org.secret, baseURL: stack.baseUrl(), maxRetries: 0 });
    for (let i = 0; i < 30 && !received.some((d) => JSON.parse(d.body).org_id === org.orgId); i++) {
      await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: `spend ${i}` }], max_tokens: 16 });
      await new Promise((r) => setTimeout(r, 100));
    }
    const mine = () => received.filter((d) => (JSON.parse(d.body) as { org_id: string }).org_id === org.orgId);
    const got = await eventually(() => (mine().length >= 2 ? mine() : undefined), 10_000, "the alert again after the receiver's 500");
    alertId = got[0]!.id;
    expect(got.map((d) => d.id)).toEqual([alertId, alertId]);
    for (const d of got) expect(signedBy(secret, d)).toBe(true);
    expect(signedBy("whsec_someone-else", got[0]!)).toBe(false);
    const event = JSON.parse(got[1]!.body) as AnyBody;
    expect(event).toMatchObject({ id: alertId, type: "balance.threshold_crossed", org_id: org.orgId, balance: { threshold_minor: 999_990 } });
    expect(event.balance.balance_minor).toBeLessThanOrEqual(999_990);

    const listed = await gatewayctl("alerts", "list", "--org", org.orgId);
    expect(listed).toMatch(new RegExp(`^\\S+Z\\t${alertId}\\tbalance\\t-\\t<= 999990 \\(balance \\d+\\)\\tdelivered\\t2 attempt\\(s\\)$`, "m"));
  });

  it("delivers the crossing of a budget's percentage, once in its window", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000 });
    await gatewayctl("org", "set-budget", o.orgId, "--limit-minor", "1000", "--window", "day");
    const { webhook_secret } = await stack.admin.SetAlertSettings({ org: o.orgId, budget_pcts: { values: [1, 50] }, webhook_url: `http://127.0.0.1:${receiverPort}/budget` });
    const openai = new OpenAI({ apiKey: o.secret, baseURL: stack.baseUrl(), maxRetries: 0 });
    const budgetAlerts = () => received.filter((d) => (JSON.parse(d.body) as { org_id: string }).org_id === o.orgId);
    for (let i = 0; i < 20 && budgetAlerts().length === 0; i++) {
      await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: `budget ${i}` }], max_tokens: 16 });
      await new Promise((r) => setTimeout(r, 100));
    }
    const [first] = await eventually(() => (budgetAlerts().length ? budgetAlerts() : undefined), 10_000, "the budget alert");
    expect(signedBy(webhook_secret, first!)).toBe(true);
    const event = JSON.parse(first!.body) as AnyBody;
    expect(event).toMatchObject({ type: "budget.threshold_crossed", org_id: o.orgId, budget: { scope: "org", threshold_pct: 1, limit_minor: 1_000 } });
    expect(event.budget.spent_minor).toBeGreaterThanOrEqual(10);
    expect(Date.parse(event.budget.window_end) - Date.parse(event.budget.window_start)).toBe(86_400_000);
    // More spend in the same window, below 50 %: 1 % is not announced again.
    await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "more" }], max_tokens: 16 });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(budgetAlerts()).toHaveLength(1);
  });

  it("delivers an alert announced again (a replay, another message id) no second time", async () => {
    const before = received.filter((d) => d.id === alertId).length;
    const nc = await stack.natsAs("ledger");
    try {
      const { alerts } = await stack.admin.ListAlerts({ org: org.orgId });
      const a = alerts.find((x) => x.id === alertId)!;
      const ev = { version: 1, alert_id: alertId, org_id: org.orgId, kind: "balance", threshold_minor: a.threshold_minor, balance_minor: a.balance_minor, created_at_ms: a.created_at_ms };
      await jetstream(nc).publish(LEDGER_ALERT_SUBJECT, encodeEvent(ev), { msgID: `${alertId}-replayed` });
      // And the ledger's own path to announce it again, after a lost stream.
      await gatewayctl("ledger", "republish", "--since", new Date(a.created_at_ms - 60_000).toISOString());
      await eventually(async () => {
        const m = await (await fetch(`http://127.0.0.1:${stack.control.opsPort}/metrics`)).text();
        return /control_alerts_received_total\{[^}]*outcome="duplicate"[^}]*\} [1-9]/.test(m) ? true : undefined;
      });
    } finally {
      await nc.close();
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(received.filter((d) => d.id === alertId)).toHaveLength(before);
  });

  it("refuses a webhook whose host resolves to a private address when it is set, and when it is sent", async () => {
    const other = await createOrg(stack, { balanceMinor: 1_000_000 });
    const admin = await user.signIn(other.orgId, "admin");
    names.set("hooks.internal.example", ["10.0.12.7"]);
    const refused = await user.post("/api/alerts/settings", admin.cookie, admin.csrf, { webhook_url: "https://hooks.internal.example/in" });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as AnyBody).error).toMatchObject({ code: "invalid_request", message: "The webhook URL host 'hooks.internal.example' resolves to a private address (10.0.12.7)." });

    // Public when set; the receiver's own loopback address when sent (DNS rebinding): refused, never connected to.
    names.set("rebind.example", ["93.184.216.34"]);
    const ok = await user.post("/api/alerts/settings", admin.cookie, admin.csrf, { webhook_url: `https://rebind.example:${receiverPort}/in` });
    expect(ok.status).toBe(200);
    names.set("rebind.example", ["127.0.0.1"]);
    const before = received.length;
    const nc = await stack.natsAs("ledger");
    try {
      const ev = { version: 1, alert_id: `alert_rebind${Date.now()}`, org_id: other.orgId, kind: "balance", threshold_minor: 500_000, balance_minor: 400_000, created_at_ms: Date.now() };
      await jetstream(nc).publish(LEDGER_ALERT_SUBJECT, encodeEvent(ev), { msgID: ev.alert_id });
    } finally {
      await nc.close();
    }
    const alert = await eventually(async () => {
      const a = (await stack.admin.ListAlerts({ org: other.orgId })).alerts[0];
      return a?.last_error ? a : undefined;
    });
    expect(alert).toMatchObject({ delivery_state: "pending", last_status: 0, last_error: "refused: webhook_url host 'rebind.example' resolves to a loopback address (127.0.0.1)." });
    expect(received.length).toBe(before);
  });
});

describe("the console's alerts API", () => {
  it("shows any member the organization's alerts and settings (never the secret); billing sets thresholds, only admins the webhook", async () => {
    const org = await createOrg(stack, { balanceMinor: 1_000_000 });
    const [admin, billing, viewer] = [await user.signIn(org.orgId, "admin"), await user.signIn(org.orgId, "billing"), await user.signIn(org.orgId, "viewer")];
    const thresholds = await user.post("/api/alerts/settings", billing.cookie, billing.csrf, { budget_pcts: [80, 50, 100], balance_minor: [2_000_000] });
    expect(thresholds.status).toBe(200);
    expect(await thresholds.json()).toMatchObject({ budget_pcts: [50, 80, 100], balance_minor: [2_000_000], webhook_url: "" });
    expect((await user.post("/api/alerts/settings", billing.cookie, billing.csrf, { webhook_url: `http://127.0.0.1:${receiverPort}/x` })).status).toBe(403);
    expect((await user.post("/api/alerts/settings", viewer.cookie, viewer.csrf, { budget_pcts: [90] })).status).toBe(403);
    expect((await user.post("/api/alerts/settings", admin.cookie, admin.csrf, { budget_pcts: [0] })).status).toBe(400);

    const hook = await user.post("/api/alerts/settings", admin.cookie, admin.csrf, { webhook_url: `http://127.0.0.1:${receiverPort}/console` });
    const made = (await hook.json()) as AnyBody;
    expect(made.webhook_secret).toMatch(/^whsec_/);
    const shown = await user.get("/api/alerts/settings", viewer.cookie);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ webhook_url: `http://127.0.0.1:${receiverPort}/console`, webhook_secret_prefix: made.webhook_secret.slice(0, 10) });
    expect(shown.body).not.toHaveProperty("webhook_secret");
    // Rotated because it leaked: the old secret stops signing at once (otherwise it signs beside the new one for a day).
    const rotated = (await (await user.post("/api/alerts/rotate-secret", admin.cookie, admin.csrf, { drop_previous: true })).json()) as AnyBody;
    expect(rotated.webhook_secret).toMatch(/^whsec_/);
    expect(rotated.webhook_secret).not.toBe(made.webhook_secret);
    expect(rotated.previous_secret_until_ms).toBe(0);
    expect((await user.post("/api/alerts/rotate-secret", billing.cookie, billing.csrf)).status).toBe(403);

    // An alert of the organization (announced as the ledger does), for every role to read.
    const nc = await stack.natsAs("ledger");
    const id = `alert_console${Date.now()}`;
    try {
      const ev = {
        version: 1,
        alert_id: id,
        org_id: org.orgId,
        kind: "budget",
        scope: "org",
        window_start_ms: 0,
        window_end_ms: 0,
        threshold_pct: 80,
        limit_minor: 1_000,
        spent_minor: 810,
        created_at_ms: Date.now(),
      };
      await jetstream(nc).publish(LEDGER_ALERT_SUBJECT, encodeEvent(ev), { msgID: id });
    } finally {
      await nc.close();
    }
    for (const member of [viewer, admin]) {
      const page = await eventually(async () => {
        const r = await user.get("/api/alerts", member.cookie);
        return (r.body as AnyBody).data?.some((a: AnyBody) => a.id === id && a.delivery_state === "delivered") ? r.body : undefined;
      });
      expect(page.data.find((a: AnyBody) => a.id === id)).toMatchObject({ kind: "budget", scope: "org", threshold_pct: 80, limit_minor: 1_000, spent_minor: 810, attempts: 1 });
    }
    // Signed with the new secret only.
    const d = received.find((x) => x.id === id)!;
    expect(signedBy(rotated.webhook_secret, d)).toBe(true);
    expect(signedBy(made.webhook_secret, d)).toBe(false);
    // The audit keeps who changed what, never the secret.
    const audit = await user.get("/api/audit", admin.cookie);
    expect(JSON.stringify(audit.body)).toContain("alerts_set");
    expect(JSON.stringify(audit.body)).not.toContain(rotated.webhook_secret);
  });
});
