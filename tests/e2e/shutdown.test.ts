import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { Balancer } from "../support/balancer.ts";
import { startStack, type Stack } from "../support/stack.ts";
import type { UsageBody } from "../support/api.ts";

/**
 * Stopping a data-plane cuts nothing before its time (issue 37, item 3; docs/operations.md, "Stopping
 * a data-plane"): readiness turns false at once while the replica goes on serving, new connections
 * included, for the pause; then open streams go on for the stream drain window, and end with their
 * error event, billed for what they did.
 */
const PAUSE_MS = 800;
const DRAIN_MS = 1_500;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack("shutdown");
});
afterAll(async () => {
  await stack?.stop();
});

it("on stop: not ready at once, still serving through the pause, streams run on through the drain window and then end with their error event, billed", async () => {
  const dp = await stack.addDataPlane({ DATA_PLANE_SHUTDOWN_PAUSE_MS: String(PAUSE_MS), DATA_PLANE_SHUTDOWN_STREAM_DRAIN_MS: String(DRAIN_MS) });
  const client = new OpenAI({ baseURL: `${dp.url}/v1`, apiKey: stack.demo.secret, maxRetries: 0 });
  await eventually(() => client.models.list(), 15_000, "the new replica serving");
  // 200 words at 50 ms: a 10 s stream, far longer than the pause and the window together.
  const { data: stream, response } = await client.chat.completions
    .create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "[[fake:words=200,chunk_delay=50]] a long one" }] })
    .withResponse();
  const received: number[] = [];
  const reading = (async () => {
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) received.push(performance.now());
  })().catch((e: unknown) => e);
  await eventually(async () => (received.length >= 3 ? true : undefined), 5_000, "the stream flowing");

  const stopAt = performance.now();
  const stopping = dp.stop();
  expect((await fetch(`${dp.url}/readyz`)).status).toBe(503);
  // During the pause a new connection is still answered (a balancer may still send it here).
  const fresh = await fetch(`${dp.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.demo.secret}`, "content-type": "application/json", connection: "close" },
    body: JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "still there?" }] }),
  });
  expect(fresh.status).toBe(200);

  const ended = await reading;
  await stopping;
  // The stream ran through the pause and the drain window, then got its error event.
  expect(ended).toBeInstanceOf(OpenAI.APIError);
  expect(String((ended as Error).message)).toContain("restarting");
  expect(received.at(-1)! - stopAt).toBeGreaterThanOrEqual(PAUSE_MS + DRAIN_MS - 200);
  expect(received.length).toBeLessThan(200);
  // After the pause the replica listens no more.
  await expect(fetch(`${dp.url}/readyz`)).rejects.toThrow();

  // Billed for what it did, as a stream the gateway ended (a cut).
  const id = response.headers.get("x-gateway-trace-id");
  const u = await eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${stack.demo.secret}` } });
      return r.status === 200 ? ((await r.json()) as UsageBody) : undefined;
    },
    15_000,
    "the ended stream's record",
  );
  expect(u.usage.output_tokens).toBeGreaterThan(0);
  expect(u.cost_credits_minor).toBeGreaterThan(0);
  expect(u).toMatchObject({ status: 200, usage: { estimated: true } });
  expect(u.attempts.at(-1)?.outcome).toBe("cut");
});

it("a rollout behind a Service: the balancer drops the stopping replica some time after its readiness goes false, no request fails, streams that fit the drain window finish whole and the rest end at it", async () => {
  const PROBE_MS = 100;
  const PROPAGATION_MS = 300;
  const old = await stack.addDataPlane({ DATA_PLANE_SHUTDOWN_PAUSE_MS: String(PAUSE_MS), DATA_PLANE_SHUTDOWN_STREAM_DRAIN_MS: String(DRAIN_MS) });
  const lb = new Balancer();
  await lb.listen();
  lb.set([old.port]);
  lb.watchReadiness("/readyz", PROBE_MS, PROPAGATION_MS);
  const client = new OpenAI({ baseURL: `http://127.0.0.1:${lb.port}/v1`, apiKey: stack.demo.secret, maxRetries: 0 });
  try {
    await eventually(() => client.models.list(), 15_000, "the old replica serving");
    // Streams on the old replica: three of ~1.5 s, which fit the pause and the drain window (2.3 s), and one of ~8 s, which does not.
    const open = (words: number) => {
      const got: { text: string; finish?: string | null; at: number[]; error?: unknown } = { text: "", at: [] };
      const done = client.chat.completions
        .create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: `[[fake:words=${words},chunk_delay=50]] rollout` }] })
        .then(async (stream) => {
          for await (const chunk of stream) {
            const c = chunk.choices[0];
            if (c?.delta.content) {
              got.text += c.delta.content;
              got.at.push(performance.now());
            }
            if (c?.finish_reason) got.finish = c.finish_reason;
          }
        })
        .catch((e: unknown) => (got.error = e));
      return { got, done };
    };
    const fitting = [open(30), open(30), open(30)];
    const long = open(160);
    await eventually(async () => ([...fitting, long].every((s) => s.got.at.length > 0) ? true : undefined), 5_000, "the streams flowing");

    // The new replica joins; callers keep sending short requests through the Service.
    const fresh = await stack.addDataPlane();
    lb.add(fresh.port);
    const outcomes: string[] = [];
    let loading = true;
    const load = Array.from({ length: 4 }, async () => {
      while (loading) {
        await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "during the rollout" }] }).then(
          () => outcomes.push("ok"),
          (e: unknown) => outcomes.push(String(e)),
        );
      }
    });

    const stopAt = performance.now();
    const stopping = old.stop();
    await Promise.all(fitting.map((s) => s.done));
    await long.done;
    await stopping;
    loading = false;
    await Promise.all(load);

    // Every short request was answered, by either replica, through the whole rollout.
    expect(outcomes.filter((o) => o !== "ok")).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(10);
    expect(lb.connections.get(fresh.port)).toBeGreaterThan(0);
    // The Service dropped the old replica after its readiness went false, within the pause.
    const removed = lb.removedAt.get(old.port)! - stopAt;
    expect(removed).toBeGreaterThanOrEqual(PROPAGATION_MS);
    expect(removed).toBeLessThan(PAUSE_MS);
    // The streams that fit the window finished whole; the long one ran through it and got its error event.
    for (const s of fitting) {
      expect(s.got.error).toBeUndefined();
      expect(s.got.finish).toBe("stop");
      expect(s.got.text.trim().split(/\s+/)).toHaveLength(30);
    }
    expect(long.got.error).toBeInstanceOf(OpenAI.APIError);
    expect(long.got.at.at(-1)! - stopAt).toBeGreaterThanOrEqual(PAUSE_MS + DRAIN_MS - 200);
    await fresh.stop();
  } finally {
    await lb.close();
  }
});
