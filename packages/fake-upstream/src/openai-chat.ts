import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { flakyStatus, parseDirectives, scriptedCall, stripMarkers, type Directives } from "./directives.js";
import { minimalInstance } from "./schema-object.js";
import { countTokens } from "./tokens.js";

export interface ChatMessage {
  role?: string;
  content?: unknown;
  tool_call_id?: string;
}
interface ToolDef {
  type?: string;
  function?: { name?: string; parameters?: unknown; strict?: boolean | null };
}
interface ChatBody {
  model?: string;
  messages?: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  tools?: ToolDef[];
  tool_choice?: "none" | "auto" | "required" | { type?: string; function?: { name?: string } };
  response_format?: { type?: string; json_schema?: { schema?: unknown; strict?: boolean | null } };
  /** Choices to generate (each one costs its completion tokens, as OpenAI bills). */
  n?: number;
}

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((p: unknown) => (p && typeof p === "object" && "text" in p && typeof p.text === "string" ? p.text : "")).join(" ");
  }
  return "";
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long the reasoning of one choice takes at the directives' rate (`reasoning_rate`), ms; 0 without one. */
export const reasoningMs = (d: Directives, reasoning: number): number => (d.reasoningRate > 0 && reasoning > 0 ? (reasoning / d.reasoningRate) * 1000 : 0);

/** Drops the connection mid-stream, after what was written so far reached the peer. */
export async function cut(res: ServerResponse): Promise<void> {
  await sleep(20);
  res.socket?.destroy();
}

/**
 * A stream written at once (no chunk delay, no cut) leaves in one system call: the socket is corked
 * until the answer ends (end() uncorks it). The fake stands in for a provider on another machine;
 * benchmarks share its CPU with the gateways they measure.
 */
export function burst(res: ServerResponse, d: Directives): void {
  if (!d.chunkDelayMs && d.cutAfter === undefined) res.socket?.cork();
}

/** Stands for a text in a frame template (see frameOf); JSON.stringify writes it as "\u0000". */
export const TEXT = "\u0000";

/**
 * The frame of an event that differs from one to the next only in its text: `event` serialized once
 * with TEXT in place of the text, then each frame is that JSON with the text's JSON put in — the same
 * bytes as serializing the whole event each time, for a fraction of the CPU.
 */
export function frameOf(event: unknown, frame: (json: string) => string): (text: string) => string {
  const parts = frame(JSON.stringify(event)).split(JSON.stringify(TEXT));
  return (text) => parts.join(JSON.stringify(text));
}

/** The reply the fake gives: the last user message echoed, so tests can see what was sent. */
export function replyFor(messages: ChatMessage[], fixed?: string): string {
  if (fixed !== undefined) return fixed;
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  return `Echo: ${stripMarkers(textOf(lastUser?.content))}`;
}

/** The input_audio parts of the messages. */
export function audioParts(messages: ChatMessage[]): number {
  return messages.reduce((n, m) => n + (Array.isArray(m.content) ? m.content.filter((p: { type?: unknown }) => p?.type === "input_audio").length : 0), 0);
}

export function promptTokens(messages: ChatMessage[], d?: Pick<Directives, "byteTokens" | "imageTokens" | "audioTokens">): number {
  const count = d?.byteTokens ? (t: string) => Buffer.byteLength(t, "utf8") : countTokens;
  const parts = (type: string) => messages.reduce((n, m) => n + (Array.isArray(m.content) ? m.content.filter((p: { type?: unknown }) => p?.type === type).length : 0), 0);
  const media = parts("image_url") * (d?.imageTokens ?? 0) + parts("input_audio") * (d?.audioTokens ?? 0);
  return messages.reduce((n, m) => n + count(stripMarkers(textOf(m.content))), 0) + media;
}

/** What the fake answers one chat-like request with: after its directives, the reply, tool call and usage. */
export interface Plan {
  d: Directives;
  /** An error status to answer with instead (from `status` or `flaky`). */
  failWith: number | undefined;
  toolCall: { id: string; type: "function"; function: { name: string; arguments: string } } | undefined;
  words: string[];
  /** "stop", "length" or "tool_calls". */
  finish: string;
  /** Reasoning tokens per choice. */
  reasoning: number;
  promptCount: number;
  cachedCount: number;
  /** Every choice's completion tokens (reasoning included). */
  completionTokens: number;
}

/** The tool the fake may call: offered (called after a user turn, with its text) or forced (always called, with arguments its parameters allow). */
export interface ToolPick {
  name: string;
  forced: boolean;
  /** The function's JSON Schema, read when the call is forced. */
  parameters?: unknown;
  /** Every declared property in the arguments, not only the required ones. */
  strict?: boolean;
}

/** A structured answer the caller asked for: JSON text (for its schema) instead of the echo. */
export type ReplyFormat = { type: "json_schema"; schema: unknown; strict?: boolean } | { type: "json_object" };

/**
 * JSON text whose whitespace-separated words join back to the same text: whitespace inside its
 * strings other than a lone space is written as an escape, so the word-by-word deltas, the token
 * count and a `length` cut all see the answer as the caller will parse it.
 */
function wordSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/(?<=\s)\s|[^\S ]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The JSON a structured answer carries: an instance of the schema, or for json_object the user's text in an object. */
function structuredReply(format: ReplyFormat, text: string): string {
  return wordSafeJson(format.type === "json_schema" ? minimalInstance(format.schema, { text, strict: format.strict === true }) : { text });
}

/**
 * The deterministic answer: with tools offered and a user turn last, the fake calls the first tool
 * with the user's text; a forced tool is called with arguments its schema allows; after a tool
 * result it answers with what the tool said; else it echoes. A structured `format` answers with
 * JSON for it instead. Reasoning comes first and counts against the completion limit, as at OpenAI.
 */
export function planReply(
  model: string,
  messages: ChatMessage[],
  offeredTool: ToolPick | undefined,
  limit: number | undefined,
  choices: number,
  format?: ReplyFormat,
  offered: readonly string[] = [],
): Plan {
  const prompt = messages.map((m) => textOf(m.content)).join("\n");
  const d = parseDirectives(model, prompt);
  const failWith = flakyStatus(d);
  // The turn that decides the answer: system turns (which may follow the user's) say nothing new.
  const last = messages.findLast((m) => m.role !== "system" && m.role !== "developer");
  const userText = stripMarkers(textOf([...messages].reverse().find((m) => m.role === "user")?.content));
  // A scripted call (`[[fake-call:NAME {…}]]`) of an offered tool comes before the default pick.
  const scripted = scriptedCall(prompt, offered);
  const tool = scripted ? { name: scripted.name, forced: false } : offeredTool;
  const args = scripted ? scripted.args : tool?.forced ? minimalInstance(tool.parameters ?? { type: "object" }, { text: userText, strict: tool.strict === true }) : { text: userText };
  const toolCall =
    tool && (tool.forced || last?.role === "user") ? { id: `call_${Date.now().toString(36)}`, type: "function" as const, function: { name: tool.name, arguments: JSON.stringify(args) } } : undefined;
  const reply = format
    ? structuredReply(format, userText)
    : last?.role === "tool"
      ? `Tool said: ${textOf(last.content)}`
      : d.words !== undefined
        ? Array.from({ length: d.words }, (_, i) => `w${i}`).join(" ")
        : replyFor(messages, d.reply);
  let words = reply.split(/\s+/).filter(Boolean);
  let finish = "stop";
  const reasoning = typeof limit === "number" && limit > 0 ? Math.min(d.reasoningTokens, limit) : d.reasoningTokens;
  if (typeof limit === "number" && limit > 0 && words.length > limit - reasoning) {
    words = words.slice(0, limit - reasoning);
    finish = "length";
  }
  if (toolCall) {
    finish = "tool_calls";
    words = [];
  }
  // Like OpenAI, the totals include their parts: cached prompt tokens, reasoning completion tokens.
  const completionTokens = (words.length + (toolCall ? countTokens(toolCall.function.arguments) : 0) + reasoning) * choices;
  const promptCount = promptTokens(messages, d);
  const cachedCount = d.promptCache ? prefixCacheRead(model, messages, d) : Math.min(d.cachedTokens, promptCount);
  return { d, failWith, toolCall, words, finish, reasoning, promptCount, cachedCount, completionTokens };
}

/** Each model name's cached prompts: the hash of a request's whole messages → its prompt tokens (bounded, oldest dropped). */
const promptCaches = new Map<string, Map<string, number>>();
const PROMPT_CACHE_ENTRIES = 10_000;

/**
 * The `promptcache` directive: the tokens of the longest earlier prompt (on this model name) that
 * this request's messages begin with, read from the cache; this request's prompt is cached next.
 */
