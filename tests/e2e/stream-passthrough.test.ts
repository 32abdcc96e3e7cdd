import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { eventually } from "@gateway/testing";
import { providerUsage } from "../support/provider-usage.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";

/**
 * The stream passthrough (chat completions to an OpenAI-shaped deployment, Messages to Anthropic,
 * no output guardrail: the provider's frames go out as they came, only the usage chunk, the end and
 * errors parsed) bills exactly as the parsing path did: the provider's usage from its final chunk,
 * what was delivered when the provider breaks off with an error event or the client leaves.
 * Window-mode output guardrails still refuse mid-stream (guardrails.test.ts, "streaming").
 */
let stack: Stack;
let o: TestOrg;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  stack = await startStack("stream_passthrough");
  o = await createOrg(stack, { balanceMinor: 10_000_000, models: ["gw-chat-mini", "gw-claude"] });
  openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: o.secret, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: o.secret, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
});

interface Row {
  status: number;
  estimated: boolean;
  input_tokens: number;
  output_tokens: number;
  cost_minor: number;
  attempt_outcome: string | null;
}
const record = (id: string) =>
  eventually(
    async () =>
      (await sql<Row>`SELECT status, estimated, input_tokens, output_tokens, cost_minor, attempt_outcome FROM ledger.usage_records WHERE request_id = ${id}`.execute(stack.ledger().db)).rows[0],
    10_000,
    `usage of ${id}`,
  );
/** The demo catalog's prices, minor units per million tokens (scripts/lib/demo-catalog.ts). */
const MINI = { input: 150_000, output: 600_000 };
const CLAUDE = { input: 800_000, output: 4_000_000 };
const priced = (p: { input: number; output: number }, input: number, output: number) => Math.ceil((input * p.input + output * p.output) / 1_000_000);
/** The fake provider's words: w0 w1 … */
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");

/** A chat stream read to its end, or until the SDK throws on an error event: its text, and what it threw. */
async function readChat(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<{ text: string; failed: unknown }> {
  let text = "";
  let failed: unknown;
  try {
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
  } catch (err) {
    failed = err;
  }
  return { text, failed };
}

describe("chat completions passthrough", () => {
  it("every chunk carries the public model; the provider's final usage is what the client reads and what is billed", async () => {
    const stream = await openai.chat.completions
      .create({ model: "gw-chat-mini", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "[[fake:words=30]] go" }] })
      .withResponse();
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    const models = new Set<string>();
    for await (const chunk of stream.data) {
      models.add(chunk.model);
      text += chunk.choices[0]?.delta.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(words(30));
    expect([...models]).toEqual(["gw-chat-mini"]);
    expect(usage).toMatchObject({ completion_tokens: 30 });
    const r = await record(stream.response.headers.get("x-request-id")!);
    // The provider's own count (its answer), which the client read unchanged.
    const p = providerUsage(stack.fake, "[[fake:words=30]] go");
    expect(usage).toMatchObject({ prompt_tokens: p.input, completion_tokens: p.output });
    expect(r).toMatchObject({ status: 200, estimated: false, input_tokens: p.input, output_tokens: 30, attempt_outcome: "served" });
    expect(r.cost_minor).toBe(priced(MINI, p.input, p.output));
  });

  it("a client that did not ask for usage gets no usage chunk, and is still billed the provider's count", async () => {
    const stream = await openai.chat.completions.create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "[[fake:words=12]] go" }] }).withResponse();
    let chunks = 0;
    for await (const chunk of stream.data) {
      chunks++;
      expect(chunk.usage ?? null).toBeNull();
      expect(chunk.choices.length).toBeGreaterThan(0);
    }
    expect(chunks).toBeGreaterThanOrEqual(12);
    const r = await record(stream.response.headers.get("x-request-id")!);
    expect(r).toMatchObject({ status: 200, estimated: false, output_tokens: 12 });
  });

  it("the provider's error event mid-stream: the client gets what came before and the gateway's error; billed what was delivered, counted", async () => {
    const stream = await openai.chat.completions.create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "[[fake:words=40,stream_error=5]] go" }] }).withResponse();
    const { text, failed } = await readChat(stream.data);
    expect(text).toBe(words(5));
    expect(String(failed)).toMatch(/error mid-stream/);
    const r = await record(stream.response.headers.get("x-request-id")!);
    // No usage from the provider: the five words delivered ("w0 w1 w2 w3 w4", 14 characters: 4 tokens).
    expect(r).toMatchObject({ estimated: true, output_tokens: Math.ceil(words(5).length / 4), attempt_outcome: "cut" });
    expect(r.input_tokens).toBeGreaterThan(0);
  });

  it("a provider that closes the stream without [DONE] after its finish and usage: the client's stream ends cleanly, billed the provider's count", async () => {
    const prompt = "[[fake:words=10,nodone]] go";
    const stream = await openai.chat.completions.create({ model: "gw-chat-mini", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: prompt }] }).withResponse();
    let text = "";
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | undefined;
    // The SDK throws on an error event: this loop ends only on the gateway's [DONE].
    for await (const chunk of stream.data) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(words(10));
    expect(finish).toBe("stop");
    const p = providerUsage(stack.fake, prompt);
    expect(usage).toMatchObject({ prompt_tokens: p.input, completion_tokens: 10 });
    const r = await record(stream.response.headers.get("x-request-id")!);
    expect(r).toMatchObject({ status: 200, estimated: false, input_tokens: p.input, output_tokens: 10, attempt_outcome: "served" });
  });

  it("a provider that closes the stream before its finish (no [DONE] either): the client gets the gateway's error after what came", async () => {
    const stream = await openai.chat.completions.create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "[[fake:words=20,cut=4]] go" }] }).withResponse();
    const { text, failed } = await readChat(stream.data);
    expect(text).toBe(words(4));
    expect(String(failed)).toMatch(/before it was complete/);
    const r = await record(stream.response.headers.get("x-request-id")!);
    expect(r).toMatchObject({ status: 200, estimated: true, attempt_outcome: "cut" });
  });

  it("a client that leaves mid-stream: billed what the gateway read from the provider, the drain window included, counted", async () => {
    const abort = new AbortController();
    const stream = await openai.chat.completions
      .create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "[[fake:words=40,chunk_delay=200]] go" }] }, { signal: abort.signal })
      .withResponse();
    let text = "";
    try {
      for await (const chunk of stream.data) {
        text += chunk.choices[0]?.delta.content ?? "";
        if (text.split(" ").length === 6) abort.abort();
      }
    } catch {
      // the abort
    }
    expect(text).toBe(words(6));
    const r = await record(stream.response.headers.get("x-request-id")!);
    // The six words, and what the gateway read on, forwarding nothing, for the 2 s drain window (about
    // ten more at 200 ms each); the 40-word answer runs on past the window, so it is counted.
    expect(r).toMatchObject({ status: 200, estimated: true, attempt_outcome: "client_gone" });
    expect(r.output_tokens).toBeGreaterThanOrEqual(Math.ceil(words(6).length / 4));
    expect(r.output_tokens).toBeLessThanOrEqual(Math.ceil(words(6 + 12).length / 4));
  });
});

