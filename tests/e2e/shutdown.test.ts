import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
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
