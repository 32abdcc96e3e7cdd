/**
 * What the gateway's own code spends on a streamed chunk, in-process: the passthrough's scan of a
 * 200-chunk chat read (counting generated characters, the model rewrite, the bytes for the socket)
 * in three reads of text chunks, and of a whole stream in one read (its finish, usage and [DONE]
 * parsed: as a provider's burst arrives), a whole Anthropic stream of 200 text deltas in one read
 * translated to chat-completion frames (framing, parse, the chunk, the client's bytes),
 * and a translated stream's parse of one text-only chunk (OpenAI-shaped, and an Anthropic text
 * delta) against JSON.parse of it. Fixed iteration counts, one process; prints a JSON line.
 * Compare two trees by running it in each (docs/performance.md, "Streamed answers: CPU per chunk").
 *
 *   make build && node apps/data-plane/bench/stream-events.ts [iterations=2000] [rounds=5]
 */
// The built modules (what runs in production), typed as their sources (the build writes no declarations).
const { openAICompatibleChat } = (await import("../dist/providers/openai-compatible/chat.js")) as unknown as typeof import("../src/providers/openai-compatible/chat.js");
const { anthropicChat } = (await import("../dist/providers/anthropic/chat.js")) as unknown as typeof import("../src/providers/anthropic/chat.js");
const { PassthroughScanner, SseParser } = (await import("../dist/providers/sse.js")) as unknown as typeof import("../src/providers/sse.js");
const { Outbox } = (await import("../dist/pipeline/stream.js")) as unknown as typeof import("../src/pipeline/stream.js");
const { openAIShape } = (await import("../dist/translate/client-shape.js")) as unknown as typeof import("../src/translate/client-shape.js");

const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 5);
const CHUNKS = 200;

const chat = openAICompatibleChat();
const chunkJson = (i: number) =>
  JSON.stringify({
    id: "chatcmpl-abc123",
    object: "chat.completion.chunk",
    created: 1732500000,
    model: "fake-chat",
    choices: [{ index: 0, delta: { content: ` w${i}` }, finish_reason: null, logprobs: null }],
  });
const read = new TextEncoder().encode(Array.from({ length: CHUNKS }, (_, i) => `data: ${chunkJson(i)}\n\n`).join(""));
// As a proxy gets it: a few reads, cut anywhere.
const reads = [read.subarray(0, 16_384), read.subarray(16_384, 32_768), read.subarray(32_768)];
/** The whole stream in one read: the text chunks, the finish, the usage chunk and [DONE]. */
const whole = new TextEncoder().encode(
  new TextDecoder().decode(read) +
    `data: ${JSON.stringify({ id: "chatcmpl-abc123", object: "chat.completion.chunk", created: 1732500000, model: "fake-chat", choices: [{ index: 0, delta: {}, finish_reason: "stop", logprobs: null }] })}\n\n` +
    `data: ${JSON.stringify({ id: "chatcmpl-abc123", object: "chat.completion.chunk", created: 1732500000, model: "fake-chat", choices: [], usage: { prompt_tokens: 9, completion_tokens: 200, total_tokens: 209 } })}\n\n` +
    "data: [DONE]\n\n",
);
const encoder = new TextEncoder();
/** A whole Anthropic stream in one read, as the fake upstream sends it. */
const messagesEvent = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
const anthropicWhole = encoder.encode(
  [
    messagesEvent("message_start", {
      type: "message_start",
      message: { id: "msg_1", type: "message", role: "assistant", model: "claude-x", content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } },
    }),
    messagesEvent("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    ...Array.from({ length: CHUNKS }, (_, i) => messagesEvent("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: ` w${i}` } })),
    messagesEvent("content_block_stop", { type: "content_block_stop", index: 0 }),
    messagesEvent("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: CHUNKS } }),
    messagesEvent("message_stop", { type: "message_stop" }),
  ].join(""),
);
const chatRequest = { model: "gw-claude", messages: [], stream: true };
const anthropicDelta = JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: " w123" } });

function perChunk(fn: () => number, iterations: number, chunks: number): number {
  let sink = 0;
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < iterations; k++) sink += fn();
  if (sink === -1) console.log("");
  return Number(process.hrtime.bigint() - t0) / iterations / chunks;
}

const pass = chat.passthrough!("gw-chat-mini", "fake-chat");
const scan = () => {
  const s = new PassthroughScanner(pass, false);
  let n = 0;
  for (const r of reads) for (const item of s.push(r)) n += "frames" in item ? (typeof item.frames === "string" ? encoder.encode(item.frames).length : item.frames.length) : 1;
  return n;
};
const scanWhole = () => {
  const pw = chat.passthrough!("gw-chat-mini", "fake-chat");
  const s = new PassthroughScanner(pw, false);
  let n = 0;
  for (const item of s.push(whole)) n += "frames" in item ? item.frames.length : pw.parser(item.data).text.length + 1;
  return n;
};
/** As OpenedStream reads a translated stream: framing, each event parsed and written in the client's shape, one write. */
const translateWhole = () => {
  const sse = new SseParser();
  const p = anthropicChat.streamParser("gw-claude", "claude-x", chatRequest);
  const w = openAIShape(chatRequest, "gw-claude").stream();
  const out = new Outbox();
  for (const ev of sse.push(anthropicWhole)) {
    const parsed = p(ev.data);
    if (!parsed.done) out.add(w.chunk(parsed));
  }
  return out.take(w.end({ input_tokens: 9, output_tokens: CHUNKS, cached_input_tokens: 0, estimated: false })).length;
};
const parser = chat.streamParser("gw-chat-mini", "fake-chat", undefined, false);
const oneChunk = chunkJson(7);
const anthropic = anthropicChat.streamParser("gw-claude", "claude-x");
anthropic('{"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":1,"output_tokens":1}}}');

const rows: Record<string, number[]> = {
  passthrough_scan_ns: [],
  passthrough_whole_stream_ns: [],
  translated_whole_stream_ns: [],
  chat_text_chunk_ns: [],
  anthropic_text_delta_ns: [],
  json_parse_chunk_ns: [],
};
for (let r = 0; r < ROUNDS; r++) {
  rows.passthrough_scan_ns!.push(perChunk(scan, N, CHUNKS));
  rows.passthrough_whole_stream_ns!.push(perChunk(scanWhole, N, CHUNKS + 3));
  rows.translated_whole_stream_ns!.push(perChunk(translateWhole, N, CHUNKS + 5));
  rows.chat_text_chunk_ns!.push(perChunk(() => parser(oneChunk).text.length, N * 50, 1));
  rows.anthropic_text_delta_ns!.push(perChunk(() => (anthropic(anthropicDelta).forward ?? "").length, N * 50, 1));
  rows.json_parse_chunk_ns!.push(perChunk(() => (JSON.parse(oneChunk) as { choices: unknown[] }).choices.length, N * 50, 1));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [k, v] of Object.entries(rows)) console.log(`${k.padEnd(26)} median ${median(v).toFixed(0)} ns (${v.map((x) => x.toFixed(0)).join(", ")})`);
console.log(JSON.stringify({ bench: "stream-events", ...Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, Math.round(median(v))])) }));