describe("Messages passthrough to Anthropic", () => {
  it("events as the provider framed them, the public model in message_start, billed the provider's usage", async () => {
    const stream = anthropic.messages.stream({ model: "gw-claude", max_tokens: 100, messages: [{ role: "user", content: "[[fake:words=30]] go" }] });
    let text = "";
    stream.on("text", (t) => (text += t));
    const message = await stream.finalMessage();
    expect(text).toBe(words(30));
    expect(message.model).toBe("gw-claude");
    expect(message.usage.output_tokens).toBe(30);
    const id = (await stream.withResponse()).response.headers.get("x-request-id")!;
    const r = await record(id);
    const p = providerUsage(stack.fake, "[[fake:words=30]] go");
    expect(r).toMatchObject({ status: 200, estimated: false, input_tokens: p.input, output_tokens: p.output });
    expect(r.cost_minor).toBe(priced(CLAUDE, p.input, p.output));
  });

  it("the provider's error event mid-stream: the SDK sees the error; billed the input message_start reported and the delivered text, counted", async () => {
    const stream = anthropic.messages.stream({ model: "gw-claude", max_tokens: 100, messages: [{ role: "user", content: "[[fake:words=40,stream_error=5]] go" }] });
    let text = "";
    let input = 0;
    stream.on("text", (t) => (text += t));
    stream.on("streamEvent", (ev) => {
      if (ev.type === "message_start") input = ev.message.usage.input_tokens;
    });
    const failed = await stream.finalMessage().catch((e: unknown) => e);
    expect(String(failed)).toMatch(/error mid-stream|Overloaded/);
    expect(text).toBe(words(5));
    expect(input).toBeGreaterThan(0);
    const id = (await stream.withResponse()).response.headers.get("x-request-id")!;
    const r = await record(id);
    expect(r).toMatchObject({ estimated: true, input_tokens: input, output_tokens: Math.ceil(words(5).length / 4), attempt_outcome: "cut" });
  });
});
