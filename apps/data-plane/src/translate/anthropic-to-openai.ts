import { createHash } from "node:crypto";
import type { ChatRequestBody } from "../providers/types.js";
import { invalidParam } from "@gateway/errors";

/**
 * Anthropic Messages request → OpenAI chat-completions request, for reaching OpenAI-shaped
 * providers through /v1/messages. Every field maps, is refused with a 400 naming it (when its
 * absence would change the answer or the bill), or is left out and named in
 * `x-gateway-dropped-params` (when it only tunes how Anthropic serves the request): nothing is
 * dropped silently.
 */

interface Block {
  type?: unknown;
  text?: unknown;
  source?: { type?: unknown; media_type?: unknown; data?: unknown; url?: unknown };
  id?: unknown;
  name?: unknown;
  input?: unknown;
  tool_use_id?: unknown;
  content?: unknown;
  is_error?: unknown;
}

function blocks(content: unknown, where: string): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) throw invalidParam(where, `'${where}' must be a string or an array of content blocks.`);
  return content as Block[];
}

function imagePart(b: Block, where: string): Record<string, unknown> {
  const s = b.source;
  if (s?.type === "base64" && typeof s.media_type === "string" && typeof s.data === "string") {
    return { type: "image_url", image_url: { url: `data:${s.media_type};base64,${s.data}` } };
  }
  if (s?.type === "url" && typeof s.url === "string") return { type: "image_url", image_url: { url: s.url } };
  throw invalidParam(`${where}.source`, `'${where}.source' must be a base64 or url image source.`);
}

function toolResultText(content: unknown, where: string): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return blocks(content, where)
    .map((b, i) => {
      if (b.type === "text" && typeof b.text === "string") return b.text;
      throw invalidParam(`${where}[${i}]`, `Only text is supported inside tool_result content when the model's provider speaks the OpenAI shape.`);
    })
    .join("\n");
}

const UNSUPPORTED = ["top_k", "container", "mcp_servers", "service_tier"] as const;

/**
 * Fields that tune how Anthropic serves the request and mean nothing elsewhere, left out with a
 * header: `context_management` (Anthropic clears old thinking or tool results server-side; without
 * it the model reads the whole conversation, as the client sent it).
 */
const DROPPED = ["context_management"] as const;

/** OpenAI's `user` takes at most 64 characters; a longer id (Claude Code's is JSON) goes as its digest, stable per user. */
const userId = (id: string) => (id.length <= 64 ? id : createHash("sha256").update(id).digest("base64url"));

/** How a Messages body meets a chat-completions deployment: whether its model reasons, and what was left out. */
export interface ThroughChat {
  /** The model takes `reasoning_effort` (an OpenAI reasoning model, Gemini): `thinking` maps to it. */
  reasons: boolean;
  /** Request features left out for this provider (said in `x-gateway-dropped-params`). */
  dropped: string[];
}

/**
 * Anthropic's thinking as OpenAI's reasoning effort: a budget under 4,096 tokens is low, under
 * 16,384 medium, above high; adaptive thinking is medium. Disabled thinking asks for nothing.
 */
function reasoningEffort(thinking: unknown, effort: unknown): "low" | "medium" | "high" | undefined {
  const t = thinking as { type?: unknown; budget_tokens?: unknown } | null;
  if (!t || typeof t !== "object" || t.type === "disabled") return undefined;
  // Adaptive thinking follows `output_config.effort` (Claude Code sends high); max is OpenAI's high.
  if (t.type === "adaptive") return effort === "low" || effort === "medium" || effort === "high" ? effort : effort === "max" ? "high" : "medium";
  if (t.type !== "enabled") throw invalidParam("thinking.type", "'thinking.type' must be 'enabled', 'adaptive' or 'disabled'.");
  const budget = typeof t.budget_tokens === "number" ? t.budget_tokens : 0;
  return budget < 4_096 ? "low" : budget < 16_384 ? "medium" : "high";
}

function systemText(content: unknown, where: string): string {
  return blocks(content, where)
    .map((b, i) => {
      if (b.type !== "text" || typeof b.text !== "string") throw invalidParam(`${where}[${i}]`, `'${where}' blocks must be text.`);
      return b.text;
    })
    .join("\n");
}

/** Anthropic's `output_config.format` (structured output) as the chat `response_format`. */
function responseFormat(format: unknown): Record<string, unknown> | undefined {
  if (format === undefined || format === null) return undefined;
  const f = format as { type?: unknown; schema?: unknown };
  if (f.type !== "json_schema" || typeof f.schema !== "object" || f.schema === null) throw invalidParam("output_config.format", "'output_config.format' must be {type: 'json_schema', schema}.");
  return { type: "json_schema", json_schema: { name: "output", schema: f.schema, strict: true } };
}

