import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * Cache-warm routing (docs/providers.md): an agent session's turns land on the deployment that
 * served it, across replicas (the PINS bucket, followed by each replica's watch), while that
 * deployment is healthy; the session moves when it fails. The fake provider keeps a prompt cache
 * per deployment (`+promptcache`): a turn whose conversation begins with an earlier turn's whole
 * prompt reads it from the cache there, and only there.
 */

let stack: Stack;
let org: TestOrg;
const MODEL = "gw-pinned";
const UNPINNED = "gw-unpinned";
const INPUT_PRICE = 2_000_000;
const CACHED_PRICE = 200_000;

beforeAll(async () => {
  // No retry on the same deployment: a failed attempt falls back at once (the failover turn).
  stack = await startStack("session-pins", { dataPlanes: 2, dataPlaneEnv: { DATA_PLANE_UPSTREAM_RETRIES: "0" } });
  await stack.applyCatalog({
    models: [
      {
        id: MODEL,
        routes: ["chat"],
        context_window: 100_000,
        max_output_tokens: 200,
        input_price_minor_per_mtok: INPUT_PRICE,
        cached_input_price_minor_per_mtok: CACHED_PRICE,
        output_price_minor_per_mtok: 4_000_000,
        // Two deployments of one model, split evenly: without pins a session's turns scatter.
        deployments: [
          { provider: "fake", upstream_model: "fake-chat-a+promptcache", priority: 0, weight: 1 },
          { provider: "fake-backup", upstream_model: "fake-chat-b+promptcache", priority: 0, weight: 1 },
        ],
      },
      {
        // The same deployments, but a cached read costs what a fresh one does: pinning would save nothing.
        id: UNPINNED,
        routes: ["chat"],
        context_window: 100_000,
        max_output_tokens: 200,
        input_price_minor_per_mtok: INPUT_PRICE,
        output_price_minor_per_mtok: 4_000_000,
        deployments: [
          { provider: "fake", upstream_model: "fake-chat-a+promptcache", priority: 0, weight: 1 },
          { provider: "fake-backup", upstream_model: "fake-chat-b+promptcache", priority: 0, weight: 1 },
        ],
      },
    ],
  });
  org = await createOrg(stack, { balanceMinor: 50_000_000, models: [MODEL, UNPINNED] });
  await eventually(
    async () => {
      for (let i = 0; i < 2; i++) {
        const r = await fetch(`${stack.baseUrl(i)}/models`, { headers: { authorization: `Bearer ${org.secret}` } });
        if (!((await r.json()) as { data: Array<{ id: string }> }).data.some((m) => m.id === MODEL)) return undefined;
      }
      return true;
    },
    15_000,
    "the model on both replicas",
  );
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** One turn of a session on replica `replica`: the deployment that served it and its usage record. */
async function turn(messages: Message[], replica: number) {
  const client = new OpenAI({ baseURL: stack.baseUrl(replica), apiKey: org.secret, maxRetries: 0 });
  const { data, response } = await client.chat.completions.create({ model: MODEL, messages, max_tokens: 50 }).withResponse();
  const id = response.headers.get("x-gateway-trace-id")!;
  const record = await eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl(replica)}/usage/${id}`, { headers: { authorization: `Bearer ${org.secret}` } });
      return r.status === 200
        ? ((await r.json()) as { route_pin: string | null; usage: { cached_input_tokens: number }; line_items: Array<{ item: string; quantity: number; unit_price_minor: number }> })
        : undefined;
    },
    15_000,
    "the turn's record",
  );
  return { deployment: response.headers.get("x-gateway-upstream-model"), answer: data.choices[0]!.message.content ?? "", record };
}

/** A session of `turns` turns, alternating between the two replicas; each turn adds the answer and a new user message. */
async function session(name: string, turns: number, extra: (i: number) => string = () => "") {
  const messages: Message[] = [
    { role: "system", content: `You are the agent of session ${name}. ${"Long, stable instructions. ".repeat(40)}` },
    { role: "user", content: `first request of ${name}` },
  ];
  const served = [];
  for (let i = 0; i < turns; i++) {
    const t = await turn(messages, i % 2);
    served.push(t);
    messages.push({ role: "assistant", content: t.answer }, { role: "user", content: `request ${i + 2} of ${name}${extra(i + 1)}` });
  }
  return served;
}

describe("cache-warm routing", () => {
  it("a 10-turn session over two deployments and two replicas lands every turn on one deployment, its cached reads billed at the cached price from turn 2", async () => {
    const turns = await session(`steady-${Date.now()}`, 10);
    const deployments = new Set(turns.map((t) => t.deployment));
    expect(deployments.size).toBe(1);
    expect(turns.map((t) => t.record.route_pin)).toEqual(["new", ...Array(9).fill("hit")]);
    expect(turns[0]!.record.usage.cached_input_tokens).toBe(0);
    for (const t of turns.slice(1)) {
      expect(t.record.usage.cached_input_tokens).toBeGreaterThan(0);
      expect(t.record.line_items).toContainEqual(expect.objectContaining({ item: "cached_input_tokens", quantity: t.record.usage.cached_input_tokens, unit_price_minor: CACHED_PRICE }));
    }
  });

  it("moves when the pinned deployment fails, and stays on the one that served", async () => {
    const tag = `pin-fail-${Date.now()}`;
    // Turn 4's first attempt (at the pinned deployment) fails once: it falls back to the other.
    const turns = await session(tag, 6, (i) => (i === 3 ? ` [[fake:flaky=${tag}:1]]` : ""));
    const before = turns[0]!.deployment;
    expect(turns.slice(0, 3).map((t) => t.deployment)).toEqual([before, before, before]);
    const after = turns[3]!.deployment;
    expect(after).not.toBe(before);
    expect(turns.slice(3).map((t) => t.deployment)).toEqual([after, after, after]);
    expect(turns.map((t) => t.record.route_pin)).toEqual(["new", "hit", "hit", "moved", "hit", "hit"]);
    // The new deployment's cache was cold for this conversation: the turn after the move is the first to read it there.
    expect(turns[3]!.record.usage.cached_input_tokens).toBe(0);
    expect(turns[4]!.record.usage.cached_input_tokens).toBeGreaterThan(0);
  });

  it("a model whose cached reads cost what fresh ones do pins nothing: no route_pin on its records", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model: UNPINNED, messages: [{ role: "user", content: "no pins here" }] }).withResponse();
    const id = response.headers.get("x-gateway-trace-id")!;
    const record = await eventually(
      async () => {
        const r = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${org.secret}` } });
        return r.status === 200 ? ((await r.json()) as { route_pin: string | null }) : undefined;
      },
      15_000,
      "the record",
    );
    expect(record.route_pin).toBeNull();
  });
});
