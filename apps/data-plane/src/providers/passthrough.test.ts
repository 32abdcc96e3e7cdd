import { readFileSync } from "node:fs";
import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { anthropicNativeShape } from "../translate/native-shape.js";
import { openAIShape, responsesNativeShape, type StreamWriter } from "../translate/client-shape.js";
import { anthropicMessages } from "./anthropic/messages.js";
import { openAICompatibleChat } from "./openai-compatible/chat.js";
import { openAIResponses } from "./openai/responses.js";
import { PassthroughScanner, SseParser, type PlainRun, type SseEvent } from "./sse.js";
import type { NormalizedUsage, StreamParser, StreamPassthrough } from "./types.js";

/**
 * The passthrough fast path must send, bill and count exactly what the parsing path does: every
 * recorded provider stream and a set of adversarial ones, cut into reads every which way, give the
 * same client bytes, the same usage and the same count of generated characters both ways.
 */

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const enc = new TextEncoder();

interface Outcome {
  /** Everything the client gets: the frames, then the end (or the error event) the writer adds. */
  client: string;
  usage: NormalizedUsage | undefined;
  chars: number;
  done: boolean;
  error?: string;
}

/** Reads `text` in the given reads through the parsing path (every event parsed and written again). */
function parsed(reads: Uint8Array[], parser: StreamParser, writer: StreamWriter): Outcome {
  const sse = new SseParser();
  const out: Outcome = { client: "", usage: undefined, chars: 0, done: false };
  try {
    for (const r of reads) for (const ev of sse.push(r)) feed(out, parser(ev.data), writer);
  } catch (err) {
    out.error = (err as Error).message;
  }
  return ending(out, writer);
}

function ending(out: Outcome, writer: StreamWriter): Outcome {
  if (out.error) out.client += writer.error(new GatewayError("upstream_error", out.error), "req_1");
  else if (out.done) out.client += writer.end(out.usage ?? { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, estimated: true });
  return out;
}

/** The same reads through the passthrough (as pipeline/stream.ts OpenedStream uses it). */
function passed(reads: Uint8Array[], pass: StreamPassthrough, writer: StreamWriter): Outcome {
  const scan = new PassthroughScanner(pass, writer.passed !== undefined);
  const out: Outcome = { client: "", usage: undefined, chars: 0, done: false };
  try {
    for (const r of reads)
      for (const item of scan.push(r) as Array<PlainRun | SseEvent>) {
        if ("frames" in item) {
          out.client += Buffer.from(item.frames).toString();
          out.chars += item.chars;
          if (item.events) writer.passed?.(item.events);
        } else feed(out, pass.parser(item.data), writer);
      }
  } catch (err) {
    out.error = (err as Error).message;
  }
  return ending(out, writer);
}

function feed(out: Outcome, ev: ReturnType<StreamParser>, writer: StreamWriter): void {
  if (ev.usage) out.usage = ev.usage;
  out.chars += ev.text.length;
  if (ev.done) out.done = true;
  else out.client += writer.chunk(ev);
}

/** Deterministic cuts: whole, one read per event, every 7 bytes, and pseudo-random sizes (a multi-byte character split too). */
function cuts(text: string): Uint8Array[][] {
  const bytes = enc.encode(text);
  const every = (n: number) => Array.from({ length: Math.ceil(bytes.length / n) }, (_, i) => bytes.slice(i * n, (i + 1) * n));
  let seed = 7;
  const random: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const n = 1 + (seed % 97);
    random.push(bytes.slice(at, at + n));
    at += n;
  }
  const perEvent = text.split(/(?<=\n\n)/).map((e) => enc.encode(e));
  return [[bytes], perEvent, every(7), every(1), random];
}

