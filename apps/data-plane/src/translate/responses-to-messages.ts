import type { MessagesRequestBody, NormalizedUsage } from "../providers/types.js";
import { DEFAULT_MAX_TOKENS, forceStructured, structuredOutputTool } from "../providers/anthropic/chat.js";
import { callName, chatResponseFormat, functionTools, toolOutputText } from "./responses.js";
import { callItem, messageItem, newId, reasoningItem, responsesUsage, searchItem, shell, searchQuery, type ResponseEcho, type ResponsesStreamWriter } from "./responses-output.js";
import { invalidParam } from "@gateway/errors";
import { isObject, type Json } from "../providers/types.js";

/**
 * OpenAI Responses API ⇄ Anthropic Messages API directly (not through the chat shape), for Anthropic
 * deployments: instructions and system turns become `system`, items become content blocks
 * (function calls `tool_use`, their outputs `tool_result`), `reasoning.effort` becomes extended
 * thinking, `text.format` the forced answer tool; thinking comes back as reasoning items whose
 * `encrypted_content` carries the block's signature, so a client that sends them back (as stateless
 * agents do) gives Claude its thinking again.
 */

/** Marks a reasoning item's encrypted_content as an Anthropic thinking block the gateway encoded. */
export const THINKING_STATE = "gwthink.";

/** Thinking budgets for `reasoning.effort` (Anthropic's minimum is 1024; at most half of max_tokens). */
const EFFORT_BUDGET: Record<string, number> = { low: 1024, medium: 4096, high: 16384 };

type ThinkingState = { s: string } | { r: string };
const encodeThinking = (state: ThinkingState) => THINKING_STATE + Buffer.from(JSON.stringify(state)).toString("base64url");

function decodeThinking(encrypted: unknown): ThinkingState | undefined {
  if (typeof encrypted !== "string" || !encrypted.startsWith(THINKING_STATE)) return undefined;
  try {
    const v = JSON.parse(Buffer.from(encrypted.slice(THINKING_STATE.length), "base64url").toString()) as unknown;
    if (isObject(v) && (typeof v.s === "string" || typeof v.r === "string")) return v as ThinkingState;
  } catch {
    // not ours after all
  }
  return undefined;
}

/** An input content part as a Messages content block. */
function block(p: Json, at: string): Json {
  if (p.type === "input_text" || p.type === "output_text" || p.type === "text") return { type: "text", text: String(p.text ?? "") };
  if (p.type === "input_image" && typeof p.image_url === "string") {
    const m = /^data:([^;]+);base64,(.*)$/.exec(p.image_url);
    return m ? { type: "image", source: { type: "base64", media_type: m[1], data: m[2] } } : { type: "image", source: { type: "url", url: p.image_url } };
  }
  throw invalidParam(at, `'${at}.type' '${String(p.type)}' is not supported (input_text, input_image).`);
}

const blocks = (content: unknown, at: string): Json[] =>
  typeof content === "string" ? (content ? [{ type: "text", text: content }] : []) : Array.isArray(content) ? content.map((p, i) => block(p as Json, `${at}[${i}]`)) : [];

/**
 * A Responses request (already checked by responsesToChat) as a Messages request, and the name of
 * the tool that carries a structured answer (its input is the answer's text). `catalogMaxOutput`
 * is the model's output limit in the catalog, `max_tokens` when the request sets none. Namespace
 * tools go flattened; the web search tool becomes Anthropic's web search server tool with
 * `webSearches` as its `max_uses` (0: the model has no price per search, and the tool is left out).
 */
