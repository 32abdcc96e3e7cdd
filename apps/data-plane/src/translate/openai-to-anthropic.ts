import { randomBytes, randomUUID } from "node:crypto";
import type { NormalizedUsage } from "../providers/types.js";

/** OpenAI chat-completion results → Anthropic Messages responses and stream events. */

export function stopReason(finish: unknown): string {
  switch (finish) {
    case "length":
      return "max_tokens";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "refusal";
    default:
      return "end_turn";
  }
}

export function messageId(): string {
  // randomUUID draws from a cached pool of entropy: no call into the system's random source per id.
  return `msg_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

function anthropicUsage(u: NormalizedUsage | undefined): Record<string, number> {
  return {
    // Anthropic's input_tokens excludes cache reads and writes; the normalized one includes them.
    input_tokens: Math.max(0, (u?.input_tokens ?? 0) - (u?.cached_input_tokens ?? 0) - (u?.cache_creation_input_tokens ?? 0)),
    output_tokens: u?.output_tokens ?? 0,
    cache_read_input_tokens: u?.cached_input_tokens ?? 0,
    cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
  };
}

function parseArgs(s: unknown): unknown {
  if (typeof s !== "string" || s === "") return {};
  try {
    return JSON.parse(s);
  } catch {
    return { _raw: s };
  }
}

export function completionToMessage(body: Record<string, unknown>, publicModel: string, usage: NormalizedUsage | undefined): Record<string, unknown> {
  const choice = (body.choices as Array<{ message?: { content?: unknown; tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }> }; finish_reason?: unknown }>)[0];
  const content: Array<Record<string, unknown>> = [];
  const text = choice?.message?.content;
  if (typeof text === "string" && text !== "") content.push({ type: "text", text });
  for (const tc of choice?.message?.tool_calls ?? []) {
    content.push({ type: "tool_use", id: tc.id ?? `toolu_${randomBytes(8).toString("hex")}`, name: tc.function?.name ?? "", input: parseArgs(tc.function?.arguments) });
  }
  return {
    id: messageId(),
    type: "message",
    role: "assistant",
    model: publicModel,
    content,
    stop_reason: stopReason(choice?.finish_reason),
    stop_sequence: null,
    usage: anthropicUsage(usage),
  };
}

const frame = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

interface OpenAIChunk {
  choices?: Array<{ delta?: { content?: unknown; tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }> }; finish_reason?: unknown }>;
}

/**
 * Turns an OpenAI chunk stream into Anthropic events: message_start, one content block per text
 * run or tool call (each opened and closed), message_delta with the stop reason and the usage,
 * message_stop. Usage arrives last on the OpenAI side, so it goes into message_delta.
 */
export class AnthropicStreamWriter {
  private started = false;
  private open: { index: number; kind: "text" | "tool"; toolIndex?: number } | undefined;
  private next = 0;
  private finish: unknown = null;
  private readonly toolBlocks = new Map<number, number>();

  constructor(private readonly publicModel: string) {}

  private start(): string {
    this.started = true;
    return (
      frame("message_start", {
        message: { id: messageId(), type: "message", role: "assistant", model: this.publicModel, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } },
      }) + frame("ping", {})
    );
  }

  private close(): string {
    if (!this.open) return "";
    const s = frame("content_block_stop", { index: this.open.index });
    this.open = undefined;
    return s;
  }

  /** Frames for one OpenAI chunk (may be empty). */
  chunk(c: OpenAIChunk): string {
    let out = this.started ? "" : this.start();
    for (const choice of c.choices ?? []) {
      const d = choice.delta;
      if (typeof d?.content === "string" && d.content !== "") {
        if (this.open?.kind !== "text") {
          out += this.close();
          this.open = { index: this.next++, kind: "text" };
          out += frame("content_block_start", { index: this.open.index, content_block: { type: "text", text: "" } });
        }
        // The most frequent frame of a translated stream, written without building its object.
        out += `event: content_block_delta\ndata: {"type":"content_block_delta","index":${this.open.index},"delta":{"type":"text_delta","text":${JSON.stringify(d.content)}}}\n\n`;
      }
      for (const tc of d?.tool_calls ?? []) {
        const ti = tc.index ?? 0;
        if (!this.toolBlocks.has(ti)) {
          out += this.close();
          const index = this.next++;
          this.toolBlocks.set(ti, index);
          this.open = { index, kind: "tool", toolIndex: ti };
          out += frame("content_block_start", { index, content_block: { type: "tool_use", id: tc.id ?? `toolu_${randomBytes(8).toString("hex")}`, name: tc.function?.name ?? "", input: {} } });
        }
        const args = tc.function?.arguments;
        if (typeof args === "string" && args !== "") {
          out += frame("content_block_delta", { index: this.toolBlocks.get(ti)!, delta: { type: "input_json_delta", partial_json: args } });
        }
      }
      if (choice.finish_reason) this.finish = choice.finish_reason;
    }
    return out;
  }

  /** Closing frames once the upstream finished, with the billed usage. */
  end(usage: NormalizedUsage | undefined): string {
    let out = this.started ? "" : this.start();
    out += this.close();
    out += frame("message_delta", { delta: { stop_reason: stopReason(this.finish), stop_sequence: null }, usage: anthropicUsage(usage) });
    out += frame("message_stop", {});
    return out;
  }

  /** The explicit error event that ends a stream the upstream broke. */
  error(type: string, message: string): string {
    return frame("error", { error: { type, message } });
  }
}
