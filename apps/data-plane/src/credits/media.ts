import { inflateSync } from "node:zlib";

/**
 * What a media part of a request is, for the hold (docs/billing.md, "Media"): providers bill an
 * image by its pixels, a PDF by its pages (each an image plus its text), audio and video by their
 * seconds, and a part given by URL by whatever they fetch. A part is classified by its MIME type
 * (a data URL's, a block's `media_type`) or, for a URL, by its host and extension; its pages or
 * seconds are read from the file's own header when its bytes are in the request, within a byte
 * and time budget. Past the budget, or for a URL, the catalog's maximum per part applies.
 */
export type MediaKind = "image" | "audio" | "video" | "pdf" | "text";

export interface MediaPart {
  kind: MediaKind;
  /** Given by URL (the provider fetches it): its size is unknown to the gateway. */
  byUrl: boolean;
  /** PDF pages, read from the file (undefined: not readable within the budget). */
  pages?: number;
  /** Seconds of audio or video, read from the file or bounded from its size (undefined: not readable). */
  seconds?: number;
}

/** Bytes of one file the readers look at (decoded), and bytes a PDF's compressed streams may inflate to. */
export const MEDIA_READ_LIMITS = { fileBytes: 32 * 1024 * 1024, inflatedBytes: 16 * 1024 * 1024 } as const;

