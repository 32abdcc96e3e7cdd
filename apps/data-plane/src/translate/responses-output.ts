import { randomUUID } from "node:crypto";
import { declared, type ToolNames } from "./namespaces.js";
import type { GatewayError } from "@gateway/errors";
import type { NormalizedUsage } from "../providers/types.js";
import { isObject, type Json } from "../providers/types.js";

/**
 * What the Responses API sends back: the Response object (translated from a chat completion, or
 * built by a translator from another provider's answer) and the event sequence of its stream,
 * which the SDK consumes.
 */

/** 32 hex digits from randomUUID's cached pool of entropy (no call into the system's random source per id). */
export const newId = (prefix: string) => `${prefix}_${randomUUID().replaceAll("-", "")}`;

/** Responses usage from the billed usage. */
export function responsesUsage(u: NormalizedUsage | undefined): Json {
  const input = u?.input_tokens ?? 0;
  const output = u?.output_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u?.cached_input_tokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: (u as { reasoning_tokens?: number } | undefined)?.reasoning_tokens ?? 0 },
    total_tokens: input + output,
  };
}

/** What the Response object repeats of its request. */
export interface ResponseEcho {
  id: string;
  createdAt: number;
  model: string;
  request: Json;
  /** The request's namespace tools by their flattened names, to answer calls as the client declared them. */
  names?: ToolNames;
}

export function shell(e: ResponseEcho, status: string, output: Json[], usage: Json | null, incomplete?: Json): Json {
  const r = e.request;
  return {
    id: e.id,
    object: "response",
    created_at: e.createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: incomplete ?? null,
    instructions: r.instructions ?? null,
    max_output_tokens: r.max_output_tokens ?? null,
    model: e.model,
    output,
    parallel_tool_calls: r.parallel_tool_calls ?? true,
    previous_response_id: typeof r.previous_response_id === "string" ? r.previous_response_id : null,
    reasoning: { effort: (isObject(r.reasoning) ? r.reasoning.effort : null) ?? null, summary: null },
    // Asked for (the default); the answer says false when it could not be stored.
    store: r.store !== false,
    temperature: r.temperature ?? 1,
    text: isObject(r.text) && isObject(r.text.format) ? { format: r.text.format } : { format: { type: "text" } },
    tool_choice: r.tool_choice ?? "auto",
    tools: Array.isArray(r.tools) ? r.tools : [],
    top_p: r.top_p ?? 1,
    truncation: "disabled",
    usage,
    user: r.user ?? null,
    metadata: isObject(r.metadata) ? r.metadata : {},
  };
}

export const messageItem = (id: string, text: string, status: string): Json => ({
  type: "message",
  id,
  status,
  role: "assistant",
  content: [{ type: "output_text", text, annotations: [] }],
});

/** A web search the provider ran, as the Responses API reports one (OpenAI bills it per call). */
export const searchItem = (id: string, query: string, status: string): Json => ({ type: "web_search_call", id, status, action: { type: "search", query } });

/** The query of a search tool's JSON input (`{"query": …}`), empty when it has none. */
export function searchQuery(input: string): string {
  try {
    const q = (JSON.parse(input || "{}") as { query?: unknown }).query;
    return typeof q === "string" ? q : "";
  } catch {
    return "";
  }
}

export function callItem(id: string, callId: string, name: string, args: string, status: string, names?: ToolNames): Json {
  const d = declared(names, name);
  return { type: "function_call", id, call_id: callId, name: d.name, ...(d.namespace !== undefined ? { namespace: d.namespace } : {}), arguments: args, status };
}

/** A chat completion as a Response object. */
export function completionToResponse(openai: Json, usage: NormalizedUsage | undefined, e: ResponseEcho): Json {
  const choice = (Array.isArray(openai.choices) ? openai.choices[0] : undefined) as Json | undefined;
  const message = (choice?.message ?? {}) as Json;
  const output: Json[] = [];
  if (typeof message.content === "string" && message.content !== "") output.push(messageItem(newId("msg"), message.content, "completed"));
  for (const call of (Array.isArray(message.tool_calls) ? message.tool_calls : []) as Json[]) {
    const fn = (call.function ?? {}) as Json;
    output.push(callItem(newId("fc"), String(call.id ?? newId("call")), String(fn.name ?? ""), typeof fn.arguments === "string" ? fn.arguments : "{}", "completed", e.names));
  }
  const truncated = choice?.finish_reason === "length";
  return shell(e, truncated ? "incomplete" : "completed", output, responsesUsage(usage), truncated ? { reason: "max_output_tokens" } : undefined);
}

