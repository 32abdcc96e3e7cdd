import { describe, expect, it } from "vitest";
import { utf8 } from "./utf8.js";

describe("utf8 for response writes", () => {
  it("a long string becomes its UTF-8 bytes, multi-byte characters and surrogate pairs intact", () => {
    const text = `data: ${JSON.stringify({ content: "café 思考 😀 ".repeat(300) })}\n\n`;
    const out = utf8(text);
    expect(out).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(out as Uint8Array).toString("utf8")).toBe(text);
    expect((out as Uint8Array).byteLength).toBe(Buffer.byteLength(text));
  });
  it("a short string is written as it is", () => {
    expect(utf8('data: {"a":"é"}\n\n')).toBe('data: {"a":"é"}\n\n');
  });
});
