import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { eventually } from "@gateway/testing";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";
import type { UsageBody } from "../support/api.ts";
import { providerUsage } from "../support/provider-usage.ts";

/**
 * The Responses API's WebSocket mode (docs/providers.md, "WebSocket mode"), driven by a client
 * nobody here wrote (the `ws` package) with the documented messages: `response.create` turns on one
 * connection, each its own request (trace id, usage record billed at the provider's usage), errors
 * as `error` events that leave the connection open, a connection closed mid-turn billed as an
 * abandoned stream, the limits (turns per connection, idle timeout, connections per key), the key
 * checked before the upgrade, and the shutdown (the turn finishes, then 1001).
 */

const DRAIN_MS = 1_000;
let stack: Stack;
let org: TestOrg;

beforeAll(async () => {
  stack = await startStack("responses_ws", {
    dataPlaneEnv: {
      DATA_PLANE_WS_MAX_TURNS: "3",
      DATA_PLANE_WS_IDLE_TIMEOUT_MS: "1500",
      DATA_PLANE_WS_MAX_CONNECTIONS_PER_KEY: "2",
      DATA_PLANE_CLIENT_GONE_DRAIN_MS: String(DRAIN_MS),
    },
  });
  org = await createOrg(stack, { balanceMinor: 100_000_000, models: ["gw-gpt", "gw-claude"] });
  await eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl()}/models`, { headers: { authorization: `Bearer ${org.secret}` } });
      return ((await r.json()) as { data?: unknown[] }).data?.length ? true : undefined;
    },
    15_000,
    "models visible",
  );
});

afterAll(async () => {
  await stack?.stop();
});

type Event = Record<string, unknown> & { type: string };

/** A connection with every event it received, in order. */
interface Conn {
  ws: WebSocket;
  events: Event[];
  closed: Promise<{ code: number; reason: string }>;
  /** Sends a turn and resolves with its events, `gateway.turn` to the terminal one (or the error). */
  turn(body: Record<string, unknown>): Promise<Event[]>;
  /** Resolves with the next event that `pred` accepts (from those not read yet). */
  next(pred: (e: Event) => boolean): Promise<Event>;
}

const wsUrl = (i = 0) => `${stack.baseUrl(i).replace(/^http/, "ws")}/responses`;

function open(secret = org.secret, i = 0): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(i), { headers: { authorization: `Bearer ${secret}` } });
    const events: Event[] = [];
    let read = 0;
    let wake: (() => void) | undefined;
    ws.on("message", (d) => {
      events.push(JSON.parse(String(d)) as Event);
      wake?.();
    });
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      ws.on("close", (code, reason) => {
        r({ code, reason: String(reason) });
        wake?.();
      }),
    );
    const next = async (pred: (e: Event) => boolean): Promise<Event> => {
      for (;;) {
        while (read < events.length) {
          const e = events[read++]!;
          if (pred(e)) return e;
        }
        if (ws.readyState === WebSocket.CLOSED) throw new Error(`closed; events: ${JSON.stringify(events.map((e) => e.type))}`);
        await new Promise<void>((r) => (wake = r));
      }
    };
    const terminal = (e: Event) => ["response.completed", "response.incomplete", "response.failed", "error"].includes(e.type);
    const turn = async (body: Record<string, unknown>) => {
      const from = events.length;
      read = from;
      ws.send(JSON.stringify({ type: "response.create", ...body }));
      await next(terminal);
      return events.slice(from, read);
    };
    ws.once("open", () => resolve({ ws, events, closed, turn, next }));
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => {
      let b = "";
      res.on("data", (c: Buffer) => (b += String(c)));
      res.on("end", () => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode, body: b })));
    });
  });
}

async function usage(id: string): Promise<UsageBody> {
  return eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${org.secret}` } });
      return r.status === 200 ? ((await r.json()) as UsageBody) : undefined;
    },
    15_000,
    `usage of ${id}`,
  );
}

const turnId = (events: Event[]) => {
  expect(events[0]!.type).toBe("gateway.turn");
  return events[0]!.request_id as string;
};

