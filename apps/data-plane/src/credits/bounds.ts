import type { Model } from "@gateway/proto";
import { invalidParam } from "@gateway/errors";

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
  /** Image parts found. */
  images: number;
  /** Audio parts found. */
  audio: number;
  /** UTF-8 bytes of the media payloads (URLs, base64) that are counted per part instead. */
  mediaBytes: number;
  /** Bytes of audio payloads (counted as bytes when the model has no per-part maximum). */
  audioBytes: number;
}

const utf8 = (s: string): number => Buffer.byteLength(s, "utf8");

/** Finds the image and audio parts of OpenAI chat messages or Anthropic Messages content. */
export function mediaParts(messages: unknown, system?: unknown): MediaParts {
  const out: MediaParts = { images: 0, audio: 0, mediaBytes: 0, audioBytes: 0 };
  const visit = (content: unknown): void => {
    if (!Array.isArray(content)) return;
    for (const part of content as Array<Record<string, unknown> | null>) {
      if (!part || typeof part !== "object") continue;
      switch (part.type) {
        case "image_url":
        case "input_image": {
          // The Responses API's image part (input_image): a URL (or data URL) string, or a file id.
          const url = part.type === "input_image" ? part.image_url : (part.image_url as { url?: unknown } | undefined)?.url;
          out.images++;
          if (typeof url === "string") out.mediaBytes += utf8(url);
          break;
        }
        case "image": {
          const src = part.source as { data?: unknown; url?: unknown } | undefined;
          out.images++;
          if (typeof src?.data === "string") out.mediaBytes += utf8(src.data);
          if (typeof src?.url === "string") out.mediaBytes += utf8(src.url);
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

/** Worst-case prompt tokens of a chat-shaped request whose decoded body is `decodedBytes` long. */
export function chatPromptBound(
  model: Pick<Model, "id" | "context_window" | "max_input_tokens_per_image" | "max_input_tokens_per_audio" | "audio_input_price_minor_per_mtok">,
  decodedBytes: number,
  media: MediaParts,
): number {
  // Audio tokens cost far more than text (OpenAI: 10-60×): a model the catalog prices no audio for takes none.
  if (media.audio > 0 && model.audio_input_price_minor_per_mtok === undefined) {
    throw invalidParam("messages", `Audio input is not available on model '${model.id}' (the catalog prices no audio for it).`);
  }
  // An image is billed by its size, not its bytes: a model counted at 0 tokens per image would hold
  // nothing for what the provider charges for one. It takes none.
  if (media.images > 0 && !(model.max_input_tokens_per_image > 0)) {
    throw invalidParam("messages", `Image input is not available on model '${model.id}' (the catalog counts no tokens per image for it).`);
  }
  const text = Math.max(0, decodedBytes - media.mediaBytes);
  const audio = model.max_input_tokens_per_audio > 0 ? media.audio * model.max_input_tokens_per_audio : media.audioBytes;
  return capAtContext(model, text + media.images * model.max_input_tokens_per_image + audio);
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