export function responsesToMessages(raw: Json, catalogMaxOutput = 0, webSearches = 0): { body: MessagesRequestBody; structured: string | undefined } {
  const system: string[] = typeof raw.instructions === "string" && raw.instructions ? [raw.instructions] : [];
  const messages: Array<{ role: string; content: Json[] }> = [];
  // The Messages API wants alternating turns: consecutive same-role blocks share a turn.
  const push = (role: string, content: Json[]) => {
    if (content.length === 0) return;
    const last = messages.at(-1);
    if (last && last.role === role) last.content.push(...content);
    else messages.push({ role, content });
  };
  const items: Json[] = typeof raw.input === "string" ? [{ type: "message", role: "user", content: raw.input }] : (raw.input as Json[]);
  items.forEach((item, i) => {
    const at = `input[${i}]`;
    switch (item.type ?? "message") {
      case "message":
        if (item.role === "system" || item.role === "developer")
          system.push(
            blocks(item.content, `${at}.content`)
              .map((b) => String(b.text ?? ""))
              .join("\n"),
          );
        else push(item.role === "assistant" ? "assistant" : "user", blocks(item.content, `${at}.content`));
        break;
      case "function_call": {
        let input: unknown;
        try {
          input = JSON.parse(typeof item.arguments === "string" && item.arguments ? item.arguments : "{}");
        } catch {
          throw invalidParam(`${at}.arguments`, `'${at}.arguments' must be JSON.`);
        }
        push("assistant", [{ type: "tool_use", id: item.call_id, name: callName(item), input }]);
        break;
      }
      case "function_call_output":
        push("user", [{ type: "tool_result", tool_use_id: item.call_id, content: toolOutputText(item.output, `${at}.output`) }]);
        break;
      case "reasoning": {
        // Thinking this gateway returned earlier goes back to Claude; other providers' reasoning cannot.
        const state = decodeThinking(item.encrypted_content);
        if (!state) break;
        const summary = (Array.isArray(item.summary) ? item.summary : []) as Json[];
        push("assistant", ["r" in state ? { type: "redacted_thinking", data: state.r } : { type: "thinking", thinking: summary.map((s) => String(s.text ?? "")).join(""), signature: state.s }]);
        break;
      }
      default:
        break;
    }
  });
  // Absent: the catalog's limit (what the hold covered), so Claude never writes past it.
  const maxTokens = typeof raw.max_output_tokens === "number" ? raw.max_output_tokens : catalogMaxOutput > 0 ? catalogMaxOutput : DEFAULT_MAX_TOKENS;
  const out: MessagesRequestBody = { model: raw.model as string, messages, max_tokens: maxTokens };
  if (system.length) out.system = system.join("\n");
  if (raw.stream === true) out.stream = true;
  if (typeof raw.user === "string") out.metadata = { user_id: raw.user };
  const tools: Json[] = (functionTools(raw.tools) ?? []).map((t) => ({
    name: t.name,
    ...(typeof t.description === "string" ? { description: t.description } : {}),
    input_schema: t.parameters ?? { type: "object", properties: {} },
  }));
  if (webSearches > 0) tools.push({ type: "web_search_20250305", name: "web_search", max_uses: webSearches });
  if (tools.length) out.tools = tools;
  const tc = raw.tool_choice;
  if (tc === "auto") out.tool_choice = { type: "auto" };
  else if (tc === "required") out.tool_choice = { type: "any" };
  else if (tc === "none") out.tool_choice = { type: "none" };
  else if (isObject(tc) && typeof tc.name === "string") out.tool_choice = { type: "tool", name: callName(tc) };
  const structured = structuredOutputTool({ model: out.model, messages: [], response_format: chatResponseFormat(raw.text) });
  if (structured) forceStructured(out, structured, tc !== undefined && tc !== null && tc !== "auto", "text.format.name");
  if (raw.parallel_tool_calls === false && out.tools) out.tool_choice = { ...((out.tool_choice as object) ?? { type: "auto" }), disable_parallel_tool_use: true };
  // Extended thinking, unless a tool is forced (Claude cannot think then) or the limit leaves no room.
  const effort = isObject(raw.reasoning) && typeof raw.reasoning.effort === "string" ? EFFORT_BUDGET[raw.reasoning.effort] : undefined;
  const forced = (out.tool_choice as { type?: string } | undefined)?.type;
  const budget = effort === undefined ? 0 : Math.min(effort, Math.floor(maxTokens / 2));
  if (budget >= 1024 && forced !== "any" && forced !== "tool") out.thinking = { type: "enabled", budget_tokens: budget };
  else for (const f of ["temperature", "top_p"] as const) if (typeof raw[f] === "number") out[f] = raw[f];
  return { body: out, structured: structured?.name };
}

