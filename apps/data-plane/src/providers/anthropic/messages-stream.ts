import { GatewayError } from "@gateway/errors";
import { estimateCharTokens } from "@gateway/pricing";
import { parseStreamEvent, PlainText } from "../sse.js";
import { announcing, isObject, serviceTier, type Json, type NormalizedUsage, type ParsedChatResponse, type ParsedStreamEvent, type StreamCollector, type StreamPassthrough } from "../types.js";

/**
 * The Messages API's wire format, as both of its adapters read it (natively, anthropic/messages.ts,
 * and as a chat provider, anthropic/chat.ts): its usage, its stream read (relayed as it came, or
 * parsed) and a stream read whole into the Message the provider answers a non-streamed request with.
 */

export interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  /** Server tools run for the answer, billed per use beside the tokens. */
  server_tool_use?: { web_search_requests?: number } | null;
  /** standard, priority or batch. */
  service_tier?: unknown;
}

/**
 * Anthropic reports cache reads and writes apart from `input_tokens` (which excludes both); all of it
 * is prompt, so the normalized input is their sum and the reads and writes are its parts. Thinking
 * is inside `output_tokens` with no count of its own: billed at the output price, as Anthropic does.
 */
export function normalize(u: AnthropicUsage | undefined, inputFromStart = 0): NormalizedUsage | undefined {
  if (!u) return undefined;
  const cacheRead = u.cache_read_input_tokens ?? 0;
  const input = (u.input_tokens ?? inputFromStart) + cacheRead + (u.cache_creation_input_tokens ?? 0);
  const searches = Math.max(0, Math.trunc(Number(u.server_tool_use?.web_search_requests ?? 0)) || 0);
  return {
    input_tokens: input,
    output_tokens: u.output_tokens ?? 0,
    cached_input_tokens: cacheRead,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
    ...(searches > 0 ? { web_search_requests: searches } : {}),
    estimated: false,
    ...serviceTier(u.service_tier),
  };
}

/**
 * What a block's start tells of the provider's work, for a stream cut short: a `thinking` (or
 * `redacted_thinking`) block opens a reasoning phase, whose streamed text is a summary of what is
 * billed, and any other block closes it; a `server_tool_use` web search is one search run.
 */
export function blockPhase(ev: MessagesStreamEvent): { thinking: boolean; searches?: number } {
  const type = ev.content_block?.type;
  if (type === "thinking" || type === "redacted_thinking") return { thinking: true };
  if (type === "server_tool_use" && ev.content_block?.name === "web_search") return { thinking: false, searches: 1 };
  return { thinking: false };
}

/** One event of a Messages stream, the fields the gateway reads (both parsers of the wire format use it). */
export interface MessagesStreamEvent {
  type?: string;
  message?: { id?: string; model?: string; usage?: AnthropicUsage };
  index?: number;
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; partial_json?: string; thinking?: string; stop_reason?: unknown };
  usage?: AnthropicUsage;
  error?: { message?: string };
}

/**
 * The usage of one Messages stream, the one accounting for both of its parsers (native and chat):
 * input and cache counts come in message_start, the output count (and, from newer API versions,
 * final input counts and server tool use) in message_delta; a count the delta leaves out keeps its
 * message_start value. A delta without usage leaves it unknown, so the gateway counts what it delivered.
 */
export function messagesStreamUsage() {
  let started: AnthropicUsage = {};
  return {
    /** message_start's counts; what the provider reported so far (input and cache; the output it will count later). */
    start(u: AnthropicUsage | undefined): NormalizedUsage | undefined {
      started = u ?? {};
      return normalize({ ...started, output_tokens: 0 });
    },
    delta(u: AnthropicUsage | undefined): NormalizedUsage | undefined {
      if (!u) return undefined;
      const defined = Object.fromEntries(Object.entries(u).filter(([k, v]) => typeof v === "number" || (k === "server_tool_use" && v)));
      return normalize({ ...started, ...defined });
    },
  };
}

/**
 * Events a Messages passthrough sends as they came (deltas, block stops, pings: no model id, no
 * usage), with the characters the parser would count in them (text, thinking and tool arguments,
 * which only deltas carry); message events, errors and block starts are parsed.
 */
const plainEvents = new PlainText(["text", "thinking", "partial_json"], String.raw`"type":\s*"(?:message_|error"|content_block_start")`);

/**
 * One Messages stream read natively: every event goes out as the provider framed it, only the model
 * id replaced in message_start; its parser reads usage, the end and errors, and counts what was
 * generated (text, thinking and tool arguments) for a provider that reports no usage. As a
 * passthrough, deltas, block stops and pings are not parsed: their generated characters are
 * counted from the JSON text.
 */
