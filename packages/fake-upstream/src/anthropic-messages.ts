import type { ServerResponse } from "node:http";
import { flakyStatus, parseDirectives, stripMarkers } from "./directives.js";
import { countTokens } from "./tokens.js";

interface Block { type?: string; text?: string; content?: unknown; tool_use_id?: string }
interface Msg { role?: string; content?: string | Block[] }
interface MessagesBody {
  model?: string;
  messages?: Msg[];
  system?: string;
  max_tokens?: number;
  stream?: boolean;
  tools?: Array<{ name?: string }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function textOf(c: unknown): string {
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((b: Block) => (b.type === "text" ? (b.text ?? "") : b.type === "tool_result" ? textOf(b.content) : "")).join(" ");
  return "";
}

/** The Anthropic Messages API, faked: echoes the last user turn, calls the first tool when offered. */
export async function handleAnthropic(body: MessagesBody, res: ServerResponse): Promise<void> {
  const messages = body.messages ?? [];
  const all = [body.system ?? "", ...messages.map((m) => textOf(m.content))].join("\n");
  const d = parseDirectives(body.model ?? "", all);
  if (d.delayMs) await sleep(d.delayMs);
  const failWith = flakyStatus(d);
  if (failWith !== undefined && failWith !== 200) {
    res.writeHead(failWith, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: failWith === 529 ? "overloaded_error" : "api_error", message: `fake upstream status ${failWith}` } }));
    return;
  }
  const last = messages.at(-1);
  const lastBlocks = Array.isArray(last?.content) ? last.content : [];
  const toolResult = lastBlocks.find((b) => b.type === "tool_result");
  const tool = body.tools?.[0]?.name;
  const userText = stripMarkers(textOf(last?.content));
  const toolUse = tool && !toolResult ? { type: "tool_use", id: `toolu_${Date.now().toString(36)}`, name: tool, input: { text: userText } } : undefined;
  let words = (toolResult ? `Tool said: ${textOf(toolResult.content)}` : `Echo: ${userText}`).split(/\s+/).filter(Boolean);
  let stop = toolUse ? "tool_use" : "end_turn";
  if (!toolUse && body.max_tokens && words.length > body.max_tokens) {
    words = words.slice(0, body.max_tokens);
    stop = "max_tokens";
  }
  const input = messages.reduce((n, m) => n + countTokens(stripMarkers(textOf(m.content))), countTokens(body.system ?? ""));
  const output = toolUse ? countTokens(JSON.stringify(toolUse.input)) : words.length;
  const id = `msg_fake${Date.now().toString(36)}`;
  if (!body.stream) {
    if (d.malformed) {
      res.writeHead(200, { "content-type": "application/json" }).end('{"type": "message", "content": [');
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id, type: "message", role: "assistant", model: body.model,
        content: toolUse ? [toolUse] : [{ type: "text", text: words.join(" ") }],
        stop_reason: stop, stop_sequence: null,
        usage: { input_tokens: input, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send("message_start", { message: { id, type: "message", role: "assistant", model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: input, output_tokens: 1 } } });
  send("ping", {});
  if (toolUse) {
    send("content_block_start", { index: 0, content_block: { ...toolUse, input: {} } });
    const json = JSON.stringify(toolUse.input);
    send("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: json.slice(0, 5) } });
    send("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: json.slice(5) } });
  } else {
    send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    for (let i = 0; i < words.length; i++) {
      if (d.cutAfter !== undefined && i >= d.cutAfter) {
        await sleep(20);
        res.socket?.destroy();
        return;
      }
      send("content_block_delta", { index: 0, delta: { type: "text_delta", text: i === 0 ? words[i] : ` ${words[i]}` } });
    }
  }
  send("content_block_stop", { index: 0 });
  if (d.noUsage) {
    // A provider that reports no final usage: the gateway must count what it delivered.
    send("message_delta", { delta: { stop_reason: stop, stop_sequence: null } });
    send("message_stop", {});
    res.end();
    return;
  }
  send("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: output } });
  send("message_stop", {});
  res.end();
}
