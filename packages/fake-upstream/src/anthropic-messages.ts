import type { ServerResponse } from "node:http";
import { flakyStatus, parseDirectives, scriptedCall, stripMarkers } from "./directives.js";
import { burst, frameOf, TEXT } from "./openai-chat.js";
import { minimalInstance } from "./schema-object.js";
import { countTokens } from "./tokens.js";

interface Block {
  type?: string;
  text?: string;
  content?: unknown;
  tool_use_id?: string;
  cache_control?: unknown;
}
interface Msg {
  role?: string;
  content?: string | Block[];
}
export interface MessagesBody {
  model?: string;
  messages?: Msg[];
  system?: string | Block[];
  max_tokens?: number;
  stream?: boolean;
  tools?: Array<{ type?: string; name?: string; max_uses?: number; cache_control?: unknown; input_schema?: unknown; strict?: boolean }>;
  tool_choice?: { type?: string; name?: string };
  thinking?: { type?: string; budget_tokens?: number };
}

/** Prompt prefixes already cached, by their JSON (per fake instance). */
export type PromptCache = Set<string>;

/**
 * Prompt caching, faked deterministically: the prefix up to the last block carrying
 * `cache_control` (tools, then system, then messages) is written on first sight and read after.
 * Its size is the words of its text.
 */
function cacheUsage(body: MessagesBody, cache: PromptCache): { read: number; write: number } {
  const parts: unknown[] = [];
  let prefixEnd = -1;
  let words = 0;
  let prefixWords = 0;
  const visit = (part: unknown, text: string, marked: boolean) => {
    parts.push(part);
    words += countTokens(stripMarkers(text));
    if (marked) {
      prefixEnd = parts.length;
      prefixWords = words;
    }
  };
  for (const t of body.tools ?? []) visit(t, "", t.cache_control !== undefined);
  const system = typeof body.system === "string" ? [{ type: "text", text: body.system }] : (body.system ?? []);
  for (const b of system) visit(b, b.text ?? "", b.cache_control !== undefined);
  for (const m of body.messages ?? []) {
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content ?? []);
    for (const b of blocks) visit({ role: m.role, b }, textOf([b]), (b as Block).cache_control !== undefined);
  }
  if (prefixEnd < 0) return { read: 0, write: 0 };
  const key = JSON.stringify(parts.slice(0, prefixEnd));
  if (cache.has(key)) return { read: prefixWords, write: 0 };
  cache.add(key);
  if (cache.size > 1000) cache.delete(cache.values().next().value!);
  return { read: 0, write: prefixWords };
}

function systemText(system: MessagesBody["system"]): string {
  return typeof system === "string" ? system : textOf(system ?? []);
}

/** POST /v1/messages/count_tokens, faked: the words of the prompt, as the messages route counts them. */
export function handleAnthropicCountTokens(body: MessagesBody, res: ServerResponse): void {
  const input = (body.messages ?? []).reduce((n, m) => n + countTokens(stripMarkers(textOf(m.content))), countTokens(systemText(body.system)));
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ input_tokens: input }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * JSON as Anthropic streams a tool's input in its `input_json_delta`s: a space after each colon and
 * comma (`{"location": "San Francisco, CA"}`), where the JSON answer's `input` is an object a client
 * serializes as it likes (data-plane fixtures anthropic-stream-tool-use.sse, anthropic-stream-forced-tool.sse).
 */
