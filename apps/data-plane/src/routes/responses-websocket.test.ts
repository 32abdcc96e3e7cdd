import { describe, expect, it } from "vitest";
import { SseSplitter } from "./responses-websocket.js";

const split = (...pieces: string[]) => {
  const out: string[] = [];
  const s = new SseSplitter((d) => out.push(d));
  for (const p of pieces) s.push(p);
  return out;
};

describe("SseSplitter: the relayed SSE text as WebSocket messages", () => {
  it("one message per event, its data, whatever the writes' boundaries", () => {
    const a = 'event: response.created\ndata: {"type":"response.created"}\n\n';
    const b = 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"hi"}\n\n';
    const whole = a + b;
    expect(split(whole)).toEqual(['{"type":"response.created"}', '{"type":"response.output_text.delta","delta":"hi"}']);
    for (let i = 1; i < whole.length; i++) expect(split(whole.slice(0, i), whole.slice(i))).toEqual(split(whole));
  });

  it("an unfinished event waits for its end; comments and [DONE] are no messages; CRLF and multi-line data", () => {
    expect(split('data: {"a":1}\n')).toEqual([]);
    expect(split(": keep-alive\n\n", "data: [DONE]\n\n")).toEqual([]);
    expect(split('event: x\r\ndata: {"a":\r\ndata: 1}\r\n\r\n')).toEqual(['{"a":\n1}']);
    expect(split('data:{"b":2}\n\n')).toEqual(['{"b":2}']);
    const crlf = 'data: {"c":3}\r\n\r\ndata: {"d":4}\r\n\r\n';
    for (let i = 1; i < crlf.length; i++) expect(split(crlf.slice(0, i), crlf.slice(i))).toEqual(['{"c":3}', '{"d":4}']);
  });
});