export function anthropicToOpenAI(body: Record<string, unknown>, through: ThroughChat = { reasons: false, dropped: [] }): ChatRequestBody {
  for (const f of UNSUPPORTED) {
    if (body[f] !== undefined && body[f] !== null) throw invalidParam(f, `'${f}' has no equivalent on this model's provider and is not supported through /v1/messages for it.`);
  }
  const drop = (f: string) => {
    if (!through.dropped.includes(f)) through.dropped.push(f);
  };
  for (const f of DROPPED) if (body[f] !== undefined && body[f] !== null) drop(f);
  const config = (body.output_config ?? {}) as { effort?: unknown; format?: unknown };
  if (typeof config !== "object" || Array.isArray(config)) throw invalidParam("output_config", "'output_config' must be an object.");
  const messages: Array<Record<string, unknown>> = [];
  if (body.system !== undefined) messages.push({ role: "system", content: systemText(body.system, "system") });
  const input = body.messages as Array<{ role?: unknown; content?: unknown }>;
  input.forEach((m, i) => {
    const where = `messages[${i}].content`;
    if (m.role === "system") {
      // A system turn inside the conversation (Claude Code sends its environment so): a chat system message where it stands.
      messages.push({ role: "system", content: systemText(m.content, where) });
      return;
    }
    if (m.role !== "user" && m.role !== "assistant") throw invalidParam(`messages[${i}].role`, `'messages[${i}].role' must be 'user', 'assistant' or 'system'.`);
    const parts: Array<Record<string, unknown>> = [];
    const toolCalls: Array<Record<string, unknown>> = [];
    const toolResults: Array<Record<string, unknown>> = [];
    blocks(m.content, where).forEach((b, j) => {
      const at = `${where}[${j}]`;
      switch (b.type) {
        case "text":
          if (typeof b.text !== "string") throw invalidParam(`${at}.text`, `'${at}.text' must be a string.`);
          parts.push({ type: "text", text: b.text });
          break;
        case "image":
          if (m.role !== "user") throw invalidParam(at, "Images are only supported in user messages.");
          parts.push(imagePart(b, at));
          break;
        case "tool_use":
          if (m.role !== "assistant" || typeof b.id !== "string" || typeof b.name !== "string") throw invalidParam(at, `'${at}' must be an assistant tool_use with id and name.`);
          toolCalls.push({ id: b.id, type: "function", function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } });
          break;
        case "thinking":
        case "redacted_thinking":
          // An earlier turn's reasoning, signed for Claude: no chat-completions model reads it (Claude
          // itself ignores earlier turns' thinking), so it is left out.
          if (!through.dropped.includes("thinking")) through.dropped.push("thinking");
          break;
        case "tool_result":
          if (m.role !== "user" || typeof b.tool_use_id !== "string") throw invalidParam(at, `'${at}' must be a user tool_result with tool_use_id.`);
          toolResults.push({ role: "tool", tool_call_id: b.tool_use_id, content: (b.is_error === true ? "Error: " : "") + toolResultText(b.content, `${at}.content`) });
          break;
        default:
          throw invalidParam(`${at}.type`, `Content block type '${String(b.type)}' is not supported for this model's provider.`);
      }
    });
    // Tool results answer the previous assistant turn: they come first, as OpenAI tool messages.
    messages.push(...toolResults);
    if (m.role === "assistant") {
      const text = parts.map((p) => String(p.text ?? "")).join("");
      if (text || toolCalls.length) messages.push({ role: "assistant", content: text || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) });
    } else if (parts.length) {
      const onlyText = parts.every((p) => p.type === "text");
      messages.push({ role: "user", content: onlyText ? parts.map((p) => p.text).join("") : parts });
    }
  });

  const out: ChatRequestBody = { model: String(body.model), messages, max_tokens: body.max_tokens as number };
  const effort = reasoningEffort(body.thinking, config.effort);
  if (effort && through.reasons) out.reasoning_effort = effort;
  else if (effort) drop("thinking");
  // Effort without thinking tunes Claude's thoroughness: a reasoning model's effort, else nothing to send.
  if (config.effort !== undefined && !effort) {
    if (through.reasons && (config.effort === "low" || config.effort === "medium" || config.effort === "high")) out.reasoning_effort = config.effort;
    else drop("output_config.effort");
  }
  const format = responseFormat(config.format);
  if (format) out.response_format = format;
  if (body.stream === true) out.stream = true;
  if (body.temperature !== undefined) out.temperature = body.temperature;
  if (body.top_p !== undefined) out.top_p = body.top_p;
  if (body.stop_sequences !== undefined) out.stop = body.stop_sequences;
  const meta = body.metadata as { user_id?: unknown } | undefined;
  if (meta && typeof meta.user_id === "string") out.user = userId(meta.user_id);
  if (Array.isArray(body.tools)) {
    const tools = (body.tools as Array<{ name?: unknown; description?: unknown; input_schema?: unknown; type?: unknown }>).flatMap((t, i) => {
      // Anthropic's web search and fetch run at Anthropic: elsewhere the model answers without them (as on /v1/responses).
      const serverTool = typeof t.type === "string" ? /^(web_search|web_fetch)_/.exec(t.type) : null;
      if (serverTool) {
        drop(serverTool[1]!);
        return [];
      }
      if (t.type !== undefined && t.type !== "custom") throw invalidParam(`tools[${i}].type`, `Server tool '${String(t.type)}' is not available for this model's provider.`);
      if (typeof t.name !== "string") throw invalidParam(`tools[${i}].name`, `'tools[${i}].name' is required.`);
      return [{ type: "function", function: { name: t.name, ...(typeof t.description === "string" ? { description: t.description } : {}), parameters: t.input_schema ?? { type: "object" } } }];
    });
    if (tools.length) out.tools = tools;
  }
  const tc = body.tool_choice as { type?: unknown; name?: unknown; disable_parallel_tool_use?: unknown } | undefined;
  if (tc && out.tools) {
    if (tc.type === "auto") out.tool_choice = "auto";
    else if (tc.type === "any") out.tool_choice = "required";
    else if (tc.type === "none") out.tool_choice = "none";
    else if (tc.type === "tool" && typeof tc.name === "string") out.tool_choice = { type: "function", function: { name: tc.name } };
    else throw invalidParam("tool_choice", "'tool_choice' must be auto, any, none or tool with a name.");
    if (tc.disable_parallel_tool_use === true) out.parallel_tool_calls = false;
  }
  return out;
}
