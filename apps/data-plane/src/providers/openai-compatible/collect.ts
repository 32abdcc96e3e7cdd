import type { NormalizedUsage, ParsedStreamEvent } from "../types.js";
import { isObject, type Json } from "../types.js";

/** What one choice's deltas made so far. */
interface Choice {
  index: number;
  /** The message's fields other than those assembled below (role, and any a server adds). */
  message: Json;
  /** Content text; undefined while no delta carried a string. */
  content: string | undefined;
  refusal: string | null | undefined;
  /** Reasoning text as OpenAI-compatible servers stream it (`reasoning_content`, `reasoning`). */
  reasoning: Record<"reasoning_content" | "reasoning", string | undefined>;
  /** Tool calls by their index in the deltas. */
  calls: Map<number, Json & { function?: Json }>;
  functionCall: { name?: unknown; arguments: string } | undefined;
  audio: Json | undefined;
  annotations: unknown[] | undefined;
  finish: unknown;
  /** Absent: no chunk carried the key; null, or the content and refusal entries appended. */
  logprobs: { content?: unknown[]; refusal?: unknown[] } | null | undefined;
  /** Other keys of the chunk's choice (a server's own, such as content filter results), the last one sent. */
  rest: Json;
}

const REASONING = ["reasoning_content", "reasoning"] as const;

/**
 * Chat-completion chunks (the provider's own, or a translator's: Gemini's) read into the one
 * `chat.completion` the provider answers a non-streamed request with, as OpenAI's SDK assembles a
 * stream: the chunks' top-level fields (id, created, model, system_fingerprint, service_tier …),
 * each choice by its index, its content, refusal and reasoning text appended, its tool calls by
 * their index with their arguments appended (and their `index` dropped, as an answer has none), the
 * finish reason, log probabilities appended, and the usage of the chunk that carried it (or, for a
 * translator whose chunks carry none, the usage its parser reported, in the chat shape).
 *
 * The message's `content` is as an answer has it: the text; null beside tool calls, a refusal or
 * audio when there is no text; else "" (an answer with nothing to say).
 */
export class ChatCompletionCollector {
  private readonly head: Json = {};
  private readonly choices = new Map<number, Choice>();
  private usage: Json | undefined;
  /** The usage the parser reported (Gemini's, whose chunks carry none). */
  reported: NormalizedUsage | undefined;

  constructor(
    /** The usage in the chat shape, for the chunks that carry none (chatCompletionUsage). */
    private readonly chatUsage: (u: NormalizedUsage | undefined) => Json | undefined,
  ) {}

  take(ev: ParsedStreamEvent): void {
    if (ev.usage) this.reported = ev.usage;
    const chunk = ev.chunk;
    if (!chunk) return;
    for (const k in chunk) {
      const v = chunk[k];
      if (k === "choices" || k === "object" || k === "obfuscation" || v === undefined) continue;
      if (k === "usage") {
        if (isObject(v)) this.usage = v;
      } else this.head[k] = v;
    }
    if (!Array.isArray(chunk.choices)) return;
    for (const c of chunk.choices as Json[]) this.choice(c);
  }

  private choice(c: Json): void {
    const index = typeof c.index === "number" ? c.index : 0;
    let s = this.choices.get(index);
    if (!s) {
      s = {
        index,
        message: {},
        content: undefined,
        refusal: undefined,
        reasoning: { reasoning_content: undefined, reasoning: undefined },
        calls: new Map(),
        functionCall: undefined,
        audio: undefined,
        annotations: undefined,
        finish: null,
        logprobs: undefined,
        rest: {},
      };
      this.choices.set(index, s);
    }
    for (const k in c) {
      const v = c[k];
      if (k === "index" || k === "delta" || v === undefined) continue;
      if (k === "finish_reason") {
        if (v !== null && v !== "") s.finish = v;
      } else if (k === "logprobs") {
        if (isObject(v)) {
          s.logprobs ??= {};
          for (const part of ["content", "refusal"] as const) if (Array.isArray(v[part])) (s.logprobs[part] ??= []).push(...(v[part] as unknown[]));
        } else s.logprobs ??= null;
      } else s.rest[k] = v;
    }
    if (isObject(c.delta)) this.delta(s, c.delta);
  }

  private delta(s: Choice, d: Json): void {
    for (const k in d) {
      const v = d[k];
      if (v === undefined) continue;
      switch (k) {
        case "content":
          if (typeof v === "string") s.content = (s.content ?? "") + v;
          break;
        case "refusal":
          if (typeof v === "string") s.refusal = (s.refusal ?? "") + v;
          else s.refusal ??= null;
          break;
        case "reasoning_content":
        case "reasoning":
          if (typeof v === "string") s.reasoning[k] = (s.reasoning[k] ?? "") + v;
          break;
        case "tool_calls":
          if (Array.isArray(v)) for (const t of v as Json[]) this.toolCall(s, t);
          break;
        case "function_call":
          if (isObject(v)) {
            s.functionCall ??= { arguments: "" };
            if (v.name) s.functionCall.name = v.name;
            if (typeof v.arguments === "string") s.functionCall.arguments += v.arguments;
          }
          break;
        case "audio":
          if (isObject(v)) {
            const a = (s.audio ??= {});
            for (const f in v) {
              const x = v[f];
              if (x === undefined || x === null) continue;
              a[f] = (f === "data" || f === "transcript") && typeof x === "string" ? String(a[f] ?? "") + x : x;
            }
          }
          break;
        case "annotations":
          if (Array.isArray(v)) (s.annotations ??= []).push(...(v as unknown[]));
          break;
        default:
          s.message[k] = v;
      }
    }
  }

  private toolCall(s: Choice, t: Json): void {
    const index = typeof t.index === "number" ? t.index : s.calls.size;
    let call = s.calls.get(index);
    if (!call) s.calls.set(index, (call = {}));
    for (const k in t) {
      const v = t[k];
      if (k === "index" || v === undefined || v === null) continue;
      if (k === "function" && isObject(v)) {
        const fn = (call.function ??= { arguments: "" });
        for (const f in v) {
          const x = v[f];
          if (x === undefined || x === null) continue;
          fn[f] = f === "arguments" && typeof x === "string" ? String(fn.arguments ?? "") + x : x;
        }
      } else call[k] = v;
    }
  }

  /** The chat.completion the chunks make (the model as the chunks named it: the parser's caller puts the public one in). */
  completion(): Json {
    const choices = [...this.choices.values()]
      .sort((a, b) => a.index - b.index)
      .map((s) => {
        const calls = [...s.calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
        const other = calls.length > 0 || !!s.refusal || s.audio !== undefined || s.functionCall !== undefined;
        const message: Json = { role: "assistant", ...s.message, content: s.content ? s.content : other ? null : "" };
        if (s.refusal !== undefined) message.refusal = s.refusal;
        for (const k of REASONING) if (s.reasoning[k] !== undefined) message[k] = s.reasoning[k];
        if (calls.length) message.tool_calls = calls;
        if (s.functionCall) message.function_call = s.functionCall;
        if (s.audio) message.audio = s.audio;
        if (s.annotations) message.annotations = s.annotations;
        return { ...s.rest, index: s.index, message, ...(s.logprobs !== undefined ? { logprobs: s.logprobs } : {}), finish_reason: s.finish };
      });
    const usage = this.usage ?? this.chatUsage(this.reported);
    return { ...this.head, object: "chat.completion", choices, ...(usage ? { usage } : {}) };
  }
}
