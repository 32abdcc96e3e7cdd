import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { anthropicChat } from "./anthropic/chat.js";
import { openAICompatibleChat } from "./openai-compatible/chat.js";
import { SseParser } from "./sse.js";
import type { ParsedStreamEvent, StreamParser } from "./types.js";

/**
 * The stream parsers read the most frequent event — a chunk or delta that carries only text —
 * without parsing it. Every event of recorded and adversarial streams must mean the same either
 * way: the same text counted, the same chunk for translating shapes, the same frame for a chat
 * client (as JSON), the same usage and end. The slow way is forced by a space after the opening
 * brace, which keeps the JSON and breaks the fast path's exact shape.
 */

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const events = (text: string) => new SseParser().push(new TextEncoder().encode(text)).map((e) => e.data);
const slowly = (data: string) => (data.startsWith("{") ? `{ ${data.slice(1)}` : data);

/**
 * What an event means to the client and the bill: for a chat client (`frames`) the frame as JSON
 * (escapes may differ, the value may not), for a translating shape the chunk it reads.
 */
function meaning(ev: ParsedStreamEvent, frames: boolean) {
  const choice = (ev.chunk?.choices as Array<{ delta?: { content?: unknown }; finish_reason?: unknown }> | undefined)?.[0];
  return {
    text: ev.text,
    done: ev.done,
    usage: ev.usage,
    forward: !frames || ev.forward === undefined ? undefined : JSON.parse(ev.forward),
    content: frames ? undefined : choice?.delta?.content,
    finish: frames ? null : (choice?.finish_reason ?? null),
  };
}

function both(parser: () => StreamParser, stream: string[], frames: boolean): number {
  const fast = parser();
  const slow = parser();
  let fastEvents = 0;
  for (const data of stream) {
    const f = meaning(fast(data), frames);
    const s = meaning(slow(slowly(data)), frames);
    // A slow-path chunk names its id and model; the fast path's chunk carries only what translation reads.
    expect({ ...f, forward: f.forward && { ...f.forward, created: 0 } }).toEqual({ ...s, forward: s.forward && { ...s.forward, created: 0 } });
    if (f.text) fastEvents++;
  }
  return fastEvents;
}

const oaChunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: "c1",
    object: "chat.completion.chunk",
    created: 1,
    model: "gpt-x",
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
    usage: null,
    ...extra,
  });

describe("text-only stream events read without parsing", () => {
  it("OpenAI-shaped chunks: recorded streams and adversarial text mean the same as when parsed, for chat clients and translating shapes", () => {
    const adversarial = [
      oaChunk({ role: "assistant", content: "" }),
      // logprobs after the finish (another server's order).
      '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-x","choices":[{"index":0,"delta":{"content":"order"},"finish_reason":null,"logprobs":null}]}',
      oaChunk({ content: 'quote " backslash \\ newline \n tab \t' }),
      oaChunk({ content: "unicode é 思考 😀 \u2028" }),
      '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-x","choices":[{"index":0,"delta":{"content":"caf\\u00e9 \\ud83d\\ude00 \\/"},"finish_reason":null}]}',
      oaChunk({ content: '"usage":{"prompt_tokens":9} [DONE] "error"' }),
      oaChunk({ content: "with a finish" }).replace('"finish_reason":null', '"finish_reason":"stop"'),
      oaChunk({ content: "two choices" }).replace('"choices":[{', '"choices":[{"index":1,"delta":{"content":"x"},"finish_reason":null},{'),
      oaChunk({ content: "and usage" }, { usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }),
      "[DONE]",
    ];
    for (const frames of [true, false]) {
      const parser = () => openAICompatibleChat().streamParser("gw-model", "gpt-x", undefined, frames);
      for (const name of ["openai-chat-stream-reasoning-cached.sse", "openai-chat-stream-usage-in-final-choice.sse"]) expect(both(parser, events(fixture(name)), frames)).toBeGreaterThan(0);
      expect(both(parser, adversarial, frames)).toBeGreaterThan(3);
    }
  });

  it("Anthropic text deltas translated to chat chunks: the same frames (chat clients) or chunks (translating shapes), text and usage as when parsed", () => {
    for (const frames of [true, false]) {
      const parser = () => anthropicChat.streamParser("gw-claude", "claude-x", undefined, frames);
      for (const name of ["anthropic-stream-cache-write.sse", "anthropic-stream-thinking.sse", "anthropic-stream-tool-use.sse"]) both(parser, events(fixture(name)), frames);
      const start = '{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"usage":{"input_tokens":5,"output_tokens":1}}}';
      const delta = (text: string) => JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } });
      const n = both(
        parser,
        [
          start,
          '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
          delta('quote " backslash \\ newline \n'),
          delta("unicode é 思考 😀"),
          '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"caf\\u00e9 \\/"}}',
          '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":12}}',
          '{"type":"message_stop"}',
        ],
        frames,
      );
      expect(n).toBe(3);
    }
  });
});
