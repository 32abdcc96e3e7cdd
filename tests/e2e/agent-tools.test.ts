import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { createOrg, post, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";
import type { AnyBody, UsageBody } from "../support/api.ts";

/**
 * The tools coding agents send on the Responses API, through the official openai SDK: namespace
 * tools (Codex groups its multi-agent tools so) and the built-in web search, billed per search and
 * bounded by `max_tool_calls` so the hold covers every search. gw-gpt is OpenAI natively, gw-claude
 * Anthropic, gw-chat-mini an OpenAI-compatible chat server (docs/providers.md, "Coding agents").
 */
let stack: Stack;
let org: TestOrg;
let client: OpenAI;

/** The demo catalog's price per search on gw-gpt and gw-claude (minor units). */
const SEARCH_PRICE = 10_000;

async function usage(id: string | null): Promise<UsageBody> {
  return eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${org.secret}` } });
      return r.status === 200 ? ((await r.json()) as UsageBody) : undefined;
    },
    15_000,
    `usage of ${id}`,
  );
}

/** What the fake provider last received on a path. */
function lastSent(path: string): AnyBody {
  const r = [...stack.fake.requests].reverse().find((q) => q.path === path);
  if (!r) throw new Error(`nothing sent to ${path}`);
  return r.body as AnyBody;
}

const searchLine = (u: UsageBody) => u.line_items.find((i) => (i as { item: string }).item === "web_search_requests");

beforeAll(async () => {
  stack = await startStack("agent-tools");
  org = await createOrg(stack, { balanceMinor: 10_000_000, models: ["gw-gpt", "gw-claude", "gw-chat-mini"] });
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
  await eventually(async () => ((await client.models.list()).data.length >= 3 ? true : undefined), 15_000, "models visible");
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const NAMESPACE = {
  type: "namespace",
  name: "agents",
  description: "Sub-agents.",
  tools: [{ type: "function", name: "spawn_agent", description: "Start a sub-agent.", parameters: { type: "object", properties: { task: { type: "string" } }, required: ["task"] } }],
};
/** Scripts the fake to call the namespaced tool: by its flattened name where namespaces do not exist. */
const CALL_IT = 'delegate [[fake-call:agents__spawn_agent {"task":"t1"}]]';

describe("namespace tools", () => {
  for (const [model, path] of [
    ["gw-claude", "/v1/messages"],
    ["gw-chat-mini", "/v1/chat/completions"],
  ] as const) {
    it(`${model}: flattened for the provider, the call answered with its namespace, the result sent back`, async () => {
      const first = await client.responses.create({ model, input: CALL_IT, tools: [NAMESPACE as never], store: false });
      const sentTools = JSON.stringify(lastSent(path).tools);
      expect(sentTools).toContain('"agents__spawn_agent"');
      expect(sentTools).not.toContain('"namespace"');
      const call = first.output.find((o) => o.type === "function_call") as unknown as Record<string, unknown>;
      expect(call).toMatchObject({ type: "function_call", name: "spawn_agent", namespace: "agents", arguments: '{"task":"t1"}' });

      // The agent sends the call back with its output (store: false, as Codex does).
      const second = await client.responses.create({
        model,
        store: false,
        tools: [NAMESPACE as never],
        input: [
          { role: "user", content: CALL_IT },
          { type: "function_call", call_id: String(call.call_id), name: "spawn_agent", namespace: "agents", arguments: '{"task":"t1"}' } as never,
          { type: "function_call_output", call_id: String(call.call_id), output: "agent started" },
        ],
      });
      expect(second.output_text).toBe("Tool said: agent started");
      expect(JSON.stringify(lastSent(path).messages)).toContain("agents__spawn_agent");
    });

    it(`${model}: streamed, the call's events carry its namespace`, async () => {
      const stream = await client.responses.create({ model, input: CALL_IT, tools: [NAMESPACE as never], store: false, stream: true });
      const done: Record<string, unknown>[] = [];
      for await (const ev of stream) if (ev.type === "response.output_item.done") done.push(ev.item as unknown as Record<string, unknown>);
      expect(done.find((i) => i.type === "function_call")).toMatchObject({ name: "spawn_agent", namespace: "agents" });
    });
  }

  it("gw-gpt: OpenAI gets the namespace tool as sent", async () => {
    await client.responses.create({ model: "gw-gpt", input: "hi", tools: [NAMESPACE as never], store: false });
    expect(lastSent("/v1/responses").tools).toEqual([NAMESPACE]);
  });
});