/** A Messages answer as a Response object: thinking as reasoning items, text as one message, tool uses as calls. */
export function messageToResponse(message: Json, usage: NormalizedUsage | undefined, e: ResponseEcho, structured: string | undefined): Json {
  const output: Json[] = [];
  let text: Json | undefined;
  const addText = (t: string) => {
    if (!text) output.push((text = messageItem(newId("msg"), "", "completed")));
    ((text.content as Json[])[0] as Json).text += t;
  };
  for (const b of (Array.isArray(message.content) ? message.content : []) as Json[]) {
    if (b.type === "thinking") output.push(reasoningItem(newId("rs"), String(b.thinking ?? ""), encodeThinking({ s: String(b.signature ?? "") })));
    else if (b.type === "redacted_thinking") output.push(reasoningItem(newId("rs"), "", encodeThinking({ r: String(b.data ?? "") })));
    else if (b.type === "text") addText(String(b.text ?? ""));
    else if (b.type === "tool_use" && b.name === structured) addText(JSON.stringify(b.input ?? {}));
    else if (b.type === "server_tool_use" && b.name === "web_search") output.push(searchItem(newId("ws"), searchQuery(JSON.stringify(b.input ?? {})), "completed"));
    else if (b.type === "tool_use") output.push(callItem(newId("fc"), String(b.id), String(b.name ?? ""), JSON.stringify(b.input ?? {}), "completed", e.names));
  }
  const truncated = message.stop_reason === "max_tokens";
  return shell(e, truncated ? "incomplete" : "completed", output, responsesUsage(usage), truncated ? { reason: "max_output_tokens" } : undefined);
}

/** Feeds a Messages stream's events to a Responses stream writer. */
export function messagesStreamToResponses(w: ResponsesStreamWriter, structured: string | undefined): (ev: Json | undefined) => string {
  const answerBlocks = new Set<unknown>();
  return (ev) => {
    if (!ev) return "";
    const index = ev.index as number;
    switch (ev.type) {
      case "content_block_start": {
        const b = (ev.content_block ?? {}) as Json;
        if (b.type === "thinking") return w.reasoning(index, String(b.thinking ?? ""));
        if (b.type === "redacted_thinking") return w.reasoning(index, "", encodeThinking({ r: String(b.data ?? "") }));
        if (b.type === "text") return w.text(String(b.text ?? ""));
        if (b.type === "tool_use" && b.name === structured) {
          answerBlocks.add(index);
          return "";
        }
        if (b.type === "tool_use") return w.call(index, String(b.id), String(b.name ?? ""));
        if (b.type === "server_tool_use" && b.name === "web_search") return w.search(index);
        return "";
      }
      case "content_block_delta": {
        const d = (ev.delta ?? {}) as Json;
        if (d.type === "text_delta") return w.text(String(d.text ?? ""));
        if (d.type === "thinking_delta") return w.reasoning(index, String(d.thinking ?? ""));
        if (d.type === "signature_delta") return w.reasoning(index, "", encodeThinking({ s: String(d.signature ?? "") }));
        if (d.type === "input_json_delta") return answerBlocks.has(index) ? w.text(String(d.partial_json ?? "")) : w.args(index, String(d.partial_json ?? ""));
        return "";
      }
      case "message_delta":
        w.finished((ev.delta as Json | undefined)?.stop_reason === "max_tokens");
        return "";
      default:
        return "";
    }
  };
}
