import { describe, expect, it } from "vitest";
import { SseParser } from "./sse.js";

const enc = (s: string) => new TextEncoder().encode(s);

describe("SseParser", () => {
  it("joins events split across chunks and skips comments", () => {
    const p = new SseParser();
    expect(p.push(enc('data: {"a"'))).toEqual([]);
    expect(p.push(enc(":1}\n\n: keep-alive\n\nevent: ping\ndata: {}\r\n\r\ndata: [DONE]\n\n"))).toEqual([
      { event: undefined, data: '{"a":1}' },
      { event: "ping", data: "{}" },
      { event: undefined, data: "[DONE]" },
    ]);
  });
  it("holds an event back until the blank line that ends it", () => {
    const p = new SseParser();
    expect(p.push(enc("data: tail"))).toEqual([]);
    expect(p.push(enc("\n\n"))).toEqual([{ event: undefined, data: "tail" }]);
  });
  it("decodes multi-byte characters split across chunks", () => {
    const p = new SseParser();
    const bytes = enc("data: héllo\n\n");
    expect([...p.push(bytes.slice(0, 8)), ...p.push(bytes.slice(8))]).toEqual([{ event: undefined, data: "héllo" }]);
  });
});
