import type { Model } from "@gateway/proto";
import { invalidParam } from "@gateway/errors";
import { dataUrl, inlinePart, kindOfMime, kindOfName, kindOfUrl, type MediaKind, type MediaPart } from "./media.js";

/**
 * Worst-case prompt tokens of a request, for the credit hold. No tokenizer runs on the hot path, so
 * the bound is structural (docs/billing.md, "The hold"):
 *
 * - text, for every script: one token per byte of the decoded body. Byte-level tokenizers fall back
 *   to one token per byte for anything they have no merge for, so no text costs more; everything in
 *   the body (roles, tool schemas, JSON punctuation) counts, which covers chat templates too;
 * - image parts: the model's `max_input_tokens_per_image` each, whatever their bytes (providers bill
 *   an image by its pixels: a 50-byte URL can cost over a thousand tokens, a megabyte of base64 far
 *   fewer than a million);
 * - audio parts: the model's `max_input_tokens_per_audio` each when set, else their bytes;
 * - token-array inputs (embeddings): their length, exactly;
 * - never more than the model's context window: a provider does not bill a prompt it cannot take.
 */
export interface MediaParts {
  /** Image parts found (URL parts of no recognisable kind included). */
  images: number;
  /** Of `images`: parts by URL whose kind the URL does not tell (a provider that fetches any URL may find a video there). */
  unknownUrls: number;
  /** Audio parts found (`input_audio`). */
  audio: number;
  /** UTF-8 bytes of the media payloads (URLs, base64) that are counted per part instead. */
  mediaBytes: number;
  /** Bytes of audio payloads (counted as bytes when the model has no per-part maximum). */
  audioBytes: number;
  /** PDFs, videos and audio files (inline or by URL), counted by their pages or seconds (credits/media.ts). */
  files: MediaPart[];
}

const utf8 = (s: string): number => Buffer.byteLength(s, "utf8");

/**
 * Finds the media parts of OpenAI chat messages, Responses input items (whose `input_file` parts
 * the route refuses) or Anthropic Messages content (the system prompt and tool results included):
 * images, `input_audio`, and files — PDFs,
 * videos and audio, inline (classified by MIME type and read for their pages or seconds) or by URL
 * (by host and extension) — each counted per part instead of by its bytes.
 */
export function mediaParts(messages: unknown, system?: unknown): MediaParts {
  const out: MediaParts = { images: 0, unknownUrls: 0, audio: 0, mediaBytes: 0, audioBytes: 0, files: [] };
  /** A part given as a URL (http(s), gs:// or data:): an image, or a file of another kind. */
  const url = (u: unknown): void => {
    if (typeof u !== "string") {
      out.images++;
      return;
    }
    const data = dataUrl(u);
    if (data) return inline(kindOfMime(data.mime), data.base64, utf8(u));
    const kind = kindOfUrl(u, true);
    out.mediaBytes += utf8(u);
    if (kind === "image" || kind === "unknown") {
      out.images++;
      // A data: URL that is not base64 (percent-encoded) is not one the provider fetches.
      if (kind === "unknown" && !u.startsWith("data:")) out.unknownUrls++;
    } else out.files.push({ kind, byUrl: true });
  };
  /** A part whose bytes are in the request: an image, a file read for its pages or seconds, or text (its bytes). */
  const inline = (kind: MediaKind, base64: string, bytes: number): void => {
    if (kind === "text") return; // counted by its bytes, as text
    out.mediaBytes += bytes;
    if (kind === "image") out.images++;
    else out.files.push(inlinePart(kind, base64));
  };
  const visit = (content: unknown): void => {
    if (!Array.isArray(content)) return;
    for (const part of content as Array<Record<string, unknown> | null>) {
      if (!part || typeof part !== "object") continue;
      switch (part.type) {
        case "image_url":
          url((part.image_url as { url?: unknown } | undefined)?.url);
          break;
        case "input_image":
          // The Responses API's image part: a URL (or data URL) string, or a file id.
          url(part.image_url);
          break;
        case "image": {
          const src = part.source as { data?: unknown; url?: unknown; media_type?: unknown } | undefined;
          out.images++;
          if (typeof src?.data === "string") out.mediaBytes += utf8(src.data);
          if (typeof src?.url === "string") out.mediaBytes += utf8(src.url);
          break;
        }
        case "document": {
          // Anthropic's document block: a base64 PDF is counted by its pages; a text document by its bytes.
          const src = part.source as { type?: unknown; data?: unknown; media_type?: unknown } | undefined;
          if (src?.type === "base64" && typeof src.data === "string") inline(kindOfMime(typeof src.media_type === "string" ? src.media_type : "application/pdf"), src.data, utf8(src.data));
          break;
        }
        case "file": {
          // Chat completions' file part: its data as a data URL (or bare base64 with a file name).
          const f = part.file as { file_data?: unknown; filename?: unknown } | undefined;
          if (typeof f?.file_data === "string") {
            const data = dataUrl(f.file_data);
            inline(data ? kindOfMime(data.mime) : kindOfName(f.filename), data?.base64 ?? f.file_data, utf8(f.file_data));
          }
          break;
        }
        case "input_audio": {
          const data = (part.input_audio as { data?: unknown } | undefined)?.data;
          out.audio++;
          if (typeof data === "string") {
            out.mediaBytes += utf8(data);
            out.audioBytes += utf8(data);
          }
          break;
        }
        case "tool_result":
          // Anthropic tool results nest content blocks (images included).
          visit(part.content);
          break;
        default:
          break;
      }
    }
  };
  if (Array.isArray(messages)) for (const m of messages as Array<{ content?: unknown } | null>) if (m && typeof m === "object") visit(m.content);
  visit(system);
  return out;
}