/** A reasoning item (summary text; the provider's opaque state, when it has one, in encrypted_content). */
export const reasoningItem = (id: string, text: string, encrypted: string | undefined): Json => ({
  type: "reasoning",
  id,
  summary: text ? [{ type: "summary_text", text }] : [],
  ...(encrypted !== undefined ? { encrypted_content: encrypted } : {}),
});

/**
 * The Responses event sequence from a provider's stream, whatever its shape: `response.created`,
 * `response.in_progress`, then per output item `response.output_item.added` … deltas …
 * `response.output_item.done`, and `response.completed` (or `response.incomplete`) with usage.
 * Every event carries its `sequence_number`. Fed chat chunks (`chunk`) or, by a translator, the
 * primitives (`text`, `call`, `args`, `reasoning`, `finished`).
 */
export class ResponsesStreamWriter {
  private seq = 0;
  private message: { id: string; index: number; text: string } | undefined;
  private readonly calls = new Map<number | string, { id: string; index: number; callId: string; name: string; args: string }>();
  private readonly thoughts = new Map<number | string, { id: string; index: number; text: string; encrypted: string | undefined }>();
  private readonly searches = new Map<number | string, { id: string; index: number; input: string }>();
  private items = 0;
  private truncated = false;
  private started = false;

  constructor(private readonly e: ResponseEcho) {}