function prefixCacheRead(model: string, messages: ChatMessage[], d: Directives): number {
  let cache = promptCaches.get(model);
  if (!cache) promptCaches.set(model, (cache = new Map()));
  const hashOf = (n: number) =>
    createHash("sha256")
      .update(JSON.stringify(messages.slice(0, n)))
      .digest("hex");
  let read = 0;
  for (let n = messages.length - 1; n > 0 && read === 0; n--) read = cache.get(hashOf(n)) ?? 0;
  if (cache.size >= PROMPT_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(hashOf(messages.length), promptTokens(messages, d));
  return read;
}

/** An error answer in OpenAI's shape, with Retry-After when the directives ask for it. */
export function failure(res: ServerResponse, d: Directives, status: number): void {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (d.retryAfterS !== undefined) headers["retry-after"] = String(d.retryAfterS);
  res.writeHead(status, headers).end(JSON.stringify({ error: { message: `fake upstream status ${status}`, type: "server_error", code: null } }));
}

/** The tool `tool_choice` forces (a named function, or the first one when "required"), else the first one offered; none for "none". */
function chatTool(body: ChatBody): ToolPick | undefined {
  const tc = body.tool_choice;
  if (tc === "none") return undefined;
  const named = typeof tc === "object" ? tc?.function?.name : undefined;
  const fn = (named === undefined ? body.tools?.[0] : body.tools?.find((t) => t.function?.name === named))?.function;
  if (!fn?.name) return undefined;
  return { name: fn.name, forced: named !== undefined || tc === "required", parameters: fn.parameters, strict: fn.strict === true };
}

function chatFormat(rf: ChatBody["response_format"]): ReplyFormat | undefined {
  if (rf?.type === "json_schema") return { type: "json_schema", schema: rf.json_schema?.schema ?? { type: "object" }, strict: rf.json_schema?.strict === true };
  if (rf?.type === "json_object") return { type: "json_object" };
  return undefined;
}

export async function handleChat(body: ChatBody, res: ServerResponse, _req: IncomingMessage): Promise<void> {
  const model = body.model ?? "";
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const choices = typeof body.n === "number" && body.n > 1 ? body.n : 1;
  const offered = (body.tools ?? []).map((t) => t.function?.name ?? "");
  const plan = planReply(model, messages, chatTool(body), body.max_completion_tokens ?? body.max_tokens, choices, chatFormat(body.response_format), offered);
  // Tool definitions are prompt too: a provider billing a token per byte bills every byte of them.
  if (plan.d.byteTokens && body.tools?.length) plan.promptCount += Buffer.byteLength(JSON.stringify(body.tools));
  const { d, toolCall, words, finish, reasoning, promptCount, completionTokens } = plan;
  if (d.delayMs > 0) await sleep(d.delayMs);
  if (res.destroyed) return;
  if (plan.failWith !== undefined && plan.failWith !== 200) return failure(res, d, plan.failWith);
  // A whole answer comes after the reasoning; a stream's first token does (below).
  if (!body.stream && reasoningMs(d, reasoning) > 0) await sleep(reasoningMs(d, reasoning));
  const content = words.join(" ");
  const details = {
    // Audio parts at `audio_tokens` each, as OpenAI reports them apart (priced above text).
    prompt_tokens_details: { cached_tokens: plan.cachedCount, audio_tokens: audioParts(messages) * d.audioTokens },
    completion_tokens_details: { reasoning_tokens: reasoning * choices, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
  const usage = d.emptyUsage ? {} : { prompt_tokens: promptCount, completion_tokens: completionTokens, total_tokens: promptCount + completionTokens, ...details };
  const id = `chatcmpl-fake${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);

  if (!body.stream) {
    if (d.malformed) {
      res.writeHead(200, { "content-type": "application/json" }).end('{"id": "broken", "choices": [');
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created,
        model,
        choices: Array.from({ length: choices }, (_, index) => ({
          index,
          message: toolCall ? { role: "assistant", content: null, tool_calls: [toolCall] } : { role: "assistant", content },
          finish_reason: finish,
          logprobs: null,
        })),
        ...(d.noUsage ? {} : { usage }),
        ...(d.serviceTier ? { service_tier: d.serviceTier } : {}),
      }),
    );
    return;
  }

  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  burst(res, d);
  const send = (obj: unknown) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: Array.from({ length: choices }, (_, index) => ({ index, delta, finish_reason: finishReason, logprobs: null })),
  });
  const textChunk = frameOf(chunk({ content: TEXT }, null), (json) => `data: ${json}\n\n`);
  // Chat completions never stream reasoning: the stream is quiet while the model thinks (its first chunk comes after).
  if (reasoningMs(d, reasoning) > 0) {
    await sleep(reasoningMs(d, reasoning));
    if (res.destroyed) return;
  }
  send(chunk({ role: "assistant", content: "" }, null));
  if (toolCall) {
    send(chunk({ tool_calls: [{ index: 0, id: toolCall.id, type: "function", function: { name: toolCall.function.name, arguments: "" } }] }, null));
    const args = toolCall.function.arguments;
    const mid = Math.floor(args.length / 2);
    for (const part of [args.slice(0, mid), args.slice(mid)]) send(chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }, null));
  }
  for (let i = 0; i < words.length; i++) {
    if (d.cutAfter !== undefined && i >= d.cutAfter) {
      await cut(res);
      return;
    }
    if (d.chunkDelayMs > 0) await sleep(d.chunkDelayMs);
    if (res.destroyed) return;
    if (d.streamErrorAfter !== undefined && i >= d.streamErrorAfter) {
      // OpenAI reports a failure mid-stream as a data chunk with an error object, then closes.
      res.end(`data: ${JSON.stringify({ error: { message: "The server had an error while processing your request.", type: "server_error", param: null, code: null } })}\n\n`);
      return;
    }
    if (d.malformed && i === 1) {
      res.write("data: {not json\n\n");
      continue;
    }
    res.write(textChunk(i === 0 ? words[i]! : ` ${words[i]}`));
  }
  if (d.cutAfter !== undefined && words.length <= d.cutAfter) {
    await cut(res);
    return;
  }
  send(chunk({}, finish));
  if (body.stream_options?.include_usage && !d.noUsage) {
    send({ id, object: "chat.completion.chunk", created, model, choices: [], usage, ...(d.serviceTier ? { service_tier: d.serviceTier } : {}) });
  }
  if (!d.noDone) res.write("data: [DONE]\n\n");
  res.end();
}