export function messagesStream(publicModel: string): StreamPassthrough {
  const usageOf = messagesStreamUsage();
  // What was generated so far, in characters (the client's estimate when message_delta has no usage).
  let generated = 0;
  const parser = (data: string): ParsedStreamEvent => {
    // Also handed on parsed (`chunk`), for shapes that translate the events (Responses).
    const ev = parseStreamEvent<MessagesStreamEvent>(data);
    const type = String(ev.type ?? "");
    const frame = (payload: string) => `event: ${type}\ndata: ${payload}\n\n`;
    switch (type) {
      case "message_start": {
        const reported = usageOf.start(ev.message?.usage);
        if (ev.message) ev.message.model = publicModel;
        return { forward: frame(JSON.stringify(ev)), chunk: ev as Record<string, unknown>, ...(reported ? { reported } : {}), text: "", done: false };
      }
      case "content_block_delta": {
        // Text, thinking and tool arguments are all output: counted if the provider reports no usage.
        const d = ev.delta;
        const text = (d?.type === "text_delta" ? d.text : d?.type === "thinking_delta" ? d.thinking : d?.type === "input_json_delta" ? d.partial_json : "") ?? "";
        generated += text.length;
        return { forward: frame(data), chunk: ev as Record<string, unknown>, text, done: false };
      }
      case "message_delta": {
        // No usage on the final delta: leave it unknown so the gateway counts what it delivered,
        // and give the client the count (the SDKs read message_delta.usage unconditionally).
        if (!ev.usage) return { forward: frame(JSON.stringify({ ...ev, usage: { output_tokens: estimateCharTokens(generated) } })), chunk: ev as Record<string, unknown>, text: "", done: false };
        return { forward: frame(data), chunk: ev as Record<string, unknown>, usage: usageOf.delta(ev.usage), text: "", done: false };
      }
      case "content_block_start":
        return { forward: frame(data), chunk: ev as Record<string, unknown>, text: "", done: false, ...blockPhase(ev) };
      case "message_stop":
        // Sent by the client shape's end, after the usage event is durable.
        return { forward: undefined, text: "", done: true };
      case "error":
        throw new GatewayError("upstream_error", `The provider reported an error mid-stream: ${ev.error?.message ?? "unknown"}`);
      default:
        return { forward: frame(data), chunk: ev as Record<string, unknown>, text: "", done: false };
    }
  };
  return { plain: plainEvents, parser: announcing(parser), counted: (chars) => (generated += chars) };
}

/**
 * A Messages stream's events read into the Message the provider answers a non-streamed request
 * with, as Anthropic's SDK assembles one: message_start's message; each content block as it
 * started (whole for the blocks that never change: redacted thinking, search results), its text,
 * thinking and citations appended, its signature set, a tool's input (client or server tool) parsed
 * from its JSON deltas; message_delta's stop reason, stop sequence and any other field it carries
 * (context management's edits), and its usage counts over message_start's. When the final delta
 * carries no usage, the output count is what was generated, counted (message_start's is Anthropic's
 * "1" so far), as a relayed stream tells its client.
 */
export class MessageCollector {
  private message: Json | undefined;
  private readonly blocks: Array<Json | undefined> = [];
  /** Tool inputs as their JSON deltas came, by block index. */
  private readonly inputs = new Map<number, string>();
  private generated = 0;
  private finalUsage = false;

  take(ev: ParsedStreamEvent): void {
    const e = ev.chunk;
    if (!e) return;
    const index = typeof e.index === "number" ? e.index : 0;
    switch (e.type) {
      case "message_start":
        if (isObject(e.message)) this.message = { ...e.message, usage: isObject(e.message.usage) ? { ...e.message.usage } : {} };
        return;
      case "content_block_start":
        if (isObject(e.content_block)) this.blocks[index] = { ...e.content_block };
        return;
      case "content_block_delta": {
        const b = this.blocks[index];
        const d = e.delta;
        if (!b || !isObject(d)) return;
        if (d.type === "text_delta" && typeof d.text === "string") {
          b.text = String(b.text ?? "") + d.text;
          this.generated += d.text.length;
        } else if (d.type === "thinking_delta" && typeof d.thinking === "string") {
          b.thinking = String(b.thinking ?? "") + d.thinking;
          this.generated += d.thinking.length;
        } else if (d.type === "signature_delta") b.signature = d.signature;
        else if (d.type === "citations_delta") b.citations = [...(Array.isArray(b.citations) ? b.citations : []), d.citation];
        else if (d.type === "input_json_delta" && typeof d.partial_json === "string") {
          this.inputs.set(index, (this.inputs.get(index) ?? "") + d.partial_json);
          this.generated += d.partial_json.length;
        }
        return;
      }
      case "message_delta": {
        const m = this.message;
        if (!m) return;
        if (isObject(e.delta)) for (const k in e.delta) if (e.delta[k] !== undefined && (k !== "container" || e.delta[k] !== null)) m[k] = e.delta[k];
        // What the API adds beside them (context management's applied edits) is the Message's too.
        for (const k in e) if (k !== "type" && k !== "delta" && k !== "usage" && e[k] !== undefined) m[k] = e[k];
        const usage = m.usage as Json;
        if (isObject(e.usage)) {
          this.finalUsage = true;
          for (const k in e.usage) if (e.usage[k] !== undefined && e.usage[k] !== null) usage[k] = e.usage[k];
        }
        return;
      }
      default:
    }
  }

  /** The Message (model id as message_start named it: the public one); undefined when no message_start came. */
  result(): Json | undefined {
    const m = this.message;
    if (!m) return undefined;
    const content: Json[] = [];
    this.blocks.forEach((b, i) => {
      if (!b) return;
      const json = this.inputs.get(i);
      if (json !== undefined && json !== "") {
        try {
          b.input = JSON.parse(json) as unknown;
        } catch {
          throw new GatewayError("upstream_error", "The provider streamed a tool input that is not JSON.");
        }
      }
      content.push(b);
    });
    if (!this.finalUsage) (m.usage as Json).output_tokens = estimateCharTokens(this.generated);
    return { ...m, content };
  }
}

/**
 * A Messages stream read whole (WireAdapter.collect): its parser (the native one: usage, counted
 * text, thinking phases, searches), and the Message its events make, for `parse` (the adapter's
 * reading of a JSON answer).
 */
export function messagesCollector(publicModel: string, parse: (message: Json) => ParsedChatResponse): StreamCollector {
  const collector = new MessageCollector();
  return {
    parser: messagesStream(publicModel).parser,
    take: (ev) => collector.take(ev),
    answer: () => {
      const message = collector.result();
      if (!message) throw new GatewayError("upstream_error", "The provider's stream carried no message.");
      return parse(message);
    },
  };
}
