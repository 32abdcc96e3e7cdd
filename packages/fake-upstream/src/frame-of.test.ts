import { describe, expect, it } from "vitest";
import { frameOf, TEXT } from "./openai-chat.js";

// The fake's text frames are templates: they must be the bytes serializing each event would give,
// or the gateway's tests would read a wire format no provider sends.
describe("frameOf", () => {
  const texts = ["w0", " w1", 'say "hi"', "back\\slash", "ünïcödé ✓ 😀", "line\nbreak\ttab", "\u0000 nul", "", "</script>"];
  it("writes what serializing each OpenAI-shaped chunk writes, for every choice", () => {
    const chunk = (content: string) => ({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [0, 1].map((index) => ({ index, delta: { content }, finish_reason: null, logprobs: null })),
    });
    const frame = frameOf(chunk(TEXT), (json) => `data: ${json}\n\n`);
    for (const t of texts) expect(frame(t)).toBe(`data: ${JSON.stringify(chunk(t))}\n\n`);
  });
  it("writes what serializing each Anthropic text delta writes", () => {
    const delta = (text: string) => ({ type: "content_block_delta", index: 2, delta: { type: "text_delta", text } });
    const frame = frameOf(delta(TEXT), (json) => `event: content_block_delta\ndata: ${json}\n\n`);
    for (const t of texts) expect(frame(t)).toBe(`event: content_block_delta\ndata: ${JSON.stringify(delta(t))}\n\n`);
  });
});