const VIDEO_EXT = /\.(mp4|m4v|mov|webm|mkv|avi|mpe?g|3gp|flv|wmv)(?:[?#]|$)/i;
const AUDIO_EXT = /\.(mp3|wav|m4a|aac|ogg|oga|opus|flac|aiff?|weba)(?:[?#]|$)/i;
const PDF_EXT = /\.pdf(?:[?#]|$)/i;
const IMAGE_EXT = /\.(png|jpe?g|webp|gif|heic|heif|bmp|tiff?)(?:[?#]|$)/i;
const VIDEO_HOST = /^https?:\/\/(?:[\w-]+\.)*(?:youtube\.com|youtu\.be|vimeo\.com)(?:[/:?#]|$)/i;

/** A MIME type's kind (`image/png`, `application/pdf` …); text and anything else count as text (their bytes). */
export function kindOfMime(mime: string): MediaKind {
  const m = mime.trim().toLowerCase();
  if (m.startsWith("image/")) return "image";
  if (m.startsWith("audio/")) return "audio";
  if (m.startsWith("video/")) return "video";
  if (m === "application/pdf") return "pdf";
  return "text";
}

/**
 * A URL's kind: a video host or a video, audio or PDF extension says so; an image extension, or
 * nothing recognisable, is an image (what image parts carry), unless `fetchesAny` (the model's
 * provider fetches any URL: the catalog declares a maximum per URL part), when only an image
 * extension makes it an image.
 */
export function kindOfUrl(url: string, fetchesAny: boolean): MediaKind | "unknown" {
  if (VIDEO_HOST.test(url) || VIDEO_EXT.test(url)) return "video";
  if (AUDIO_EXT.test(url)) return "audio";
  if (PDF_EXT.test(url)) return "pdf";
  if (IMAGE_EXT.test(url) || !fetchesAny) return "image";
  return "unknown";
}

/**
 * A file name's kind by its extension (a file part sent as bare base64 with its name): the same
 * extensions as URLs; anything else is text (counted by its bytes).
 */
export function kindOfName(name: unknown): MediaKind {
  if (typeof name !== "string") return "text";
  if (VIDEO_EXT.test(name)) return "video";
  if (AUDIO_EXT.test(name)) return "audio";
  if (PDF_EXT.test(name)) return "pdf";
  return IMAGE_EXT.test(name) ? "image" : "text";
}

/** A `data:` URL's MIME type and base64 payload (undefined: not a base64 data URL). */
export function dataUrl(url: string): { mime: string; base64: string } | undefined {
  const comma = url.indexOf(",");
  if (!url.startsWith("data:") || comma < 0) return undefined;
  const head = url.slice(5, comma);
  if (!/;base64$/i.test(head)) return undefined;
  return { mime: head.slice(0, -7).split(";")[0] ?? "", base64: url.slice(comma + 1) };
}

/** A PDF, video or audio file whose bytes are in the request (base64), read for its pages or seconds. */
export function inlinePart(kind: "pdf" | "video" | "audio", base64: string): MediaPart {
  // Decoded size without decoding: 3 bytes per 4 characters.
  if ((base64.length * 3) / 4 > MEDIA_READ_LIMITS.fileBytes) return { kind, byUrl: false };
  const bytes = Buffer.from(base64, "base64");
  if (kind === "pdf") {
    const pages = pdfPages(bytes);
    return pages === undefined ? { kind, byUrl: false } : { kind, byUrl: false, pages };
  }
  const seconds = kind === "video" ? mp4Seconds(bytes) : (wavSeconds(bytes) ?? mp4Seconds(bytes) ?? compressedAudioSeconds(bytes.length));
  return seconds === undefined ? { kind, byUrl: false } : { kind, byUrl: false, seconds };
}

// ---------------------------------------------------------------------------------------------
// Header readers

/**
 * The pages of a PDF: the largest of its page objects (`/Type /Page`) and its page tree's counts
 * (`/Count n`), found in the file and in its object streams (`/Type /ObjStm`, FlateDecode ones
 * inflated within MEDIA_READ_LIMITS.inflatedBytes, every attempt counted). Undefined when it cannot
 * be read whole — no page found, an object stream it cannot inflate or with another filter, the
 * budget spent, a name that matters written with `#` escapes — so a file that hides its pages is
 * held at the catalog's maximum per part, never at the pages it let the reader see. Linear in the
 * file: every pattern's gaps are bounded, and each byte is looked at a bounded number of times.
 */
export function pdfPages(bytes: Buffer): number | undefined {
  if (bytes.subarray(0, 5).toString("latin1") !== "%PDF-") return undefined;
  let pages = 0;
  let counted = 0;
  let readable = true;
  const scan = (text: string) => {
    // A name written with # escapes (/P#61ge, /Ty#70e) is one this reader would miss.
    for (const m of text.matchAll(/\/[A-Za-z0-9]{0,8}#[0-9A-Fa-f]{2}[A-Za-z0-9#]{0,16}/g)) {
      const name = m[0].slice(1).replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
      if (name === "Type" || name === "Page" || name === "Pages" || name === "Count" || name === "ObjStm") readable = false;
    }
    for (const _ of text.matchAll(/\/Type\s{0,16}\/Page(?![a-zA-Z])/g)) pages++;
    for (const m of text.matchAll(/\/Count\s{1,16}(\d{1,9})/g)) counted = Math.max(counted, Number(m[1]));
  };
  const text = bytes.toString("latin1");
  scan(text);
  // Streams (PDF 1.5+ object streams hold page objects compressed): each inflated within what is
  // left of the budget; one that does not inflate whole makes the file unreadable.
  let inflated = 0;
  let from = 0;
  /** Where the last stream ended: a dictionary is looked for after it (each byte looked at once). */
  let previous = 0;
  for (;;) {
    const at = text.indexOf("stream", from);
    if (at < 0) break;
    const begin = text.startsWith("\r\n", at + 6) ? at + 8 : text[at + 6] === "\n" ? at + 7 : -1;
    from = at + 6;
    // "endstream", or a word that merely contains "stream": not a stream's start.
    if (begin < 0 || text.startsWith("end", at - 3)) continue;
    const end = text.indexOf("endstream", begin);
    if (end < 0) return undefined;
    from = end + 9;
    // The stream's dictionary: from its object's start (within 4 KiB before it, after the last stream).
    const before = text.slice(Math.max(previous, at - 4096), at);
    previous = from;
    const dict = before.slice(Math.max(0, before.lastIndexOf(" obj")));
    // Only object streams hold objects (pages, the page tree); content, images and fonts do not.
    if (!/\/Type\s{0,16}\/ObjStm\b/.test(dict)) continue;
    if (!/\/Filter/.test(dict)) {
      scan(text.slice(begin, end));
      continue;
    }
    if (!/\/Filter\s{0,16}\/FlateDecode\b/.test(dict)) return undefined;
    const left = MEDIA_READ_LIMITS.inflatedBytes - inflated;
    if (left <= 0) return undefined;
    try {
      const out = inflateSync(bytes.subarray(begin, end), { maxOutputLength: left });
      inflated += out.length;
      scan(out.toString("latin1"));
    } catch {
      return undefined;
    }
  }
  const n = Math.max(pages, counted);
  return readable && n > 0 ? n : undefined;
}

/**
 * An MP4/MOV file's duration, seconds rounded up: the longest of its movie header (`moov` → `mvhd`)
 * and its tracks' media headers (`trak` → `mdia` → `mdhd`), each its duration over its own
 * timescale. Undefined when none says a positive length (a fragmented file's movie header says 0).
 */
export function mp4Seconds(bytes: Buffer): number | undefined {
  const box = (from: number, to: number, type: string): { start: number; end: number } | undefined => {
    for (const b of boxes(from, to)) if (b.type === type) return b;
    return undefined;
  };
  function* boxes(from: number, to: number): Generator<{ type: string; start: number; end: number }> {
    let at = from;
    while (at + 8 <= to) {
      let size = bytes.readUInt32BE(at);
      let header = 8;
      if (size === 1) {
        if (at + 16 > to) return;
        size = Number(bytes.readBigUInt64BE(at + 8));
        header = 16;
      } else if (size === 0) size = to - at;
      if (size < header) return;
      yield { type: bytes.toString("latin1", at + 4, at + 8), start: at + header, end: Math.min(at + size, to) };
      at += size;
    }
  }
  /** A full box's (mvhd, mdhd) duration over its timescale, seconds; undefined when unreadable or 0. */
  const length = (b: { start: number; end: number } | undefined): number | undefined => {
    if (!b || b.end - b.start < 32) return undefined;
    const version = bytes[b.start];
    const timescale = version === 1 ? bytes.readUInt32BE(b.start + 20) : bytes.readUInt32BE(b.start + 12);
    const duration = version === 1 ? Number(bytes.readBigUInt64BE(b.start + 24)) : bytes.readUInt32BE(b.start + 16);
    return timescale > 0 && duration > 0 ? Math.ceil(duration / timescale) : undefined;
  };
  const moov = box(0, bytes.length, "moov");
  if (!moov) return undefined;
  let seconds = length(box(moov.start, moov.end, "mvhd")) ?? 0;
  for (const b of boxes(moov.start, moov.end)) {
    if (b.type !== "trak") continue;
    const mdia = box(b.start, b.end, "mdia");
    seconds = Math.max(seconds, (mdia && length(box(mdia.start, mdia.end, "mdhd"))) ?? 0);
  }
  return seconds > 0 ? seconds : undefined;
}

/**
 * A PCM WAV file's duration: its data at the lowest rate its header allows (the byte rate, or the
 * sample rate × block size), seconds rounded up; undefined if not a WAV or either rate is 0.
 */
export function wavSeconds(bytes: Buffer): number | undefined {
  if (bytes.length < 44 || bytes.toString("latin1", 0, 4) !== "RIFF" || bytes.toString("latin1", 8, 12) !== "WAVE") return undefined;
  const rate = Math.min(bytes.readUInt32LE(28), bytes.readUInt32LE(24) * bytes.readUInt16LE(32));
  return rate > 0 ? Math.ceil((bytes.length - 44) / rate) : undefined;
}

/**
 * Compressed audio's longest possible duration from its size: no codec providers take encodes
 * speech below 6 kbit/s (Opus's floor), so n bytes last at most n × 8 / 6,000 seconds.
 */
export function compressedAudioSeconds(byteLength: number): number {
  return Math.ceil((byteLength * 8) / 6_000);
}
