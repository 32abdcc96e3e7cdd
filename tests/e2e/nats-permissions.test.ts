import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { AckPolicy, jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, headers as natsHeaders, type NatsConnection } from "@nats-io/transport-node";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CATALOG_STREAM,
  CONTROL_CHANGED_SUBJECT,
  LEDGER_BALANCE_SUBJECT,
  LEDGER_JOURNAL_SUBJECT,
  LEDGER_STREAM,
  RATE_LIMIT_GOSSIP_SUBJECT,
  TRIAL_UNLOCK_DURABLE,
  USAGE_BATCH_SUBJECT,
  USAGE_REFUSED_SUBJECT,
  USAGE_STREAM,
  USAGE_SIGNATURE_HEADER,
  USAGE_SUBJECT,
  catalogPricesSubject,
  encodeEvent,
  signUsage,
  usageKey,
  type UsageEventV1,
} from "@gateway/events";
import { createDataPlane, loadConfig as loadDataPlaneConfig } from "@gateway/data-plane";
import { sql } from "@gateway/db";
import { createLogger } from "@gateway/observability";
import { eventually } from "@gateway/testing";
import { FAKE_UPSTREAM_API_KEY } from "../../scripts/lib/demo-catalog.ts";
import type { NatsServiceUser } from "../../scripts/lib/nats-auth.ts";
import type { AnyBody } from "../support/api.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * NATS as an attacker inside the network finds it (issue 21, item 8). Every service connects as its
 * own user and may use only its own subjects (scripts/lib/nats-auth.ts): nothing but a data-plane
 * can put usage on the books, nothing but a ledger can read it, nothing but the control-plane can
 * evict caches, and a connection without credentials is refused. The refusals are nats-server's, on
 * the stack's real server, and each is logged there with the user's name.
 */
let stack: Stack;
let org: TestOrg;
const open: NatsConnection[] = [];

beforeAll(async () => {
  stack = await startStack("nats_permissions", { natsViolationsExpected: true });
  org = await createOrg(stack, { balanceMinor: 5_000_000 });
});
afterAll(async () => {
  await Promise.all(open.map((nc) => nc.close().catch(() => undefined)));
  await stack?.stop();
});

async function as(user: NatsServiceUser | "admin"): Promise<NatsConnection> {
  const nc = await stack.natsAs(user);
  open.push(nc);
  return nc;
}

/** A usage event as a data-plane would publish it: well-formed, for `org`, costing `costMinor`. */
/** A usage event of 1,000 prompt and 1,000 completion tokens of gw-chat-mini (at 150,000 and 600,000 a million: 750 minor), claiming `costMinor`. */
function forgedUsage(costMinor: number, catalogVersion?: number): UsageEventV1 {
  return {
    version: 1,
    request_id: `req_forged${randomBytes(10).toString("hex")}`,
    org_id: org.orgId,
    key_id: org.keyId,
    model: "gw-chat-mini",
    route: "chat",
    provider: "fake",
    upstream_model: "fake-chat",
    lease_id: "lease_forged",
    ...(catalogVersion !== undefined ? { catalog_version: catalogVersion } : {}),
    usage: { input_tokens: 1_000, output_tokens: 1_000, cached_input_tokens: 0, estimated: false },
    input_price_minor_per_mtok: 150_000,
    output_price_minor_per_mtok: 600_000,
    cost_minor: costMinor,
    line_items: [],
    guardrails: [],
    attempts: [],
    stream: false,
    status: 200,
    created_at_ms: Date.now(),
    duration_ms: 1,
  };
}

/** Whether `err` is the server's permission refusal (JetStream calls wrap it in a RequestError). */
function isRefusal(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) if (e.name === "PermissionViolationError") return true;
  return false;
}

/** How a request on `subject` ends: refused by the server's permissions, or anything else (answered, no responders, timed out). */
async function requestOutcome(nc: NatsConnection, subject: string, data = "{}"): Promise<"refused" | "allowed"> {
  try {
    await nc.request(subject, data, { timeout: 1_000 });
    return "allowed";
  } catch (err) {
    return isRefusal(err) ? "refused" : "allowed";
  }
}

/** Whether the server refuses a subscription to `subject` (the client is told before a flush returns). */
async function subscriptionRefused(nc: NatsConnection, subject: string): Promise<boolean> {
  let refused = false;
  const sub = nc.subscribe(subject, { callback: (err) => void (refused ||= err?.name === "PermissionViolationError") });
  await nc.flush();
  await eventually(() => (refused || sub.isClosed() ? true : undefined), 1_000, `${subject} refused`).catch(() => undefined);
  sub.unsubscribe();
  return refused;
}