const chat = openAICompatibleChat();
const chatBoth = (text: string, includeUsage: boolean, publicModel = "gw-chat") => {
  const req = { model: publicModel, messages: [], stream: true, ...(includeUsage ? { stream_options: { include_usage: true } } : {}) };
  return cuts(text).map((reads) => ({
    slow: parsed(reads, chat.streamParser(publicModel, "fake-chat"), openAIShape(req, publicModel).stream()),
    fast: passed(reads, chat.passthrough!(publicModel, "fake-chat"), openAIShape(req, publicModel).stream()),
  }));
};
const messages = anthropicMessages({ version: undefined, beta: undefined });
const messagesBoth = (text: string, publicModel = "gw-claude") =>
  cuts(text).map((reads) => ({
    slow: parsed(reads, messages.streamParser(publicModel, "claude"), anthropicNativeShape().stream()),
    fast: passed(reads, messages.passthrough!(publicModel, "claude"), anthropicNativeShape().stream()),
  }));

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "fake-chat-2025-01-01", choices: [{ index: 0, delta, finish_reason: null }], usage: null, ...extra })}\n\n`;

describe("chat completions passthrough", () => {
  it("recorded OpenAI streams: the same client bytes, usage and counted characters as parsing every chunk, however the reads fall", () => {
    for (const name of ["openai-chat-stream-reasoning-cached.sse", "openai-chat-stream-usage-in-final-choice.sse"])
      for (const includeUsage of [true, false])
        for (const { slow, fast } of chatBoth(fixture(name), includeUsage)) {
          expect(fast).toEqual(slow);
          expect(fast.done).toBe(true);
          expect(fast.usage).toBeDefined();
          // The provider's dated model id never reaches the client.
          expect(fast.client).not.toMatch(/"model":"(o4-mini|gpt-4o)/);
          expect(fast.client).toContain('"model":"gw-chat"');
        }
  });

  it("adversarial text: escapes, unicode, look-alike markers inside content, tool arguments, reasoning, a spaced usage object", () => {
    const text = [
      chunk({ role: "assistant", content: "" }),
      chunk({ content: 'He said "usage":{"prompt_tokens":1} and [DONE] and "error": no' }),
      chunk({ content: 'back\\slash \\" quote\n newline \u00e9 \u{1F600} \t tab' }),
      chunk({ reasoning_content: "thinking… 思考" }),
      chunk({ tool_calls: [{ index: 0, id: "t1", type: "function", function: { name: "f", arguments: '{"a":"\\"b\\""}' } }] }),
      // Written by hand: \u escapes the provider chose to send (6 characters, one unit each).
      'data: {"id":"c1","model":"fake-chat","choices":[{"index":0,"delta":{"content":"caf\\u00e9 \\ud83d\\ude00"}}],"usage":null}\n\n',
      'data: {"id":"c1","model":"fake-chat","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage": {"prompt_tokens": 12, "completion_tokens": 34}}\n\n',
      "data: [DONE]\n\n",
    ].join("");
    for (const includeUsage of [true, false])
      for (const { slow, fast } of chatBoth(text, includeUsage)) {
        expect(fast).toEqual(slow);
        expect(fast.usage).toMatchObject({ input_tokens: 12, output_tokens: 34 });
        expect(fast.done).toBe(true);
      }
    // The characters counted are the decoded content's, as the parser counts them.
    const fast = chatBoth(text, true)[0]!.fast;
    const decoded =
      'He said "usage":{"prompt_tokens":1} and [DONE] and "error": no' + 'back\\slash \\" quote\n newline \u00e9 \u{1F600} \t tab' + "thinking… 思考" + '{"a":"\\"b\\""}' + "caf\u00e9 \u{1F600}";
    expect(fast.chars).toBe(decoded.length);
  });

  it("usage on chunks mid-stream (vLLM's continuous usage): the blocks around each go out as they came, text beside the usage counted once", () => {
    const withUsage = (content: string, completion: number) => chunk({ content }, { usage: { prompt_tokens: 5, completion_tokens: completion, total_tokens: 5 + completion } });
    const text = [
      chunk({ role: "assistant", content: "" }),
      chunk({ content: "naïve " }),
      withUsage("思考 ", 2),
      withUsage("\u{1F600} ", 3),
      chunk({ content: "done" }),
      chunk({}, { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }),
      withUsage("", 4),
      "data: [DONE]\n\n",
    ].join("");
    for (const { slow, fast } of chatBoth(text, true)) {
      expect(fast).toEqual(slow);
      expect(fast.usage).toMatchObject({ input_tokens: 5, output_tokens: 4 });
      expect(fast.chars).toBe("naïve 思考 \u{1F600} done".length);
    }
  });

  it("an error chunk mid-stream: the frames before it go out, then the same failure as parsing", () => {
    const text = chunk({ content: "one" }) + chunk({ content: " two" }) + 'data: {"error":{"message":"overloaded","type":"server_error"}}\n\n' + chunk({ content: " three" });
    for (const { slow, fast } of chatBoth(text, true)) {
      expect(fast).toEqual(slow);
      expect(fast.error).toMatch(/error mid-stream: overloaded/);
      expect(fast.client).toContain('"content":" two"');
      expect(fast.client).not.toContain("three");
    }
  });

  it("a cut stream (no usage, no [DONE]): the same frames and the same count of generated characters", () => {
    const text = chunk({ role: "assistant", content: "" }) + chunk({ content: "Once upon" }) + chunk({ content: " a time" }) + 'data: {"id":"c1","choices":[{"delta":{"content":" th';
    for (const { slow, fast } of chatBoth(text, true)) {
      expect(fast).toEqual(slow);
      expect(fast).toMatchObject({ done: false, usage: undefined, chars: "Once upon a time".length });
    }
  });

  it("a public model id with non-ASCII characters and replacement patterns ($&, $1) is written literally, on the provider's bytes", () => {
    const publicModel = "gw-ü$&$1-mini";
    for (const { slow, fast } of chatBoth(fixture("openai-chat-stream-reasoning-cached.sse"), true, publicModel)) {
      expect(fast).toEqual(slow);
      expect(fast.client).toContain(`"model":${JSON.stringify(publicModel)}`);
      expect(fast.client).not.toMatch(/"model":"(o4-mini|gpt-4o)/);
    }
  });

  it("a non-ASCII answer split inside its characters: counted as UTF-16 like the parser, sent byte for byte", () => {
    const text = chunk({ role: "assistant", content: "" }) + chunk({ content: "naïve 思考 \u{1F600}" }) + chunk({ content: "€uro 😀" }) + "data: [DONE]\n\n";
    for (const { slow, fast } of chatBoth(text, false)) {
      expect(fast).toEqual(slow);
      expect(fast.chars).toBe(("naïve 思考 \u{1F600}" + "€uro 😀").length);
    }
  });

  it("\\r\\n framing and comments: read event by event, as the parsing path reads them", () => {
    const text = `: keep-alive\r\n\r\n${chunk({ content: "a" }).replace("\n\n", "\r\n\r\n")}${chunk({ content: "b" }).replace("\n\n", "\r\n\r\n")}data: [DONE]\r\n\r\n`;
    for (const { slow, fast } of chatBoth(text, true)) {
      expect(fast).toEqual(slow);
      expect(fast.done).toBe(true);
      expect(fast.client).not.toContain("keep-alive");
    }
  });
});

describe("Messages passthrough", () => {
  it("recorded Anthropic streams: the same client bytes, usage and counted characters as parsing every event, however the reads fall", () => {
    for (const name of ["anthropic-stream-thinking.sse", "anthropic-stream-tool-use.sse", "anthropic-stream-forced-tool.sse", "anthropic-stream-cache-write.sse"])
      for (const { slow, fast } of messagesBoth(fixture(name))) {
        expect(fast).toEqual(slow);
        expect(fast.done).toBe(true);
        expect(fast.usage).toBeDefined();
        expect(fast.client).toContain('"model":"gw-claude"');
        // The provider's message_stop is held back; the one the gateway writes after billing ends the stream.
        expect(fast.client.split("event: message_stop")).toHaveLength(2);
        expect(fast.client.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
      }
  });

  it("a stream whose message_delta has no usage: the client's estimate counts the deltas the passthrough did not parse", () => {
    const text = [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"claude","content":[],"usage":{"input_tokens":5,"output_tokens":1}}}\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"sixteen chars..."}}\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ].join("");
    for (const { slow, fast } of messagesBoth(text)) {
      expect(fast).toEqual(slow);
      expect(fast.client).toContain('"usage":{"output_tokens":4}');
    }
  });

  it("an error event mid-stream: the same frames before it and the same failure", () => {
    const text =
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}\n\n' +
      'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n';
    for (const { slow, fast } of messagesBoth(text)) {
      expect(fast).toEqual(slow);
      expect(fast.error).toMatch(/Overloaded/);
    }
  });
});

describe("Responses passthrough to OpenAI", () => {
  const both = (text: string) =>
    cuts(text).map((reads) => ({
      slow: parsed(reads, openAIResponses.streamParser("gw-gpt", "gpt"), responsesNativeShape({ model: "gw-gpt", input: "hi", store: false }).stream()),
      fast: passed(reads, openAIResponses.passthrough!("gw-gpt", "gpt"), responsesNativeShape({ model: "gw-gpt", input: "hi", store: false }).stream()),
    }));
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

  it("a recorded OpenAI stream: the same client bytes (the terminal event rebuilt with the public model), usage and counted characters", () => {
    for (const { slow, fast } of both(fixture("openai-responses-stream-reasoning-cached.sse"))) {
      expect(fast).toEqual(slow);
      expect(fast.done).toBe(true);
      expect(fast.usage).toBeDefined();
      expect(fast.client).toContain('"model":"gw-gpt"');
    }
  });

  it("a failure mid-stream: the gateway's error event numbered after every event passed through; audio deltas are not counted as text", () => {
    const text = [
      ev("response.created", { sequence_number: 0, response: { id: "r", model: "gpt", status: "in_progress", output: [] } }),
      ev("response.output_text.delta", { sequence_number: 1, item_id: "m", output_index: 0, content_index: 0, delta: "Hello" }),
      ev("response.audio.delta", { sequence_number: 2, delta: "UklGRiQAAABXQVZFZm10IBAAAAABAAEA" }),
      ev("response.output_text.delta", { sequence_number: 3, item_id: "m", output_index: 0, content_index: 0, delta: " world" }),
      ev("response.failed", { sequence_number: 4, response: { id: "r", status: "failed", error: { message: "boom" } } }),
    ].join("");
    for (const { slow, fast } of both(text)) {
      expect(fast).toEqual(slow);
      expect(fast.chars).toBe("Hello world".length);
      expect(fast.client).toMatch(/"sequence_number":4,"code":"upstream_error"/);
    }
  });
});
