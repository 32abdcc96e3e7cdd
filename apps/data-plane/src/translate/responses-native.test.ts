import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SseParser } from "../providers/sse.js";
import { openAIResponses } from "../providers/openai/responses.js";
import { anthropicMessages } from "../providers/anthropic/messages.js";
import type { NormalizedUsage, ParsedStreamEvent } from "../providers/types.js";
import { responsesFromMessagesShape, responsesNativeShape, type ClientShape } from "./client-shape.js";
import { THINKING_STATE, responsesToMessages } from "./responses-to-messages.js";

/** Wire fixtures in the documented shapes: OpenAI's Responses stream (gpt-5, reasoning and cached input) and Anthropic's thinking stream. */
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "..", "providers", "fixtures", name), "utf8");

type Json = Record<string, unknown>;

/** Runs a fixture through an adapter's parser and a client shape's writer, as the pipeline does. */
function replay(wire: string, parse: (data: string) => ParsedStreamEvent, shape: ClientShape): { events: Json[]; usage: NormalizedUsage | undefined; text: string } {
  const writer = shape.stream();
  let out = "";
  let usage: NormalizedUsage | undefined;
  let text = "";
  for (const ev of new SseParser().push(Buffer.from(wire))) {
    const parsed = parse(ev.data);
    if (parsed.usage) usage = parsed.usage;
    text += parsed.text;
    if (parsed.done) {
      writer.done?.(parsed);
      break;
    }
    out += writer.chunk(parsed);
  }
  out += writer.end(usage!);
  const events = [...new SseParser().push(Buffer.from(out))].map((e) => JSON.parse(e.data) as Json);
  return { events, usage, text };
}

describe("OpenAI Responses natively", () => {
  it("forwards the provider's events, public model and client's store/previous_response_id in lifecycle events, completed held to the end with the provider's usage", () => {
    const wire = fixture("openai-responses-stream-reasoning-cached.sse");
    const shape = responsesNativeShape({ store: true, previous_response_id: "resp_prev" });
    const { events, usage, text } = replay(wire, openAIResponses.streamParser("gw-gpt5", "gpt-5-2025-08-07"), shape);
    const upstream = [...new SseParser().push(Buffer.from(wire))].map((e) => JSON.parse(e.data) as Json);
    // Same events, same order and sequence numbers.
    expect(events.map((e) => [e.type, e.sequence_number])).toEqual(upstream.map((e) => [e.type, e.sequence_number]));
    expect(events.filter((e) => e.type === "response.output_text.delta")).toEqual(upstream.filter((e) => e.type === "response.output_text.delta"));
    const completed = events.at(-1)!.response as Json;
    expect(completed).toMatchObject({ model: "gw-gpt5", store: true, previous_response_id: "resp_prev", status: "completed" });
    expect((events[0]!.response as Json).model).toBe("gw-gpt5");
    // Totals include their parts, as the provider reports them; its service tier is kept for reconciliation.
    expect(usage).toEqual({ input_tokens: 1542, output_tokens: 210, cached_input_tokens: 1408, reasoning_tokens: 192, estimated: false, service_tier: "auto" });
    expect(text).toBe("Twelve times thirty-four is 408.");
  });

  it("parses a Response answer's usage and refuses a failed one", () => {
    const completed = [...new SseParser().push(Buffer.from(fixture("openai-responses-stream-reasoning-cached.sse")))].map((e) => JSON.parse(e.data) as Json).at(-1)!.response as Json;
    const parsed = openAIResponses.parseChatResponse(structuredClone(completed), "gw-gpt5");
    expect(parsed.body.model).toBe("gw-gpt5");
    expect(parsed.usage).toMatchObject({ cached_input_tokens: 1408, reasoning_tokens: 192 });
    expect(() => openAIResponses.parseChatResponse({ ...completed, status: "failed", error: { message: "boom" } }, "gw-gpt5")).toThrow(/boom/);
    expect(() => openAIResponses.parseChatResponse({ id: "x" }, "gw-gpt5")).toThrow(/invalid response/);
  });
});

describe("Responses to Anthropic's Messages API", () => {
  const echo = { id: "resp_gw", createdAt: 1, model: "gw-sonnet", request: { store: false } };

  it("turns a thinking stream into reasoning summary deltas, then text deltas, with cache reads in usage", () => {
    const adapter = anthropicMessages({ version: undefined, beta: undefined });
    const { events, usage } = replay(fixture("anthropic-stream-thinking.sse"), adapter.streamParser("gw-sonnet", "claude-sonnet-4-5-20250929"), responsesFromMessagesShape(echo, undefined));
    const types = events.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(["response.created", "response.in_progress"]);
    expect(types.at(-1)).toBe("response.completed");
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const thinking = events
      .filter((e) => e.type === "response.reasoning_summary_text.delta")
      .map((e) => e.delta)
      .join("");
    expect(thinking).toBe("Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3");
    const final = events.at(-1)!.response as { output: Json[]; usage: Json };
    expect(final.output.map((o) => o.type)).toEqual(["reasoning", "message"]);
    // The signature travels in encrypted_content, and comes back as the thinking block.
    const item = final.output[0]!;
    expect(String(item.encrypted_content).startsWith(THINKING_STATE)).toBe(true);
    const back = responsesToMessages({ model: "gw-sonnet", input: [{ role: "user", content: "27 * 453?" }, item, { role: "user", content: "again" }] }).body;
    expect((back.messages as Json[])[1]).toMatchObject({ role: "assistant", content: [{ type: "thinking", thinking, signature: expect.stringMatching(/^EqQB/) }] });
    expect(final.usage).toMatchObject({ input_tokens: usage!.input_tokens, input_tokens_details: { cached_tokens: 2051 } });
  });

  it("refuses no field the translation reads, and keeps thinking off where Claude forbids it (forced tools)", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const { body, structured } = responsesToMessages({ model: "m", input: "x", reasoning: { effort: "high" }, text: { format: { type: "json_schema", name: "answer", schema } }, temperature: 0.2 });
    expect(structured).toBe("answer");
    expect(body.thinking).toBeUndefined();
    expect(body).toMatchObject({ tool_choice: { type: "tool", name: "answer" }, temperature: 0.2 });
    const thinking = responsesToMessages({ model: "m", input: "x", reasoning: { effort: "high" }, max_output_tokens: 40_000, temperature: 0.2 }).body;
    // With thinking on, Claude takes no temperature; the budget is the effort's, within half the limit.
    expect(thinking).toMatchObject({ thinking: { type: "enabled", budget_tokens: 16_384 }, max_tokens: 40_000 });
    expect(thinking.temperature).toBeUndefined();
    expect(responsesToMessages({ model: "m", input: "x", reasoning: { effort: "high" }, max_output_tokens: 1_500 }).body.thinking).toBeUndefined();
  });
});
