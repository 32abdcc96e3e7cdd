import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { cut, failure, planReply, reasoningMs, sleep, type ChatMessage, type ReplyFormat, type ToolPick } from "./openai-chat.js";

type Json = Record<string, unknown>;

interface ResponsesBody {
  model?: string;
  input?: unknown;
  instructions?: string | null;
  stream?: boolean;
  max_output_tokens?: number | null;
  tools?: Array<{ type?: string; name?: string; parameters?: unknown; strict?: boolean | null }>;
  tool_choice?: "none" | "auto" | "required" | { type?: string; name?: string };
  text?: { format?: { type?: string; schema?: unknown; strict?: boolean | null } } | null;
  store?: boolean;
  previous_response_id?: string | null;
  reasoning?: { effort?: string | null; summary?: string | null } | null;
  max_tool_calls?: number | null;
  [k: string]: unknown;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** The input items as the chat messages the fake's echo logic reads (text only). */
function messagesOf(body: ResponsesBody): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (body.instructions) out.push({ role: "system", content: body.instructions });
  if (typeof body.input === "string") return [...out, { role: "user", content: body.input }];
  for (const item of (Array.isArray(body.input) ? body.input : []) as Json[]) {
    const type = item.type ?? "message";
    if (type === "message") {
      const content = Array.isArray(item.content) ? (item.content as Json[]).map((p) => ({ type: p.type === "input_image" ? "image_url" : "text", text: p.text })) : item.content;
      out.push({ role: String(item.role), content });
    } else if (type === "function_call_output") {
      // A string, or content parts (the model reads their text).
      const output = Array.isArray(item.output) ? (item.output as Json[]).map((p) => String(p.text ?? "")).join("") : item.output;
      out.push({ role: "tool", content: typeof output === "string" ? output : JSON.stringify(output) });
    } else if (type === "function_call") out.push({ role: "assistant", content: "" });
  }
  return out;
}

/**
 * The function `tool_choice` forces (by name, or the first when "required"), else the first one
 * offered; none for "none". Function tools are strict unless they say otherwise, as at OpenAI.
 */
function responsesTool(body: ResponsesBody): ToolPick | undefined {
  const tc = body.tool_choice;
  if (tc === "none") return undefined;
  const functions = (body.tools ?? []).filter((t) => t.type === "function");
  const named = typeof tc === "object" && tc?.type === "function" ? tc.name : undefined;
  const fn = named === undefined ? functions[0] : functions.find((t) => t.name === named);
  if (!fn?.name) return undefined;
  return { name: fn.name, forced: named !== undefined || tc === "required", parameters: fn.parameters, strict: fn.strict !== false };
}

function responsesFormat(body: ResponsesBody): ReplyFormat | undefined {
  const f = body.text?.format;
  if (f?.type === "json_schema") return { type: "json_schema", schema: f.schema ?? { type: "object" }, strict: f.strict === true };
  if (f?.type === "json_object") return { type: "json_object" };
  return undefined;
}

/**
 * OpenAI's Responses API, faked with the same deterministic answers as chat completions: the echo,
 * a call of the first function tool after a user turn (a forced one always, with arguments its
 * parameters allow), what the tool said after its output, JSON for a `text.format` schema, and the
 * directives (`reasoning=N` adds a reasoning item and reasoning tokens, `cached=N` cached input
 * tokens, `cut`, `status`, `malformed` …). Refuses `previous_response_id` and `store: true`, which
 * a gateway that keeps conversations itself must never send. Streams the documented event
 * sequence (providers/fixtures/openai-responses-stream.sse in the data-plane is a real one).
 */