/** The catalog fields a prompt bound reads. */
export type MediaBoundModel = Pick<
  Model,
  | "id"
  | "context_window"
  | "max_input_tokens_per_image"
  | "max_input_tokens_per_audio"
  | "audio_input_price_minor_per_mtok"
  | "max_input_tokens_per_pdf_page"
  | "max_input_tokens_per_media_second"
  | "max_input_tokens_per_url_part"
>;

/**
 * The tokens a file part counts at most: a PDF's pages × the model's tokens per page, audio or
 * video seconds × its tokens per second, and a part whose pages or seconds cannot be read (by URL,
 * or past the readers' budget) at the model's maximum per URL part. A field the part needs that the
 * catalog does not declare is a 400 naming `param`: never a silent default.
 */
function fileTokens(model: MediaBoundModel, f: MediaPart, param: string): number {
  const refuse = (what: string, field: string) => invalidParam(param, `${what} input is not available on model '${model.id}' (the catalog declares no ${field} for it).`);
  const perUrl = model.max_input_tokens_per_url_part;
  const unread = (what: string) => {
    if (perUrl > 0) return perUrl;
    throw f.byUrl
      ? refuse(`${what} by URL`, "max_input_tokens_per_url_part")
      : invalidParam(param, `The ${what}'s length could not be read from its data, and model '${model.id}' declares no max_input_tokens_per_url_part to bound it.`);
  };
  if (f.kind === "pdf") {
    const perPage = model.max_input_tokens_per_pdf_page;
    if (!(perPage > 0) && !f.byUrl) throw refuse("PDF", "max_input_tokens_per_pdf_page");
    return f.pages !== undefined && !f.byUrl ? f.pages * perPage : unread("PDF");
  }
  const what = f.kind === "video" ? "Video" : "Audio file";
  const perSecond = model.max_input_tokens_per_media_second;
  if (!(perSecond > 0) && !f.byUrl) throw refuse(what, "max_input_tokens_per_media_second");
  return f.seconds !== undefined && !f.byUrl ? f.seconds * perSecond : unread(what.toLowerCase());
}

/** Worst-case prompt tokens of a chat-shaped request whose decoded body is `decodedBytes` long. */
export function chatPromptBound(model: MediaBoundModel, decodedBytes: number, media: MediaParts, param = "messages"): number {
  // Audio tokens cost far more than text (OpenAI: 10-60×): a model the catalog prices no audio for takes none.
  if (media.audio > 0 && model.audio_input_price_minor_per_mtok === undefined) {
    throw invalidParam(param, `Audio input is not available on model '${model.id}' (the catalog prices no audio for it).`);
  }
  // An image is billed by its size, not its bytes: a model counted at 0 tokens per image would hold
  // nothing for what the provider charges for one. It takes none.
  if (media.images > 0 && !(model.max_input_tokens_per_image > 0)) {
    throw invalidParam(param, `Image input is not available on model '${model.id}' (the catalog counts no tokens per image for it).`);
  }
  const text = Math.max(0, decodedBytes - media.mediaBytes);
  const audio = model.max_input_tokens_per_audio > 0 ? media.audio * model.max_input_tokens_per_audio : media.audioBytes;
  // A URL of no recognisable kind, to a model whose provider fetches any URL (a maximum per URL part declared): that maximum.
  const perUrl = model.max_input_tokens_per_url_part;
  const unknown = media.unknownUrls * Math.max(0, perUrl - model.max_input_tokens_per_image);
  let files = 0;
  for (const f of media.files) files += fileTokens(model, f, param);
  return capAtContext(model, text + media.images * model.max_input_tokens_per_image + audio + unknown + files);
}

/**
 * Worst-case input tokens of an embeddings request: token arrays exactly, each string at one token
 * per byte capped at the model's context window (each input is embedded on its own).
 */
export function embeddingsInputBound(model: Pick<Model, "context_window">, input: unknown): number {
  const one = (x: unknown): number => {
    if (typeof x === "string") return capAtContext(model, utf8(x));
    if (Array.isArray(x) && x.every((n) => typeof n === "number")) return x.length;
    return 0;
  };
  if (Array.isArray(input) && input.length > 0 && input.every((n) => typeof n === "number")) return input.length;
  if (Array.isArray(input)) return input.reduce((s: number, x) => s + one(x), 0);
  return one(input);
}

function capAtContext(model: Pick<Model, "context_window">, tokens: number): number {
  return model.context_window > 0 ? Math.min(tokens, model.context_window) : tokens;
}

/** Web searches a request may make when its tool sets no limit (`max_uses`, `max_tool_calls`): the limit is then sent, and held. */
export const DEFAULT_WEB_SEARCHES = 5;

/**
 * The most prompt tokens one search's results bring in (the catalog's max_input_tokens_per_web_search);
 * a model that prices searches but does not bound their results refuses the tool.
 */
export function searchResultTokens(m: Pick<Model, "id" | "max_input_tokens_per_web_search">): number {
  const tokens = m.max_input_tokens_per_web_search ?? 0;
  if (!(tokens > 0)) throw invalidParam("tools", `Web search is not offered on '${m.id}' (the catalog does not bound the tokens its results bring into the prompt: max_input_tokens_per_web_search).`);
  return tokens;
}