export function streamedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(streamedJson).join(", ")}]`;
  if (v && typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${streamedJson(x)}`)
      .join(", ")}}`;
  return JSON.stringify(v) ?? "null";
}

function textOf(c: unknown): string {
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((b: Block) => (b.type === "text" ? (b.text ?? "") : b.type === "tool_result" ? textOf(b.content) : "")).join(" ");
  return "";
}

/**
 * The Anthropic Messages API, faked: echoes the last user turn, calls the first tool when offered
 * (or the one `tool_choice` forces, by name or `any`, with an input its `input_schema` allows; none
 * with `none`).
 * With `thinking: {type: "enabled"}` a thinking block (with a signature) comes first; with
 * `cache_control` on a block, cache writes and reads are reported (see cacheUsage).
 */
export async function handleAnthropic(body: MessagesBody, res: ServerResponse, cache: PromptCache = new Set()): Promise<void> {
  const messages = body.messages ?? [];
  const all = [systemText(body.system), ...messages.map((m) => textOf(m.content))].join("\n");
  const d = parseDirectives(body.model ?? "", all);
  if (d.delayMs) await sleep(d.delayMs);
  const failWith = flakyStatus(d);
  if (failWith !== undefined && failWith !== 200) {
    res
      .writeHead(failWith, { "content-type": "application/json" })
      .end(JSON.stringify({ type: "error", error: { type: failWith === 529 ? "overloaded_error" : "api_error", message: `fake upstream status ${failWith}` } }));
    return;
  }
  const last = messages.at(-1);
  const lastBlocks = Array.isArray(last?.content) ? last.content : [];
  const toolResult = lastBlocks.find((b) => b.type === "tool_result");
  // Server tools (typed: web_search_…, web_fetch_…) run at the provider; only client tools are called back.
  const clientTools = (body.tools ?? []).filter((t) => t.type === undefined || t.type === "custom");
  const choice = body.tool_choice?.type;
  const forced = choice === "tool" ? body.tools?.find((t) => t.name === body.tool_choice?.name) : choice === "any" ? clientTools[0] : undefined;
  const tool = choice === "none" ? undefined : (forced?.name ?? clientTools[0]?.name);
  // Web search runs up to twice (within max_uses) and is reported in usage.server_tool_use, as Anthropic bills it.
  const webSearch = body.tools?.find((t) => typeof t.type === "string" && t.type.startsWith("web_search_"));
  const searches = webSearch ? Math.min(2, webSearch.max_uses ?? 2) : 0;
  const userText = stripMarkers(textOf(last?.content));
  // A scripted call (`[[fake-call:NAME {…}]]`) of an offered client tool comes before the default pick.
  const scripted =
    choice === "none"
      ? undefined
      : scriptedCall(
          messages.map((m) => textOf(m.content)).join("\n"),
          clientTools.map((t) => t.name ?? ""),
        );
  const toolInput = scripted ? scripted.args : forced ? minimalInstance(forced.input_schema ?? { type: "object" }, { text: userText, strict: forced.strict === true }) : { text: userText };
  const toolName = scripted?.name ?? tool;
  const toolUse = toolName && (forced || !toolResult) ? { type: "tool_use", id: `toolu_${Date.now().toString(36)}`, name: toolName, input: toolInput } : undefined;
  const reply = toolResult ? `Tool said: ${textOf(toolResult.content)}` : d.words !== undefined ? Array.from({ length: d.words }, (_, i) => `w${i}`).join(" ") : `Echo: ${userText}`;
  let words = reply.split(/\s+/).filter(Boolean);
  let stop = toolUse ? "tool_use" : "end_turn";
  if (!toolUse && body.max_tokens && words.length > body.max_tokens) {
    words = words.slice(0, body.max_tokens);
    stop = "max_tokens";
  }
  const prompt = messages.reduce((n, m) => n + countTokens(stripMarkers(textOf(m.content))), countTokens(stripMarkers(systemText(body.system))));
  const cached = cacheUsage(body, cache);
  const input = prompt - cached.read - cached.write;
  const thinking = body.thinking?.type === "enabled" ? `Thinking about: ${userText}` : undefined;
  const signature = thinking ? `sig_${Buffer.from(thinking).toString("base64")}` : "";
  const output = (toolUse ? countTokens(JSON.stringify(toolUse.input)) : words.length) + (thinking ? countTokens(thinking) : 0);
  const usage = {
    input_tokens: input,
    output_tokens: output,
    cache_read_input_tokens: cached.read,
    cache_creation_input_tokens: cached.write,
    ...(searches ? { server_tool_use: { web_search_requests: searches } } : {}),
  };
  const id = `msg_fake${Date.now().toString(36)}`;
  // Each search as Anthropic answers it: the server tool's call, then its result.
  const searchBlocks = Array.from({ length: searches }, (_, i) => {
    const callId = `srvtoolu_fake${i}${Date.now().toString(36)}`;
    return [
      { type: "server_tool_use", id: callId, name: "web_search", input: { query: userText || "fake query" } },
      { type: "web_search_tool_result", tool_use_id: callId, content: [{ type: "web_search_result", url: "https://example.com/", title: "Example", encrypted_content: "e", page_age: null }] },
    ];
  });
  if (!body.stream) {
    if (d.malformed) {
      res.writeHead(200, { "content-type": "application/json" }).end('{"type": "message", "content": [');
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id,
        type: "message",
        role: "assistant",
        model: body.model,
        content: [...(thinking ? [{ type: "thinking", thinking, signature }] : []), ...searchBlocks.flat(), toolUse ?? { type: "text", text: words.join(" ") }],
        stop_reason: stop,
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  burst(res, d);
  const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send("message_start", { message: { id, type: "message", role: "assistant", model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  send("ping", {});
  // With thinking on, the thinking block is index 0; then each search's two blocks; then the answer.
  const at = (thinking ? 1 : 0) + searchBlocks.length * 2;
  if (thinking) {
    send("content_block_start", { index: 0, content_block: { type: "thinking", thinking: "", signature: "" } });
    const cut = thinking.indexOf(" ") + 1;
    send("content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: thinking.slice(0, cut) } });
    send("content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: thinking.slice(cut) } });
    send("content_block_delta", { index: 0, delta: { type: "signature_delta", signature } });
    send("content_block_stop", { index: 0 });
  }
  searchBlocks.forEach(([call, result], i) => {
    const index = (thinking ? 1 : 0) + i * 2;
    send("content_block_start", { index, content_block: { ...call, input: {} } });
    send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: streamedJson(call!.input) } });
    send("content_block_stop", { index });
    send("content_block_start", { index: index + 1, content_block: result });
    send("content_block_stop", { index: index + 1 });
  });
  if (toolUse) {
    send("content_block_start", { index: at, content_block: { ...toolUse, input: {} } });
    const json = streamedJson(toolUse.input);
    send("content_block_delta", { index: at, delta: { type: "input_json_delta", partial_json: json.slice(0, 5) } });
    send("content_block_delta", { index: at, delta: { type: "input_json_delta", partial_json: json.slice(5) } });
  } else {
    send("content_block_start", { index: at, content_block: { type: "text", text: "" } });
    const textDelta = frameOf({ type: "content_block_delta", index: at, delta: { type: "text_delta", text: TEXT } }, (json) => `event: content_block_delta\ndata: ${json}\n\n`);
    for (let i = 0; i < words.length; i++) {
      if (d.cutAfter !== undefined && i >= d.cutAfter) {
        await sleep(20);
        res.socket?.destroy();
        return;
      }
      if (d.chunkDelayMs > 0) await sleep(d.chunkDelayMs);
      if (res.destroyed) return;
      if (d.streamErrorAfter !== undefined && i >= d.streamErrorAfter) {
        // Anthropic's mid-stream failure: an error event (its documented overloaded_error), then the end.
        send("error", { error: { type: "overloaded_error", message: "Overloaded" } });
        res.end();
        return;
      }
      res.write(textDelta(i === 0 ? words[i]! : ` ${words[i]}`));
    }
  }
  send("content_block_stop", { index: at });
  if (d.noUsage) {
    // A provider that reports no final usage: the gateway must count what it delivered.
    send("message_delta", { delta: { stop_reason: stop, stop_sequence: null } });
    send("message_stop", {});
    res.end();
    return;
  }
  send("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: output, ...(searches ? { server_tool_use: { web_search_requests: searches } } : {}) } });
  send("message_stop", {});
  res.end();
}
