import { describe, expect, it } from "vitest";
import { chatPromptBound, embeddingsInputBound, mediaParts } from "./bounds.js";

const model = {
  id: "m",
  context_window: 128_000,
  max_input_tokens_per_image: 2_000,
  max_input_tokens_per_audio: 0,
  audio_input_price_minor_per_mtok: 10_000_000,
  max_input_tokens_per_pdf_page: 0,
  max_input_tokens_per_media_second: 0,
  max_input_tokens_per_url_part: 0,
};

describe("prompt bounds", () => {
  it("count every decoded byte of text as a token, whatever the script", () => {
    const body = JSON.stringify({ messages: [{ role: "user", content: "日本語のテキスト 😀 Ελληνικά" }] });
    const bytes = Buffer.byteLength(body);
    // Multi-byte scripts are where bytes/3 fell short; one token per byte cannot.
    expect(chatPromptBound(model, bytes, mediaParts(JSON.parse(body).messages))).toBe(bytes);
  });

  it("count each image at the model's per-image maximum, not its bytes", () => {
    const messages = [
      {
        role: "user",
        content: [
          { type: "text", text: "what is this" },
          { type: "image_url", image_url: { url: "https://x.test/a.png" } },
        ],
      },
      { role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "A".repeat(100_000) } }] },
    ];
    const bytes = Buffer.byteLength(JSON.stringify({ messages }));
    const media = mediaParts(messages);
    expect(media.images).toBe(2);
    // The payloads counted per image instead of per byte: the URL (20 bytes) and the base64 (100,000).
    expect(media.mediaBytes).toBe("https://x.test/a.png".length + 100_000);
    expect(chatPromptBound(model, bytes, media)).toBe(bytes - 100_020 + 2 * 2_000);
    // A short URL still costs a whole image.
    expect(chatPromptBound(model, bytes, media)).toBeGreaterThan(4_000);
  });

  it("refuse images on a model the catalog counts at 0 tokens per image, naming the field, instead of holding nothing for them", () => {
    const media = mediaParts([{ role: "user", content: [{ type: "image_url", image_url: { url: "https://x.test/a.png" } }] }]);
    expect(() => chatPromptBound({ ...model, max_input_tokens_per_image: 0 }, 1_000, media)).toThrow(
      expect.objectContaining({ code: "invalid_request", message: expect.stringContaining("Image input is not available"), context: { param: "messages" } }),
    );
    // Text alone still goes through on that model.
    expect(chatPromptBound({ ...model, max_input_tokens_per_image: 0 }, 1_000, mediaParts([]))).toBe(1_000);
  });

  it("count images inside Anthropic tool results and the system prompt", () => {
    const messages = [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "image", source: { type: "url", url: "https://x.test/b.png" } }] }] }];
    expect(mediaParts(messages, [{ type: "image", source: { type: "url", url: "https://x.test/c.png" } }]).images).toBe(2);
  });

  it("count audio by its bytes unless the model sets a per-part maximum", () => {
    const messages = [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "B".repeat(5_000), format: "wav" } }] }];
    const media = mediaParts(messages);
    expect(chatPromptBound(model, 6_000, media)).toBe(6_000);
    expect(chatPromptBound({ ...model, max_input_tokens_per_audio: 700 }, 6_000, media)).toBe(1_000 + 700);
  });

  it("refuse audio on a model the catalog prices no audio for, naming the field", () => {
    const media = mediaParts([{ role: "user", content: [{ type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } }] }]);
    const { audio_input_price_minor_per_mtok: _, ...noAudio } = model;
    expect(() => chatPromptBound(noAudio, 1_000, media)).toThrow(expect.objectContaining({ code: "invalid_request", context: { param: "messages" } }));
    expect(chatPromptBound(noAudio, 1_000, mediaParts([]))).toBe(1_000);
  });

  it("never exceed the context window", () => {
    expect(chatPromptBound(model, 3_600_000, mediaParts([]))).toBe(128_000);
    expect(chatPromptBound({ ...model, context_window: 0 }, 3_600_000, mediaParts([]))).toBe(3_600_000);
  });

  it("count token-array embedding inputs exactly and strings per byte", () => {
    expect(embeddingsInputBound(model, [1, 2, 3, 4])).toBe(4);
    expect(
      embeddingsInputBound(model, [
        [1, 2],
        [3, 4, 5],
      ]),
    ).toBe(5);
    expect(embeddingsInputBound(model, ["héllo", "ab"])).toBe(6 + 2);
    expect(embeddingsInputBound({ context_window: 10 }, "x".repeat(50))).toBe(10);
  });
});