describe("turns on one connection", () => {
  it("two turns, the second continuing the first: each its own trace id, headers and usage record, billed at the provider's usage", async () => {
    const c = await open();
    const marker = `ws-two-${randomBytes(4).toString("hex")}`;
    const first = await c.turn({ model: "gw-gpt", input: `${marker} first [[fake:words=7]]` });
    const id1 = turnId(first);
    expect(first[0]!.headers).toMatchObject({ "x-gateway-trace-id": id1, "x-request-id": id1, "x-gateway-provider": expect.any(String), "x-gateway-retry-count": "0" });
    expect(first.map((e) => e.type)).toContain("response.output_text.delta");
    const done1 = first.at(-1)!;
    expect(done1.type).toBe("response.completed");
    const u1 = await usage(id1);
    const p1 = providerUsage(stack.fake, `${marker} first`);
    expect(u1).toMatchObject({ route: "responses", stream: true, status: 200 });
    expect(u1.usage).toMatchObject({ input_tokens: p1.input, output_tokens: p1.output, basis: "reported" });

    const second = await c.turn({ model: "gw-gpt", previous_response_id: (done1.response as { id: string }).id, input: `${marker} second [[fake:words=3]]` });
    const id2 = turnId(second);
    expect(id2).not.toBe(id1);
    expect(second.at(-1)!.type).toBe("response.completed");
    // The stored first turn went to the provider ahead of the new input.
    const sent = [...stack.fake.requests].reverse().find((r) => JSON.stringify(r.body).includes(`${marker} second`))!;
    expect(JSON.stringify(sent.body)).toContain(`${marker} first`);
    const u2 = await usage(id2);
    const p2 = providerUsage(stack.fake, `${marker} second`);
    expect(u2.usage).toMatchObject({ input_tokens: p2.input, output_tokens: p2.output });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it("a refused turn is an error event with its HTTP status, and the connection goes on", async () => {
    const c = await open();
    const unknown = await c.turn({ model: "gw-nope", input: "hi" });
    expect(unknown.at(-1)).toMatchObject({ type: "error", status: 404, error: { code: "model_not_found" } });
    const bad = await c.turn({ model: "gw-gpt" });
    expect(bad.at(-1)).toMatchObject({ type: "error", status: 400, error: { param: "input" } });
    const ok = await c.turn({ model: "gw-claude", input: "[[fake:words=2]] still here" });
    expect(ok.at(-1)!.type).toBe("response.completed");
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();

    // An organization without credit: 402 before anything is sent, as an event.
    const poor = await createOrg(stack, { balanceMinor: 1, models: ["gw-gpt"] });
    await eventually(
      async () => ((await (await fetch(`${stack.baseUrl()}/models`, { headers: { authorization: `Bearer ${poor.secret}` } })).json()) as { data?: unknown[] }).data?.length || undefined,
      15_000,
      "models visible",
    );
    const p = await open(poor.secret);
    const marker = `ws-poor-${randomBytes(4).toString("hex")}`;
    const refused = await p.turn({ model: "gw-gpt", input: `${marker} [[fake:words=2]]` });
    expect(refused.at(-1)).toMatchObject({ type: "error", status: 402, error: { code: "insufficient_credits" } });
    expect(stack.fake.requests.some((r) => JSON.stringify(r.body).includes(marker))).toBe(false);
    expect(p.ws.readyState).toBe(WebSocket.OPEN);
    p.ws.close();
  });

  it("a connection closed mid-turn is an abandoned stream: the drain reads the provider's usage and bills it", async () => {
    const prompt = "[[fake:words=40,chunk_delay=5]] answer soon";
    const c = await open();
    const full = await c.turn({ model: "gw-gpt", input: prompt });
    const fullUsage = await usage(turnId(full));
    c.ws.send(JSON.stringify({ type: "response.create", model: "gw-gpt", input: prompt }));
    const started = await c.next((e) => e.type === "gateway.turn");
    for (let n = 0; n < 5; n++) await c.next((e) => e.type === "response.output_text.delta");
    c.ws.terminate();
    const cut = await usage(started.request_id as string);
    expect(cut.usage).toMatchObject({ basis: "drained", output_tokens: fullUsage.usage.output_tokens });
    expect(cut.cost_credits_minor).toBe(fullUsage.cost_credits_minor);
  });
});

describe("limits", () => {
  it("turns per connection: the one past the limit is websocket_connection_limit_reached, then the connection closes", async () => {
    const c = await open();
    // Warm-ups (generate: false, as Codex sends first) are turns too, and call no provider.
    for (let i = 0; i < 3; i++) expect((await c.turn({ model: "gw-gpt", input: "warm", generate: false })).at(-1)!.type).toBe("response.completed");
    const past = await c.turn({ model: "gw-gpt", input: "one more" });
    expect(past.at(-1)).toMatchObject({ type: "error", error: { code: "websocket_connection_limit_reached" } });
    expect((await c.closed).code).toBe(1000);
  });

  it("idle timeout: a connection without a turn closes", async () => {
    const c = await open();
    const t = Date.now();
    expect(await c.closed).toMatchObject({ code: 1000, reason: "idle timeout" });
    expect(Date.now() - t).toBeGreaterThanOrEqual(1_400);
  });

  it("connections per key: one more than the limit is refused before the upgrade (429)", async () => {
    const a = await open();
    const b = await open();
    await expect(open()).rejects.toMatchObject({ status: 429 });
    a.ws.close();
    await a.closed;
    const again = await eventually(() => open().catch(() => undefined), 5_000, "a connection once one closed");
    for (const c of [b, again]) c.ws.close();
  });

  it("the key is checked on the upgrade: none, malformed or unknown is a 401 before it", async () => {
    const unauthenticated = new Promise<number>((resolve) => {
      const ws = new WebSocket(wsUrl());
      ws.on("unexpected-response", (_q, r) => resolve(r.statusCode ?? 0));
      ws.on("open", () => resolve(101));
    });
    expect(await unauthenticated).toBe(401);
    await expect(open("not-a-key")).rejects.toMatchObject({ status: 401, body: expect.stringContaining("invalid_api_key") });
    await expect(open(`sk-gateway-${"x".repeat(40)}`)).rejects.toMatchObject({ status: 401, body: expect.stringContaining("invalid_api_key") });
  });
});

describe("shutdown", () => {
  it("a connection finishes its turn, then closes with 1001; an idle one closes with 1001 at once", async () => {
    const dp = await stack.addDataPlane({ DATA_PLANE_SHUTDOWN_STREAM_DRAIN_MS: "10000" });
    const i = stack.dataPlanes.indexOf(dp);
    const busy = await open(org.secret, i);
    const idle = await open(org.secret, i);
    busy.ws.send(JSON.stringify({ type: "response.create", model: "gw-gpt", input: "[[fake:words=60,chunk_delay=10]] a long answer" }));
    await busy.next((e) => e.type === "response.output_text.delta");
    const stopped = dp.stop();
    expect((await idle.closed).code).toBe(1001);
    await busy.next((e) => e.type === "response.completed");
    expect((await busy.closed).code).toBe(1001);
    await stopped;
  });
});