export async function handleResponses(body: ResponsesBody, res: ServerResponse): Promise<void> {
  const model = body.model ?? "";
  if (body.previous_response_id || body.store !== false) {
    res
      .writeHead(400, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { message: "fake: the gateway must send store: false and no previous_response_id", type: "invalid_request_error", param: "store", code: null } }));
    return;
  }
  const offered = (body.tools ?? []).filter((t) => t.type === "function").map((t) => t.name ?? "");
  const plan = planReply(model, messagesOf(body), responsesTool(body), body.max_output_tokens ?? undefined, 1, responsesFormat(body), offered);
  const { d, toolCall, words, reasoning } = plan;
  if (d.delayMs > 0) await sleep(d.delayMs);
  if (res.destroyed) return;
  if (plan.failWith !== undefined && plan.failWith !== 200) return failure(res, d, plan.failWith);
  const responseId = id("resp");
  const createdAt = Math.floor(Date.now() / 1000);
  const usage = d.noUsage
    ? null
    : {
        input_tokens: plan.promptCount,
        input_tokens_details: { cached_tokens: plan.cachedCount },
        output_tokens: plan.completionTokens,
        output_tokens_details: { reasoning_tokens: reasoning },
        total_tokens: plan.promptCount + plan.completionTokens,
      };
  const truncated = plan.finish === "length";
  const shell = (status: string, output: Json[], u: Json | null): Json => ({
    id: responseId,
    object: "response",
    created_at: createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: null },
    store: false,
    temperature: 1,
    text: body.text ?? { format: { type: "text" } },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_p: 1,
    truncation: "disabled",
    usage: u,
    metadata: {},
  });
  const reasoningItem = reasoning > 0 ? { id: id("rs"), type: "reasoning", summary: [] } : undefined;
  const text = words.join(" ");
  const messageId = id("msg");
  const message = (t: string, status: string) => ({ id: messageId, type: "message", status, role: "assistant", content: [{ type: "output_text", text: t, annotations: [], logprobs: [] }] });
  const call = toolCall && { id: id("fc"), type: "function_call", status: "completed", arguments: toolCall.function.arguments, call_id: toolCall.id, name: toolCall.function.name };
  // The built-in web search runs up to twice (within max_tool_calls): each a web_search_call item, which OpenAI bills per call.
  const searching = (body.tools ?? []).some((t) => typeof t.type === "string" && t.type.startsWith("web_search"));
  const searchCount = searching ? Math.min(2, body.max_tool_calls ?? 2) : 0;
  const searches: Json[] = Array.from({ length: searchCount }, () => ({ id: id("ws"), type: "web_search_call", status: "completed", action: { type: "search", query: "fake query" } }));
  const output: Json[] = [...(reasoningItem ? [reasoningItem] : []), ...searches, ...(call ? [call] : [message(text, "completed")])];
  const final = shell(truncated ? "incomplete" : "completed", output, usage);

  if (!body.stream) {
    if (d.malformed) {
      res.writeHead(200, { "content-type": "application/json" }).end('{"id": "broken", "output": [');
      return;
    }
    if (reasoningMs(d, reasoning) > 0) await sleep(reasoningMs(d, reasoning));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(final));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  let seq = 0;
  const send = (type: string, data: Json) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  send("response.created", { response: shell("in_progress", [], null) });
  send("response.in_progress", { response: shell("in_progress", [], null) });
  let index = 0;
  if (reasoningItem) {
    send("response.output_item.added", { output_index: index, item: reasoningItem });
    // The reasoning item is open while the model thinks (its text is never streamed).
    if (reasoningMs(d, reasoning) > 0) {
      await sleep(reasoningMs(d, reasoning));
      if (res.destroyed) return;
    }
    send("response.output_item.done", { output_index: index, item: reasoningItem });
    index++;
  }
  for (const search of searches) {
    send("response.output_item.added", { output_index: index, item: { ...search, status: "in_progress" } });
    send("response.web_search_call.completed", { item_id: search.id, output_index: index });
    send("response.output_item.done", { output_index: index, item: search });
    index++;
  }
  if (call) {
    send("response.output_item.added", { output_index: index, item: { ...call, status: "in_progress", arguments: "" } });
    const mid = Math.floor(call.arguments.length / 2);
    for (const part of [call.arguments.slice(0, mid), call.arguments.slice(mid)]) send("response.function_call_arguments.delta", { item_id: call.id, output_index: index, delta: part });
    send("response.function_call_arguments.done", { item_id: call.id, output_index: index, arguments: call.arguments });
    send("response.output_item.done", { output_index: index, item: call });
  } else {
    send("response.output_item.added", { output_index: index, item: { ...message("", "in_progress"), content: [] } });
    send("response.content_part.added", { item_id: messageId, output_index: index, content_index: 0, part: { type: "output_text", text: "", annotations: [], logprobs: [] } });
    for (let i = 0; i < words.length; i++) {
      if (d.cutAfter !== undefined && i >= d.cutAfter) return cut(res);
      if (d.chunkDelayMs > 0) await sleep(d.chunkDelayMs);
      if (res.destroyed) return;
      if (d.malformed && i === 1) {
        res.write("event: response.output_text.delta\ndata: {not json\n\n");
        continue;
      }
      send("response.output_text.delta", { item_id: messageId, output_index: index, content_index: 0, delta: i === 0 ? words[i] : ` ${words[i]}`, logprobs: [] });
    }
    if (d.cutAfter !== undefined && words.length <= d.cutAfter) return cut(res);
    send("response.output_text.done", { item_id: messageId, output_index: index, content_index: 0, text, logprobs: [] });
    send("response.content_part.done", { item_id: messageId, output_index: index, content_index: 0, part: { type: "output_text", text, annotations: [], logprobs: [] } });
    send("response.output_item.done", { output_index: index, item: message(text, "completed") });
  }
  send(truncated ? "response.incomplete" : "response.completed", { response: final });
  res.end();
}