/** Rejection of `p` with the server's permission refusal (not a timeout, not "no responders"). */
async function expectRefused(p: Promise<unknown>, what: string): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isRefusal(err), `${what}: ${String(err)}`).toBe(true);
}

/** Resolution of `p`, or a rejection other than a permission refusal (an answer such as "not found" is the server's). */
async function expectGranted(p: Promise<unknown>, what: string): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isRefusal(err), `${what}: ${String(err)}`).toBe(false);
}

async function credits(secret = org.secret): Promise<{ balance_minor: number; spent_minor: number }> {
  const r = await fetch(`${stack.baseUrl()}/credits`, { headers: { authorization: `Bearer ${secret}` } });
  return (await r.json()) as AnyBody;
}

async function usageMessages(): Promise<number> {
  const jsm = await jetstreamManager(await as("admin"));
  return (await jsm.streams.info(USAGE_STREAM)).state.messages;
}

describe("NATS credentials and permissions", () => {
  it("runs every service as its own user: requests, stored responses, top-ups and the journal work without a single refusal", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "as usual" }] }).withResponse();
    const requestId = response.headers.get("x-gateway-trace-id")!;
    const usage = await fetch(`${stack.baseUrl()}/usage/${requestId}`, { headers: { authorization: `Bearer ${org.secret}` } });
    expect(usage.status).toBe(200);
    const stored = await client.responses.create({ model: "gw-chat-mini", input: "remember me", store: true });
    expect((await client.responses.retrieve(stored.id)).id).toBe(stored.id);
    // The demo top-up ended the trial through ledger.v1.balance → the control-plane → control.v1.changed.
    expect(stack.dataPlanes[0]!.ctx.nats.current?.info?.server_id).toBeTruthy();
    expect(stack.natsViolations()).toEqual([]);
  });

  it("grants what the services do only now and then: stream settings brought back, durables moved along, the bucket resized", async () => {
    const refusedBefore = stack.natsViolations().length;
    // An operator (or an older release) changed USAGE: a restarted ledger brings it back, as its own user.
    const admin = await jetstreamManager(await as("admin"));
    const usage = await admin.streams.info(USAGE_STREAM);
    await admin.streams.update(USAGE_STREAM, { ...usage.config, max_age: 3_600 * 1e9 });
    await stack.stopLedger();
    await stack.startLedger();
    await eventually(async () => ((await admin.streams.info(USAGE_STREAM)).config.max_age === usage.config.max_age ? true : undefined), 10_000, "USAGE settings restored");

    const ledger = await jetstreamManager(await as("ledger"));
    for (const stream of [USAGE_STREAM, LEDGER_STREAM]) {
      await expectGranted(
        (async () => {
          for await (const _ of ledger.consumers.list(stream));
        })(),
        `ledger: the durables of ${stream}`,
      );
    }
    await expectGranted(ledger.consumers.update(LEDGER_STREAM, TRIAL_UNLOCK_DURABLE, { num_replicas: 1 }), "ledger: the control-plane's durable moved along");
    const control = await jetstreamManager(await as("control-plane"));
    await expectGranted(control.streams.add({ name: LEDGER_STREAM, subjects: ["ledger.v1.>"] }), "control-plane: LEDGER, when it starts first");
    const dataPlane = await jetstreamManager(await as("data-plane"));
    const bucket = await dataPlane.streams.info("KV_RESPONSES");
    await expectGranted(dataPlane.streams.update("KV_RESPONSES", bucket.config), "data-plane: the bucket resized");
    await expectGranted(dataPlane.streams.getMessage("KV_RESPONSES", { last_by_subj: "$KV.RESPONSES.org_none.resp_none" }), "data-plane: a record from a bucket without direct get");
    expect(stack.natsViolations().slice(refusedBefore)).toEqual([]);
  });

  it("refuses a connection without credentials, or with another user's password", async () => {
    const err = await connect({ servers: stack.nats.url, timeout: 3_000 }).then(
      (nc) => nc.close().then(() => undefined),
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/Authorization Violation/);
    const wrong = await connect({ servers: stack.nats.url, timeout: 3_000, user: "data-plane", pass: stack.natsAuth.passwords.ledger }).then(
      (nc) => nc.close().then(() => undefined),
      (e: unknown) => e as Error,
    );
    expect(wrong?.message).toMatch(/Authorization Violation/);
  });

  it("lets each user publish only its own subjects", async () => {
    const owner: Record<string, NatsServiceUser> = {
      [USAGE_SUBJECT]: "data-plane",
      [USAGE_BATCH_SUBJECT]: "data-plane",
      [USAGE_REFUSED_SUBJECT]: "data-plane",
      [RATE_LIMIT_GOSSIP_SUBJECT]: "data-plane",
      [CONTROL_CHANGED_SUBJECT]: "control-plane",
      [LEDGER_BALANCE_SUBJECT]: "ledger",
      [LEDGER_JOURNAL_SUBJECT]: "ledger",
      // The catalog's prices the ledger checks every cost against: a leaked data-plane credential cannot raise them.
      [catalogPricesSubject(999_999)]: "control-plane",
    };
    for (const user of ["data-plane", "ledger", "control-plane", "gatewayctl"] as const) {
      const nc = await as(user);
      for (const [subject, own] of Object.entries(owner)) {
        if (own === user) continue;
        // Refused before anything reaches a subscriber or a stream: no side effect to clean up.
        expect(await requestOutcome(nc, subject), `${user} publishing ${subject}`).toBe("refused");
      }
      expect(await requestOutcome(nc, "usage.v2.recorded"), `${user} publishing usage.v2.recorded`).toBe("refused");
    }
  });

  it("lets nobody subscribe to usage or ledger subjects, or to another service's replies", async () => {
    for (const user of ["data-plane", "ledger", "control-plane", "gatewayctl"] as const) {
      const nc = await as(user);
      for (const subject of ["usage.v1.>", USAGE_SUBJECT, "ledger.v1.>", "$JS.ACK.>", "_INBOX.>", ">"]) {
        expect(await subscriptionRefused(nc, subject), `${user} subscribing to ${subject}`).toBe(true);
      }
      for (const other of ["data-plane", "ledger", "control-plane", "gatewayctl"].filter((u) => u !== user)) {
        expect(await subscriptionRefused(nc, `_INBOX.${other}.>`), `${user} subscribing to ${other}'s replies`).toBe(true);
      }
    }
    // Cache evictions go to the data-plane alone.
    for (const user of ["ledger", "control-plane", "gatewayctl"] as const) expect(await subscriptionRefused(await as(user), CONTROL_CHANGED_SUBJECT), user).toBe(true);
  });

  it("the data-plane's credentials cannot read usage: no subscription, no consumer, no message get, no pull from the ledger's durable", async () => {
    const nc = await as("data-plane");
    // Usage flows meanwhile: a real request is published on usage.v1.* while the subscription is asked for.
    let seen = 0;
    let refusal: Error | undefined;
    nc.subscribe("usage.v1.>", { callback: (err) => void (err ? (refusal = err) : seen++) });
    await nc.flush();
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "private to my org" }] }).withResponse();
    // Applied by the ledger (the lookup waits for it): the event went by while the subscription stood.
    expect((await fetch(`${stack.baseUrl()}/usage/${response.headers.get("x-gateway-trace-id")}`, { headers: { authorization: `Bearer ${org.secret}` } })).status).toBe(200);
    await eventually(() => refusal, 15_000, "the subscription refused");
    expect(refusal!.name).toBe("PermissionViolationError");
    expect(seen).toBe(0);

    const jsm = await jetstreamManager(nc);
    await expectRefused(jsm.streams.info(USAGE_STREAM), "stream info");
    await expectRefused(jsm.consumers.add(USAGE_STREAM, { ack_policy: AckPolicy.None }), "an ephemeral consumer");
    await expectRefused(jsm.consumers.add(USAGE_STREAM, { durable_name: "mine", ack_policy: AckPolicy.Explicit }), "a durable of its own");
    await expectRefused(jsm.streams.getMessage(USAGE_STREAM, { seq: 1 }), "a message by sequence");
    await expectRefused(jsm.direct.getMessage(USAGE_STREAM, { seq: 1 }), "a direct get");
    await expectRefused(nc.request(`$JS.API.CONSUMER.MSG.NEXT.${USAGE_STREAM}.ledger`, JSON.stringify({ batch: 1, no_wait: true }), { timeout: 1_000 }), "a pull from the ledger's durable");
    await expectRefused(jsm.streams.purge(USAGE_STREAM), "a purge");
    await expectRefused(jsm.streams.delete(USAGE_STREAM), "deleting the stream");
    // And nothing of the ledger's: its stream of balances and journal entries.
    await expectRefused(jsm.consumers.add(LEDGER_STREAM, { ack_policy: AckPolicy.None }), "a consumer on LEDGER");
    // Nor the catalog's price sheets: no publish through JetStream, no purge, no deletion.
    await expectRefused(jetstream(nc).publish(catalogPricesSubject(999_999), "{}", { timeout: 1_000 }), "a price sheet");
    await expectRefused(jsm.streams.purge(CATALOG_STREAM), "a purge of CATALOG");
    await expectRefused(jsm.streams.delete(CATALOG_STREAM), "deleting CATALOG");
  });

  it("the ledger's and the control-plane's credentials cannot publish usage, even through JetStream", async () => {
    for (const user of ["ledger", "control-plane", "gatewayctl"] as const) {
      const js = jetstream(await as(user));
      const ev = forgedUsage(1_000);
      await expectRefused(js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id, timeout: 1_000 }), `${user}: usage.v1.recorded`);
      await expectRefused(js.publish(USAGE_BATCH_SUBJECT, encodeEvent(ev), { timeout: 1_000 }), `${user}: usage.v1.batch`);
    }
    expect(stack.natsViolations().join("\n")).toMatch(/Publish Violation - User "ledger", Subject "usage\.v1\.recorded"/);
    expect(stack.natsViolations().join("\n")).toMatch(/Publish Violation - User "control-plane", Subject "usage\.v1\.batch"/);
  });

  it("the ledger cannot consume beyond its durable, and gatewayctl cannot take top-ups from the control-plane's", async () => {
    const ledger = await jetstreamManager(await as("ledger"));
    await expectRefused(ledger.consumers.add(USAGE_STREAM, { durable_name: "another", ack_policy: AckPolicy.Explicit }), "the ledger: another durable on USAGE");
    const ctl = await as("gatewayctl");
    await expectRefused(
      ctl.request(`$JS.API.CONSUMER.MSG.NEXT.${LEDGER_STREAM}.${TRIAL_UNLOCK_DURABLE}`, JSON.stringify({ batch: 1, no_wait: true }), { timeout: 1_000 }),
      "gatewayctl: a pull from the trial durable",
    );
    await expectRefused(ctl.request(`$JS.API.CONSUMER.DELETE.${LEDGER_STREAM}.${TRIAL_UNLOCK_DURABLE}`, "", { timeout: 1_000 }), "gatewayctl: deleting the trial durable");
    // Its own reading stays possible: an ordered consumer of the journal only.
    const jsm = await jetstreamManager(ctl);
    await expectRefused(jsm.consumers.add(LEDGER_STREAM, { name: "balances", filter_subject: LEDGER_BALANCE_SUBJECT, ack_policy: AckPolicy.None }), "gatewayctl: a consumer of balances");
  });

  it("a forged usage event published without the data-plane's credentials never reaches the ledger; real requests are billed as before", async () => {
    const before = await credits();
    const messagesBefore = await usageMessages();
    const forged: string[] = [];
    for (const user of ["ledger", "control-plane", "gatewayctl"] as const) {
      const nc = await as(user);
      for (const subject of [USAGE_SUBJECT, USAGE_BATCH_SUBJECT]) {
        const ev = forgedUsage(1_000_000);
        forged.push(ev.request_id);
        // A plain publish, as a script would send it: the server drops it (no error reaches the sender's call).
        nc.publish(subject, encodeEvent(ev));
      }
      await nc.flush();
    }

    // A real request after the forgeries: once it is applied, anything published before it would be too.
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "billed as usual" }] }).withResponse();
    const requestId = response.headers.get("x-gateway-trace-id")!;
    const usage = (await (await fetch(`${stack.baseUrl()}/usage/${requestId}`, { headers: { authorization: `Bearer ${org.secret}` } })).json()) as AnyBody;
    expect(usage.cost_credits_minor).toBeGreaterThan(0);

    const after = await credits();
    expect(before.balance_minor - after.balance_minor).toBe(usage.cost_credits_minor);
    expect(after.spent_minor - before.spent_minor).toBe(usage.cost_credits_minor);
    // Not stored, not applied: the stream holds only the real request's message.
    expect(await usageMessages()).toBe(messagesBefore + 1);
    const applied = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger.usage_records WHERE request_id = ANY(${forged}::text[])`.execute(stack.ledger().db);
    expect(applied.rows[0]!.n).toBe(0);

    // The same event with the data-plane's NATS credentials is stored, but the NATS credential is not
    // enough to bill: unsigned, or signed with a key the ledger does not hold, it is set aside
    // (dead_letters, reason unsigned / forged; docs/security.md) and nothing is charged.
    const js = jetstream(await as("data-plane"));
    const unsigned = forgedUsage(777);
    await js.publish(USAGE_SUBJECT, encodeEvent(unsigned), { msgID: unsigned.request_id, timeout: 2_000 });
    const wrongKey = forgedUsage(778);
    const h = natsHeaders();
    h.set(USAGE_SIGNATURE_HEADER, signUsage(usageKey("not-the-data-planes-usage-key-0123456789"), encodeEvent(wrongKey)));
    await js.publish(USAGE_SUBJECT, encodeEvent(wrongKey), { msgID: wrongKey.request_id, timeout: 2_000, headers: h });
    const setAside = await eventually(
      async () => {
        const r = await sql<{
          request_id: string;
          reason: string;
        }>`SELECT request_id, reason FROM ledger.dead_letters WHERE request_id IN (${unsigned.request_id}, ${wrongKey.request_id}) ORDER BY reason DESC`.execute(stack.ledger().db);
        return r.rows.length === 2 ? r.rows : undefined;
      },
      15_000,
      "both set aside",
    );
    expect(setAside).toEqual([
      { request_id: unsigned.request_id, reason: "unsigned" },
      { request_id: wrongKey.request_id, reason: "forged" },
    ]);
    expect((await credits()).balance_minor).toBe(after.balance_minor);
    // Signed with the data-plane's usage key (leaked, or a data-plane's bug), a cost its counts do not
    // make at the catalog version it names is set aside too (mispriced), and so is one naming none.
    const sign = (ev: UsageEventV1) => {
      const sh = natsHeaders();
      sh.set(USAGE_SIGNATURE_HEADER, signUsage(usageKey(stack.dataPlaneCallerEnv.DATA_PLANE_USAGE_SIGNING_KEY!), encodeEvent(ev)));
      return js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id, timeout: 2_000, headers: sh });
    };
    const version = usage.catalog_version as number;
    const inflated = forgedUsage(7_500, version);
    const unversioned = forgedUsage(750);
    await sign(inflated);
    await sign(unversioned);
    const mispriced = await eventually(
      async () => {
        const r = await sql<{ reason: string; error: string }>`
          SELECT reason, error FROM ledger.dead_letters WHERE request_id IN (${inflated.request_id}, ${unversioned.request_id}) ORDER BY reason`.execute(stack.ledger().db);
        return r.rows.length === 2 ? r.rows : undefined;
      },
      15_000,
      "both set aside",
    );
    expect(mispriced).toEqual([
      { reason: "mispriced", error: `the event says 7500; its counts cost 750 at catalog version ${version}` },
      { reason: "unpriced", error: "the event names no catalog version" },
    ]);
    expect((await credits()).balance_minor).toBe(after.balance_minor);
    // Signed, and costing what its counts cost, the same event is applied: the signature and the price kept the others out.
    await sign(forgedUsage(750, version));
    await eventually(async () => ((await credits()).balance_minor === after.balance_minor - 750 ? true : undefined), 15_000, "the signed event applied");
  });

  it("a data-plane given a wrong NATS password keeps answering, spools the usage, and names the variables to fix, never the password", async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const wrong = "WrongPassword0123456789";
    const spoolDir = mkdtempSync(join(tmpdir(), "gw-wrong-password-"));
    const dp = createDataPlane(
      loadDataPlaneConfig({
        DATA_PLANE_PORT: "0",
        DATA_PLANE_CONTROL_PLANE_ADDR: `127.0.0.1:${stack.control.grpcPort}`,
        DATA_PLANE_LEDGER_ADDR: `127.0.0.1:${stack.ledger().grpcPort}`,
        ...stack.dataPlaneCallerEnv,
        DATA_PLANE_NATS_URL: stack.nats.url,
        DATA_PLANE_NATS_PASSWORD: wrong,
        DATA_PLANE_REPLICA_ID: "dp-wrong-password",
        DATA_PLANE_SPOOL_DIR: spoolDir,
        DATA_PLANE_SHUTDOWN_REPLAY_MS: "0",
        DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
      }),
      { log: createLogger({ service: "data-plane", level: "info", destination }) },
    );
    await dp.start();
    try {
      const client = new OpenAI({ baseURL: `${dp.url}/v1`, apiKey: org.secret, maxRetries: 0 });
      const answer = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "NATS will not have me" }] });
      expect(answer.choices[0]!.message.content).toBe("Echo: NATS will not have me");
      expect(dp.ctx.publisher.spooled).toBe(1);
      await eventually(
        () => (lines.some((l) => l.includes('NATS refused the credentials of user \\"data-plane\\" (DATA_PLANE_NATS_USER, DATA_PLANE_NATS_PASSWORD)')) ? true : undefined),
        5_000,
        "the refusal logged",
      );
      expect(lines.join("")).not.toContain(wrong);
    } finally {
      await dp.stop();
      rmSync(spoolDir, { recursive: true, force: true });
    }
  });
});
