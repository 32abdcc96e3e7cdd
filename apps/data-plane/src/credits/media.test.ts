import { describe, expect, it } from "vitest";
import { deflateSync } from "node:zlib";
import { GatewayError } from "@gateway/errors";
import { mp4File as mp4, pdfFile as pdf } from "@gateway/testing";
import { chatPromptBound, mediaParts, type MediaBoundModel } from "./bounds.js";
import { compressedAudioSeconds, inlinePart, kindOfUrl, mp4Seconds, pdfPages, wavSeconds } from "./media.js";

/** A 16-bit mono WAV at 8 kHz of `seconds`. */
function wav(seconds: number): Buffer {
  const data = 16_000 * seconds;
  const b = Buffer.alloc(44 + data);
  b.write("RIFF", 0, "latin1");
  b.writeUInt32LE(36 + data, 4);
  b.write("WAVEfmt ", 8, "latin1");
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8_000, 24);
  b.writeUInt32LE(16_000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  return b;
}

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString("base64")}`;
const user = (...content: unknown[]) => [{ role: "user", content }];

const gemini: MediaBoundModel = {
  id: "gw-gemini",
  context_window: 1_048_576,
  max_input_tokens_per_image: 1_290,
  max_input_tokens_per_audio: 0,
  audio_input_price_minor_per_mtok: undefined,
  max_input_tokens_per_pdf_page: 258,
  max_input_tokens_per_media_second: 300,
  max_input_tokens_per_url_part: 1_000_000,
};
const claude: MediaBoundModel = {
  id: "gw-claude",
  context_window: 200_000,
  max_input_tokens_per_image: 1_600,
  max_input_tokens_per_audio: 0,
  audio_input_price_minor_per_mtok: undefined,
  max_input_tokens_per_pdf_page: 3_000,
  max_input_tokens_per_media_second: 0,
  max_input_tokens_per_url_part: 0,
};

function refusal(f: () => unknown): GatewayError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    return e as GatewayError;
  }
  throw new Error("expected a 400");
}

describe("reading a file's length from its own header", () => {
  it("PDF pages: page objects in the open, or inside a compressed object stream", () => {
    expect(pdfPages(pdf(3))).toBe(3);
    expect(pdfPages(pdf(40, true))).toBe(40);
    expect(pdfPages(Buffer.from("not a pdf"))).toBeUndefined();
  });

  it("a PDF that hides its pages is unreadable, never counted at the pages it shows: a zip bomb, another filter, escaped names", () => {
    const objStm = (filter: string, body: Buffer) =>
      Buffer.concat([
        Buffer.from(`%PDF-1.5\n1 0 obj << /Type /Page >> endobj\n9 0 obj << /Type /ObjStm /N 1 /First 0 ${filter} >> stream\n`, "latin1"),
        body,
        Buffer.from("\nendstream endobj\n", "latin1"),
      ]);
    // 17 MB of zeros (17 KB compressed) spends the inflate budget: the rest could hide 100 pages.
    expect(pdfPages(objStm("/Filter /FlateDecode", deflateSync(Buffer.alloc(17 * 1024 * 1024))))).toBeUndefined();
    expect(pdfPages(objStm("/Filter [/ASCII85Decode /FlateDecode]", Buffer.from("garbage")))).toBeUndefined();
    expect(pdfPages(objStm("/Filter /FlateDecode", Buffer.from("not deflate")))).toBeUndefined();
    expect(pdfPages(Buffer.from("%PDF-1.4\n1 0 obj << /Type /Page >> endobj 2 0 obj << /Ty#70e /P#61ge >> endobj", "latin1"))).toBeUndefined();
    // Image and content streams hold no pages: a JPEG in the file does not make it unreadable.
    const withImage = Buffer.concat([pdf(3), Buffer.from("7 0 obj << /Subtype /Image /Filter /DCTDecode >> stream\n\xff\xd8\xff\nendstream endobj\n", "latin1")]);
    expect(pdfPages(withImage)).toBe(3);
  });

  it("reads adversarial PDFs in linear time: no pattern rescans the text (a quadratic read of 3 MB would take minutes)", () => {
    // /Count without a closing '>' and 'stream' words by the hundred thousand, in 3 MB.
    const counts = Buffer.from(`%PDF-1.4\n${"/Count 1 ".repeat(330_000)}`, "latin1");
    const streams = Buffer.from(`%PDF-1.4\n${"9 0 obj << /Type /ObjStm >> stream\nx\nendstream ".repeat(60_000)}`, "latin1");
    expect(pdfPages(counts)).toBe(1);
    expect(pdfPages(streams)).toBeUndefined();
  });

  it("MP4 seconds from the movie header (both versions), WAV seconds from its byte rate, other audio bounded by its size", () => {
    expect(mp4Seconds(mp4(61))).toBe(61);
    expect(mp4Seconds(mp4(3_600, 1))).toBe(3_600);
    expect(mp4Seconds(Buffer.from("no boxes here at all"))).toBeUndefined();
    // A fragmented file's movie header says 0: unread (the catalog's maximum per part), not 0 seconds.
    expect(mp4Seconds(mp4(0))).toBeUndefined();
    expect(wavSeconds(wav(3))).toBe(3);
    // A header that claims a huge byte rate: the lower of its rates (sample rate × block size) counts.
    const lying = wav(3);
    lying.writeUInt32LE(0xffffffff, 28);
    expect(wavSeconds(lying)).toBe(3);
    // 6 kbit/s is the lowest bitrate of any codec a provider takes: 7,500 bytes last at most 10 s.
    expect(compressedAudioSeconds(7_500)).toBe(10);
    expect(inlinePart("audio", Buffer.alloc(7_500).toString("base64"))).toEqual({ kind: "audio", byUrl: false, seconds: 10 });
  });

  it("URLs by host and extension: a YouTube link is a video, an extensionless URL is an image unless the provider fetches anything", () => {
    expect(kindOfUrl("https://www.youtube.com/watch?v=abc", false)).toBe("video");
    expect(kindOfUrl("https://youtu.be/abc", false)).toBe("video");
    expect(kindOfUrl("https://x.test/a.MP4?sig=1", false)).toBe("video");
    expect(kindOfUrl("https://x.test/report.pdf", false)).toBe("pdf");
    expect(kindOfUrl("https://x.test/talk.mp3", false)).toBe("audio");
    expect(kindOfUrl("https://x.test/photo.jpg", true)).toBe("image");
    expect(kindOfUrl("https://x.test/render?id=3", false)).toBe("image");
    expect(kindOfUrl("https://x.test/render?id=3", true)).toBe("unknown");
  });
});

describe("the prompt bound counts media as the provider bills it", () => {
  it("a 40-page PDF of a few hundred bytes is held at 40 pages, not its bytes", () => {
    const file = pdf(40, true);
    const media = mediaParts(user({ type: "file", file: { filename: "a.pdf", file_data: dataUrl("application/pdf", file) } }));
    expect(media.files).toEqual([{ kind: "pdf", byUrl: false, pages: 40 }]);
    expect(chatPromptBound(claude, 1_000 + file.length * 2, media)).toBe(1_000 + file.length * 2 - media.mediaBytes + 40 * 3_000);
    // The same PDF as an Anthropic document block.
    const doc = mediaParts(user({ type: "document", source: { type: "base64", media_type: "application/pdf", data: file.toString("base64") } }));
    expect(doc.files).toEqual([{ kind: "pdf", byUrl: false, pages: 40 }]);
  });

  it("a video by data URL is held at its seconds; a YouTube link at the model's maximum per URL part", () => {
    const inline = mediaParts(user({ type: "image_url", image_url: { url: dataUrl("video/mp4", mp4(60)) } }));
    expect(inline.images).toBe(0);
    expect(chatPromptBound(gemini, 2_000, inline)).toBe(Math.max(0, 2_000 - inline.mediaBytes) + 60 * 300);
    const link = mediaParts(user({ type: "image_url", image_url: { url: "https://www.youtube.com/watch?v=abc" } }));
    expect(chatPromptBound(gemini, 100, link)).toBe(100 - link.mediaBytes + 1_000_000);
  });

  it("an extensionless URL to a model whose provider fetches anything counts at the larger of an image and a URL part", () => {
    const media = mediaParts(user({ type: "image_url", image_url: { url: "https://x.test/render?id=3" } }));
    expect(chatPromptBound(gemini, 100, media)).toBe(100 - media.mediaBytes + 1_000_000);
    expect(chatPromptBound(claude, 100, media)).toBe(100 - media.mediaBytes + 1_600);
  });

  it("a kind of input the catalog does not bound for the model is a 400 naming it, never a silent default", () => {
    const video = mediaParts(user({ type: "image_url", image_url: { url: dataUrl("video/mp4", mp4(5)) } }));
    expect(refusal(() => chatPromptBound(claude, 100, video)).message).toContain("max_input_tokens_per_media_second");
    const youtube = mediaParts(user({ type: "image_url", image_url: { url: "https://youtu.be/abc" } }));
    expect(refusal(() => chatPromptBound(claude, 100, youtube)).message).toContain("max_input_tokens_per_url_part");
    const doc = mediaParts(user({ type: "file", file: { file_data: dataUrl("application/pdf", pdf(2)) } }));
    const noPages = refusal(() => chatPromptBound({ ...gemini, max_input_tokens_per_pdf_page: 0 }, 100, doc));
    expect(noPages.context.param).toBe("messages");
    expect(noPages.message).toContain("max_input_tokens_per_pdf_page");
    // A PDF whose pages cannot be read: the maximum per URL part, or a 400 without one.
    const unreadable = mediaParts(user({ type: "file", file: { file_data: dataUrl("application/pdf", Buffer.from("%PDF-1.7 nothing to count")) } }));
    expect(chatPromptBound(gemini, 100, unreadable)).toBe(Math.max(0, 100 - unreadable.mediaBytes) + 1_000_000);
    expect(refusal(() => chatPromptBound(claude, 100, unreadable)).message).toContain("could not be read");
  });

  it("text files and images keep their rules: text by its bytes, an image at the model's maximum per image", () => {
    const media = mediaParts(
      user({ type: "file", file: { filename: "notes.txt", file_data: Buffer.from("hello").toString("base64") } }, { type: "image_url", image_url: { url: dataUrl("image/png", Buffer.alloc(10)) } }),
    );
    expect(media.files).toEqual([]);
    expect(media.images).toBe(1);
    expect(chatPromptBound(claude, 500, media)).toBe(500 - media.mediaBytes + 1_600);
  });
});
