import { GatewayError } from "@gateway/errors";
import type { Model } from "@gateway/proto";

type Counter = (text: string) => number;

export type TokenizerFamily = "o200k_base" | "cl100k_base" | "estimate";

/**
 * The tokenizer family of an upstream model, from its name: OpenAI's current models use o200k,
 * the GPT-4 / 3.5 generation cl100k. Other families (Claude, Llama, Mistral …) publish no
 * tokenizer on npm that matches their servers, so they get the conservative estimate.
 */
export function tokenizerFamily(upstreamModel: string): TokenizerFamily {
  const m = upstreamModel.toLowerCase();
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o)/.test(m)) return "o200k_base";
  if (/^(gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada)/.test(m)) return "cl100k_base";
  return "estimate";
}

/**
 * Conservative count for models without a tokenizer: one token per 3 UTF-8 bytes, which no
 * BPE tokenizer in use exceeds on natural text (they average 3.5–4.5 bytes per token).
 */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text) / 3);
}

/** Tokens a chat message costs beyond its text (role and separators), as OpenAI documents. */
const PER_MESSAGE = 4;

/**
 * Context-window pre-check, off unless the deployment enables it: a prompt that cannot fit the
 * model's context window is refused before any credit is held or any provider is called.
 */
export class ContextChecker {
  private counters = new Map<TokenizerFamily, Counter>();

  /** Loads the real tokenizers (a few MB each), once, at start-up. */
  async load(): Promise<void> {
    const o200k = await import("gpt-tokenizer/encoding/o200k_base");
    const cl100k = await import("gpt-tokenizer/encoding/cl100k_base");
    this.counters.set("o200k_base", (t) => o200k.countTokens(t));
    this.counters.set("cl100k_base", (t) => cl100k.countTokens(t));
  }

  count(texts: string[], upstreamModel: string): number {
    const counter = this.counters.get(tokenizerFamily(upstreamModel)) ?? estimateTokens;
    let n = 0;
    for (const t of texts) n += counter(t) + PER_MESSAGE;
    return n;
  }

  /** Throws context_length_exceeded when prompt + requested output cannot fit. */
  check(model: Model, upstreamModel: string, texts: string[], requestedOutput: number | undefined): void {
    if (model.context_window <= 0) return;
    const prompt = this.count(texts, upstreamModel);
    const total = prompt + (requestedOutput ?? 0);
    if (total > model.context_window) {
      throw new GatewayError(
        "context_length_exceeded",
        `This model's maximum context length is ${model.context_window} tokens; the request needs about ${prompt} prompt tokens${requestedOutput ? ` plus ${requestedOutput} output tokens` : ""}.`,
        { param: "messages" },
      );
    }
  }
}
