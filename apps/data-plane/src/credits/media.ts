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

/** A `data:` URL's MIME type and base64 payload (undefined: not a base64 data URL). */
export function dataUrl(url: string): { mime: string; base64: string } | undefined {
  const comma = url.indexOf(",");
  if (!url.startsWith("data:") || comma < 0) return undefined;
  const head = url.slice(5, comma);
  if (!/;base64$/i.test(head)) return undefined;
  return { mime: head.slice(0, -7).split(";")[0] ?? "", base64: url.slice(comma + 1) };
}

/** A part whose bytes are in the request (base64), read for its pages or seconds. */
export function inlinePart(mime: string, base64: string): MediaPart {
  const kind = kindOfMime(mime);
  if (kind === "image" || kind === "text") return { kind, byUrl: false };
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
 * (`/Count n`), found in the file and in its compressed object streams (inflated within
 * MEDIA_READ_LIMITS.inflatedBytes). Undefined when none is found (a PDF it cannot read).
 */
export function pdfPages(bytes: Buffer): number | undefined {
  if (bytes.subarray(0, 5).toString("latin1") !== "%PDF-") return undefined;
  let pages = 0;
  let counted = 0;
  const scan = (text: string) => {
    for (const _ of text.matchAll(/\/Type\s*\/Page(?![a-zA-Z])/g)) pages++;
    for (const m of text.matchAll(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)|\/Count\s+(\d+)[^>]*?\/Type\s*\/Pages\b/g)) counted = Math.max(counted, Number(m[1] ?? m[2]));
  };
  const text = bytes.toString("latin1");
  scan(text);
  // Object streams (PDF 1.5+) hold page objects compressed: inflate them, within the budget.
  let inflated = 0;
  for (const m of text.matchAll(/\/FlateDecode[\s\S]{0,512}?>>\s*stream\r?\n/g)) {
    if (inflated >= MEDIA_READ_LIMITS.inflatedBytes) break;
    const start = m.index + m[0].length;
    const end = text.indexOf("endstream", start);
    if (end < 0) break;
    try {
      const out = inflateSync(bytes.subarray(start, end), { maxOutputLength: MEDIA_READ_LIMITS.inflatedBytes - inflated });
      inflated += out.length;
      const s = out.toString("latin1");
      if (s.includes("/Page")) scan(s);
    } catch {
      // A stream that does not inflate (or past the budget) is not a page tree we can read.
    }
  }
  const n = Math.max(pages, counted);
  return n > 0 ? n : undefined;
}

/** An MP4/MOV file's duration from its movie header (`moov` → `mvhd`), seconds rounded up; undefined if absent. */
export function mp4Seconds(bytes: Buffer): number | undefined {
  const box = (from: number, to: number, type: string): { start: number; end: number } | undefined => {
    let at = from;
    while (at + 8 <= to) {
      let size = bytes.readUInt32BE(at);
      let header = 8;
      if (size === 1) {
        if (at + 16 > to) return undefined;
        size = Number(bytes.readBigUInt64BE(at + 8));
        header = 16;
      } else if (size === 0) size = to - at;
      if (size < header) return undefined;
      if (bytes.toString("latin1", at + 4, at + 8) === type) return { start: at + header, end: Math.min(at + size, to) };
      at += size;
    }
    return undefined;
  };
  const moov = box(0, bytes.length, "moov");
  const mvhd = moov && box(moov.start, moov.end, "mvhd");
  if (!mvhd || mvhd.end - mvhd.start < 32) return undefined;
  const version = bytes[mvhd.start];
  const timescale = version === 1 ? bytes.readUInt32BE(mvhd.start + 20) : bytes.readUInt32BE(mvhd.start + 12);
  const duration = version === 1 ? Number(bytes.readBigUInt64BE(mvhd.start + 24)) : bytes.readUInt32BE(mvhd.start + 16);
  if (!(timescale > 0)) return undefined;
  return Math.ceil(duration / timescale);
}

/** A WAV file's duration: its data at the header's byte rate, seconds rounded up; undefined if not a WAV. */
export function wavSeconds(bytes: Buffer): number | undefined {
  if (bytes.length < 44 || bytes.toString("latin1", 0, 4) !== "RIFF" || bytes.toString("latin1", 8, 12) !== "WAVE") return undefined;
  const byteRate = bytes.readUInt32LE(28);
  if (!(byteRate > 0)) return undefined;
  return Math.ceil((bytes.length - 44) / byteRate);
}

/**
 * Compressed audio's longest possible duration from its size: no codec providers take encodes
 * speech below 6 kbit/s (Opus's floor), so n bytes last at most n × 8 / 6,000 seconds.
 */
export function compressedAudioSeconds(byteLength: number): number {
  return Math.ceil((byteLength * 8) / 6_000);
}