  private event(type: string, data: Json): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.seq++, ...data })}\n\n`;
  }

  private start(): string {
    if (this.started) return "";
    this.started = true;
    const r = shell(this.e, "in_progress", [], null);
    return this.event("response.created", { response: r }) + this.event("response.in_progress", { response: r });
  }

  /** Output text (one message item holds all of it). */
  text(delta: string): string {
    let out = this.start();
    if (delta === "") return out;
    if (!this.message) {
      this.message = { id: newId("msg"), index: this.items++, text: "" };
      out += this.event("response.output_item.added", { output_index: this.message.index, item: { ...messageItem(this.message.id, "", "in_progress"), content: [] } });
      out += this.event("response.content_part.added", { item_id: this.message.id, output_index: this.message.index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
    }
    this.message.text += delta;
    return out + this.event("response.output_text.delta", { item_id: this.message.id, output_index: this.message.index, content_index: 0, delta, logprobs: [] });
  }

  /** A function call starts (`key` names it among this stream's calls). */
  call(key: number | string, callId: string, name: string): string {
    let out = this.start();
    if (this.calls.has(key)) return out;
    const call = { id: newId("fc"), index: this.items++, callId, name, args: "" };
    this.calls.set(key, call);
    out += this.event("response.output_item.added", { output_index: call.index, item: callItem(call.id, call.callId, call.name, "", "in_progress", this.e.names) });
    return out;
  }

  /** A web search the provider runs itself (Anthropic's server tool); its query arrives by `args`. */
  search(key: number | string): string {
    let out = this.start();
    if (this.searches.has(key)) return out;
    const search = { id: newId("ws"), index: this.items++, input: "" };
    this.searches.set(key, search);
    out += this.event("response.output_item.added", { output_index: search.index, item: searchItem(search.id, "", "in_progress") });
    return out + this.event("response.web_search_call.in_progress", { item_id: search.id, output_index: search.index });
  }

  /** More arguments of a started call (or the input of a started search). */
  args(key: number | string, delta: string): string {
    const search = this.searches.get(key);
    if (search) {
      search.input += delta;
      return "";
    }
    const call = this.calls.get(key);
    if (!call || delta === "") return "";
    call.args += delta;
    return this.event("response.function_call_arguments.delta", { item_id: call.id, output_index: call.index, delta });
  }

  /** Reasoning text (its summary) and, once known, the provider's opaque state for it. */
  reasoning(key: number | string, delta: string, encrypted?: string): string {
    let out = this.start();
    let r = this.thoughts.get(key);
    if (!r) {
      r = { id: newId("rs"), index: this.items++, text: "", encrypted: undefined };
      this.thoughts.set(key, r);
      out += this.event("response.output_item.added", { output_index: r.index, item: reasoningItem(r.id, "", undefined) });
      out += this.event("response.reasoning_summary_part.added", { item_id: r.id, output_index: r.index, summary_index: 0, part: { type: "summary_text", text: "" } });
    }
    if (encrypted !== undefined) r.encrypted = encrypted;
    if (delta === "") return out;
    r.text += delta;
    return out + this.event("response.reasoning_summary_text.delta", { item_id: r.id, output_index: r.index, summary_index: 0, delta });
  }

  /** How the answer ended: `truncated` when the output limit cut it. */
  finished(truncated: boolean): void {
    this.truncated = truncated;
  }

  /** Frames for one chat chunk. */
  chunk(chunk: Json): string {
    let out = this.start();
    const choice = (Array.isArray(chunk.choices) ? chunk.choices[0] : undefined) as Json | undefined;
    if (!choice) return out;
    const delta = (choice.delta ?? {}) as Json;
    if (typeof delta.content === "string") out += this.text(delta.content);
    for (const tc of (Array.isArray(delta.tool_calls) ? delta.tool_calls : []) as Json[]) {
      const index = typeof tc.index === "number" ? tc.index : 0;
      const fn = (tc.function ?? {}) as Json;
      out += this.call(index, String(tc.id ?? newId("call")), String(fn.name ?? ""));
      if (typeof fn.arguments === "string") out += this.args(index, fn.arguments);
    }
    if (choice.finish_reason) this.truncated = choice.finish_reason === "length";
    return out;
  }

  /** The finished output items, in order. */
  private output(): Json[] {
    const output: Json[] = new Array(this.items);
    if (this.message) output[this.message.index] = messageItem(this.message.id, this.message.text, "completed");
    for (const c of this.calls.values()) output[c.index] = callItem(c.id, c.callId, c.name, c.args, "completed", this.e.names);
    for (const r of this.thoughts.values()) output[r.index] = reasoningItem(r.id, r.text, r.encrypted);
    for (const q of this.searches.values()) output[q.index] = searchItem(q.id, searchQuery(q.input), "completed");
    return output;
  }

  private response: Json | undefined;

  /** The whole response with its usage, built once (stored before end() sends it). */
  final(usage: NormalizedUsage): Json {
    this.response ??= shell(this.e, this.truncated ? "incomplete" : "completed", this.output(), responsesUsage(usage), this.truncated ? { reason: "max_output_tokens" } : undefined);
    return this.response;
  }

  /** Closes the open items and ends with the whole response and its usage. */
  end(usage: NormalizedUsage): string {
    const response = this.final(usage);
    const output = response.output as Json[];
    let out = this.start();
    for (let index = 0; index < output.length; index++) {
      const item = output[index]!;
      const id = item.id as string;
      if (item.type === "message") {
        const text = this.message!.text;
        out += this.event("response.output_text.done", { item_id: id, output_index: index, content_index: 0, text, logprobs: [] });
        out += this.event("response.content_part.done", { item_id: id, output_index: index, content_index: 0, part: { type: "output_text", text, annotations: [] } });
      } else if (item.type === "function_call") {
        out += this.event("response.function_call_arguments.done", { item_id: id, output_index: index, arguments: item.arguments });
      } else if (item.type === "web_search_call") {
        out += this.event("response.web_search_call.completed", { item_id: id, output_index: index });
      } else if (item.type === "reasoning") {
        const text = ((item.summary as Json[])[0]?.text as string | undefined) ?? "";
        out += this.event("response.reasoning_summary_text.done", { item_id: id, output_index: index, summary_index: 0, text });
        out += this.event("response.reasoning_summary_part.done", { item_id: id, output_index: index, summary_index: 0, part: { type: "summary_text", text } });
      }
      out += this.event("response.output_item.done", { output_index: index, item });
    }
    return out + this.event(response.status === "incomplete" ? "response.incomplete" : "response.completed", { response });
  }

  /** The event that ends a broken stream. */
  error(err: GatewayError): string {
    return this.event("error", { code: err.code, message: err.message, param: null });
  }
}