describe("built-in web search", () => {
  it("gw-gpt (OpenAI natively): max_tool_calls sent as the bound the hold covers, each search billed at the catalog's price", async () => {
    const { data, response } = await client.responses.create({ model: "gw-gpt", input: "look it up", tools: [{ type: "web_search" }] }).withResponse();
    expect(lastSent("/v1/responses")).toMatchObject({ tools: [{ type: "web_search" }], max_tool_calls: 5 });
    expect(data.output.filter((o) => o.type === "web_search_call")).toHaveLength(2);
    const u = await usage(response.headers.get("x-gateway-trace-id"));
    expect(searchLine(u)).toEqual({ item: "web_search_requests", quantity: 2, unit_price_minor: SEARCH_PRICE, per: "search" });

    // The client's own bound is kept, and the provider keeps to it.
    const one = await client.responses.create({ model: "gw-gpt", input: "look it up once", tools: [{ type: "web_search" }], max_tool_calls: 1 }).withResponse();
    expect(lastSent("/v1/responses").max_tool_calls).toBe(1);
    expect(searchLine(await usage(one.response.headers.get("x-gateway-trace-id")))).toMatchObject({ quantity: 1 });
  });

  it("gw-gpt streamed (as Codex sends it): the searches in the final response are billed", async () => {
    const { data: stream, response } = await client.responses.create({ model: "gw-gpt", input: "stream a search", tools: [{ type: "web_search" }], stream: true, store: false }).withResponse();
    const id = response.headers.get("x-gateway-trace-id");
    let completed: Record<string, unknown> | undefined;
    for await (const ev of stream) if (ev.type === "response.completed") completed = ev.response as unknown as Record<string, unknown>;
    expect(((completed?.output ?? []) as Array<{ type: string }>).filter((o) => o.type === "web_search_call")).toHaveLength(2);
    expect(searchLine(await usage(id))).toMatchObject({ quantity: 2, unit_price_minor: SEARCH_PRICE });
  });

  it("the hold covers every search max_tool_calls allows, at the price per search", async () => {
    const estimate = async (maxCalls: number) => {
      const body = JSON.stringify({ model: "gw-gpt", input: "look it up", tools: [{ type: "web_search" }], max_tool_calls: maxCalls, max_output_tokens: 100 });
      const r = await post(stack.baseUrl(), org.secret, "/responses", body, { "x-gateway-dry-run": "true" });
      expect(r.status).toBe(200);
      return r.body.max_cost_minor as number;
    };
    // Same body length; three more searches allowed, three more searches held, and the results each
    // brings into the prompt (gw-gpt's max_input_tokens_per_web_search, 8,000, at its input price, 1,250,000 per million).
    expect((await estimate(5)) - (await estimate(2))).toBe(3 * SEARCH_PRICE + (3 * 8_000 * 1_250_000) / 1_000_000);
    const r = await post(stack.baseUrl(), org.secret, "/responses", JSON.stringify({ model: "gw-gpt", input: "x", tools: [{ type: "web_search" }], max_tool_calls: 0 }));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_request", param: "max_tool_calls" });
  });

  it("gw-claude (Anthropic): Anthropic's web search server tool with the bound as max_uses; searches as web_search_call items, billed", async () => {
    const { data, response } = await client.responses.create({ model: "gw-claude", input: "look it up", tools: [{ type: "web_search" }] }).withResponse();
    expect(lastSent("/v1/messages").tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 5 }]);
    const searches = data.output.filter((o) => o.type === "web_search_call") as unknown as Array<Record<string, unknown>>;
    expect(searches).toHaveLength(2);
    expect(searches[0]).toMatchObject({ status: "completed", action: { type: "search", query: "look it up" } });
    expect(searchLine(await usage(response.headers.get("x-gateway-trace-id")))).toEqual({ item: "web_search_requests", quantity: 2, unit_price_minor: SEARCH_PRICE, per: "search" });

    const stream = await client.responses.create({ model: "gw-claude", input: "stream a search", tools: [{ type: "web_search" }], stream: true, store: false });
    const added: string[] = [];
    for await (const ev of stream) if (ev.type === "response.output_item.added") added.push(ev.item.type);
    expect(added.filter((t) => t === "web_search_call")).toHaveLength(2);
  });

  it("gw-chat-mini (chat completions, no built-in search): the tool is left out and the answer says so; no search billed", async () => {
    const { data, response } = await client.responses.create({ model: "gw-chat-mini", input: "look it up", tools: [{ type: "web_search" }] }).withResponse();
    expect(response.headers.get("x-gateway-dropped-params")).toBe("web_search");
    expect(lastSent("/v1/chat/completions").tools).toBeUndefined();
    expect(data.output_text).toBe("Echo: look it up");
    expect(searchLine(await usage(response.headers.get("x-gateway-trace-id")))).toBeUndefined();
  });
});

describe("Claude Code's web search on /v1/messages", () => {
  it("gw-gpt (chat completions): Anthropic's web search server tool is left out and the answer says so", async () => {
    const anthropic = new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: org.secret, maxRetries: 0 });
    const { data, response } = await anthropic.messages
      .create({ model: "gw-gpt", max_tokens: 200, tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 3 }], messages: [{ role: "user", content: "look it up" }] })
      .withResponse();
    expect(response.headers.get("x-gateway-dropped-params")).toBe("web_search");
    expect(lastSent("/v1/chat/completions").tools).toBeUndefined();
    expect(data.content).toEqual([{ type: "text", text: "Echo: look it up" }]);
  });
});

describe("the Responses API's WebSocket mode", () => {
  // The mode itself: tests/e2e/responses-websocket.test.ts.
  it("GET /v1/responses without 'Upgrade: websocket' is a 426 with the error object", async () => {
    const r = await fetch(`${stack.baseUrl()}/responses`, { headers: { authorization: `Bearer ${org.secret}`, "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" } });
    expect(r.status).toBe(426);
    expect(((await r.json()) as AnyBody).error).toMatchObject({ code: "websocket_not_supported" });
  });
});
