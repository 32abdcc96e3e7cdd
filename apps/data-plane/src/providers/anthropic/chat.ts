import { GatewayError, invalidParam } from "@gateway/errors";
import { parseStreamEvent } from "../sse.js";
import { chatCompletionUsage, jsonStringBody, mapOpenAIError } from "../openai-compatible/chat.js";
import { announcing, type ChatAdapter, type ChatRequestBody, type NormalizedUsage, type ParsedChatResponse, type ParsedStreamEvent, type StreamCollector, type UpstreamTarget } from "../types.js";
import { blockPhase, messagesCollector, messagesStreamUsage, normalize, type AnthropicUsage, type MessagesStreamEvent } from "./messages-stream.js";

/**
 * Anthropic Messages API as a chat provider: OpenAI-shaped requests are translated to the
 * Messages shape (system, content blocks, tool_use / tool_result, stop sequences), answers and
 * stream events back to chat completions. Fields without an equivalent are refused with a 400.
 */
export const ANTHROPIC_VERSION = "2023-06-01";
export const DEFAULT_MAX_TOKENS = 4096;

interface OAIMessage {
  role?: string;
  content?: unknown;
  tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
}

function contentBlocks(content: unknown, where: string): Array<Record<string, unknown>> {
  if (content === null || content === undefined) return [];
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  if (!Array.isArray(content)) throw invalidParam(where, `'${where}' must be a string or an array of parts.`);
  return content.map((p: { type?: unknown; text?: unknown; image_url?: { url?: unknown } }, i) => {
    if (p.type === "text" && typeof p.text === "string") return { type: "text", text: p.text };
    if (p.type === "image_url" && typeof p.image_url?.url === "string") {
      const m = /^data:([^;]+);base64,(.*)$/.exec(p.image_url.url);
      return m ? { type: "image", source: { type: "base64", media_type: m[1], data: m[2] } } : { type: "image", source: { type: "url", url: p.image_url.url } };
    }
    throw invalidParam(`${where}[${i}]`, `Part type '${String(p.type)}' has no equivalent for this model's provider.`);
  });
}

const UNSUPPORTED = ["n", "logprobs", "top_logprobs", "presence_penalty", "frequency_penalty", "logit_bias", "seed", "audio", "modalities", "prediction"] as const;

/** The tool that carries a structured answer (see structuredOutputTool). */
export interface StructuredTool {
  name: string;
  description?: string;
  input_schema: unknown;
}

/**
 * `response_format` as Anthropic's native mechanism for structured answers, which every Claude
 * model has: one tool whose `input_schema` is the caller's schema, forced with `tool_choice`; its
 * `tool_use` input is the answer, returned as the message content. `json_object` is the same with a
 * schema-less object. Undefined for `text` or no response_format. Pure in the request, so the
 * answer and stream parsers recompute it to know which tool_use block is the answer.
 */
export function structuredOutputTool(body: ChatRequestBody): StructuredTool | undefined {
  const rf = body.response_format as { type?: unknown; json_schema?: { name?: unknown; description?: unknown; schema?: unknown } } | null | undefined;
  if (rf === undefined || rf === null || rf.type === "text") return undefined;
  if (rf.type === "json_object") return { name: "json_object", description: "Respond with a JSON object.", input_schema: { type: "object" } };
  if (rf.type !== "json_schema") throw invalidParam("response_format.type", `response_format type '${String(rf.type)}' has no equivalent for this model's provider.`);
  const js = rf.json_schema;
  if (typeof js?.name !== "string" || !js.name) throw invalidParam("response_format.json_schema.name", "'response_format.json_schema.name' is required.");
  return { name: js.name, description: typeof js.description === "string" ? js.description : `Respond with the ${js.name} object.`, input_schema: js.schema ?? { type: "object" } };
}

export function openAIToAnthropic(body: ChatRequestBody, upstreamModel: string): Record<string, unknown> {
  for (const f of UNSUPPORTED) {
    const v = body[f];
    if (v === undefined || v === null || (f === "n" && v === 1)) continue;
    throw invalidParam(f, `'${f}' has no equivalent for this model's provider.`);
  }
  const system: string[] = [];
  const messages: Array<{ role: string; content: Array<Record<string, unknown>> }> = [];
  const push = (role: string, blocks: Array<Record<string, unknown>>) => {
    const last = messages.at(-1);
    // The Messages API wants alternating turns: merge consecutive same-role turns (e.g. tool results).
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  (body.messages as OAIMessage[]).forEach((m, i) => {
    const where = `messages[${i}].content`;
    switch (m.role) {
      case "system":
      case "developer":
        system.push(
          contentBlocks(m.content, where)
            .map((b) => String(b.text ?? ""))
            .join("\n"),
        );
        break;
      case "user":
        push("user", contentBlocks(m.content, where));
        break;
      case "assistant": {
        const blocks = contentBlocks(m.content, where);
        for (const tc of m.tool_calls ?? []) {
          let input: unknown = {};
          try {
            input = tc.function?.arguments ? JSON.parse(tc.function.arguments) : {};
          } catch {
            throw invalidParam(`messages[${i}].tool_calls`, "Tool call arguments must be JSON.");
          }
          blocks.push({ type: "tool_use", id: tc.id, name: tc.function?.name, input });
        }
        push("assistant", blocks);
        break;
      }
      case "tool":
        push("user", [{ type: "tool_result", tool_use_id: m.tool_call_id, content: contentBlocks(m.content, where) }]);
        break;
      default:
        throw invalidParam(`messages[${i}].role`, `Role '${String(m.role)}' has no equivalent for this model's provider.`);
    }
  });
  const out: Record<string, unknown> = {
    model: upstreamModel,
    messages,
    max_tokens: body.max_completion_tokens ?? body.max_tokens ?? DEFAULT_MAX_TOKENS,
  };
  if (system.length) out.system = system.join("\n");
  if (body.stream) out.stream = true;
  for (const f of ["temperature", "top_p"] as const) if (body[f] !== undefined && body[f] !== null) out[f] = body[f];
  if (body.stop !== undefined && body.stop !== null) out.stop_sequences = Array.isArray(body.stop) ? body.stop : [body.stop];
  if (typeof body.user === "string") out.metadata = { user_id: body.user };
  if (Array.isArray(body.tools)) {
    out.tools = (body.tools as Array<{ type?: string; function?: { name?: string; description?: string; parameters?: unknown } }>).map((t, i) => {
      if (t.type !== "function" || !t.function?.name) throw invalidParam(`tools[${i}]`, "Only function tools are supported for this model's provider.");
      return { name: t.function.name, ...(t.function.description ? { description: t.function.description } : {}), input_schema: t.function.parameters ?? { type: "object" } };
    });
  }
  const tc = body.tool_choice as string | { function?: { name?: string } } | undefined;
  if (tc !== undefined && tc !== null) {
    if (tc === "auto") out.tool_choice = { type: "auto" };
    else if (tc === "required") out.tool_choice = { type: "any" };
    else if (tc === "none") out.tool_choice = { type: "none" };
    else if (typeof tc === "object" && tc.function?.name) out.tool_choice = { type: "tool", name: tc.function.name };
  }
  const structured = structuredOutputTool(body);
  if (structured) forceStructured(out, structured, tc !== undefined && tc !== null && tc !== "auto", "response_format.json_schema.name");
  if (body.parallel_tool_calls === false) out.tool_choice = { ...((out.tool_choice as object) ?? { type: "auto" }), disable_parallel_tool_use: true };
  return out;
}

/**
 * Adds the structured answer's tool to a Messages body and forces it: the caller's tools stay
 * callable next to it ("any": one of them or the answer); a tool_choice that forces or forbids
 * tools (`choiceGiven`) contradicts a forced structured answer.
 */
export function forceStructured(out: Record<string, unknown>, structured: StructuredTool, choiceGiven: boolean, nameParam: string): void {
  const own = (out.tools as StructuredTool[] | undefined) ?? [];
  if (own.some((t) => t.name === structured.name)) throw invalidParam(nameParam, `A tool is already named '${structured.name}': the structured answer needs its own name.`);
  if (own.length && choiceGiven) throw invalidParam("tool_choice", "With a json_schema or json_object format, tool_choice must be 'auto' or absent for this model's provider.");
  out.tools = [...own, structured];
  out.tool_choice = own.length ? { type: "any" } : { type: "tool", name: structured.name };
}

const reported = (u: NormalizedUsage | undefined) => (u ? { reported: u } : {});

/** A text delta event as Anthropic writes it, with its text's JSON string body (anything else is parsed). */
const TEXT_DELTA = /^\{"type":"content_block_delta","index":\d+,"delta":\{"type":"text_delta","text":"([^"\\]*(?:\\.[^"\\]*)*)"\}\}$/;

function finishReason(stop: unknown): string {
  switch (stop) {
    case "max_tokens":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
      return "content_filter";
    default:
      return "stop";
  }
}

export const anthropicChat: ChatAdapter = {
  buildChatRequest(body: ChatRequestBody, target: UpstreamTarget) {
    const headers: Record<string, string> = { "content-type": "application/json", "anthropic-version": ANTHROPIC_VERSION, accept: body.stream ? "text/event-stream" : "application/json" };
    if (target.apiKey) headers["x-api-key"] = target.apiKey;
    return { url: `${target.provider.base_url.replace(/\/+$/, "")}/messages`, headers, body: JSON.stringify(openAIToAnthropic(body, target.deployment.upstream_model)) };
  },

  parseChatResponse(json: unknown, publicModel: string, request?: ChatRequestBody): ParsedChatResponse {
    const m = json as { id?: string; content?: Array<{ type?: string; text?: string; id?: string; name?: string; input?: unknown }>; stop_reason?: unknown; usage?: AnthropicUsage };
    if (!m || !Array.isArray(m.content)) throw new GatewayError("upstream_error", "The provider returned an invalid message.");
    const answerTool = request ? structuredOutputTool(request)?.name : undefined;
    const answer = m.content.find((b) => b.type === "tool_use" && b.name === answerTool);
    // The structured answer is the content; text around it would make it unparseable.
    const text = answer
      ? JSON.stringify(answer.input ?? {})
      : m.content
          .filter((b) => b.type === "text")
          .map((b) => b.text ?? "")
          .join("");
    const toolCalls = m.content.filter((b) => b.type === "tool_use" && b !== answer).map((b) => ({ id: b.id, type: "function", function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }));
    const finish = answer && !toolCalls.length && m.stop_reason === "tool_use" ? "stop" : finishReason(m.stop_reason);
    const usage = normalize(m.usage);
    return {
      body: {
        id: m.id ?? "chatcmpl-anthropic",
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: publicModel,
        choices: [
          { index: 0, message: { role: "assistant", content: text || (toolCalls.length ? null : ""), ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }, finish_reason: finish, logprobs: null },
        ],
        ...(usage ? { usage: chatCompletionUsage(usage) } : {}),
      },
      usage,
    };
  },

  streamParser(publicModel: string, _upstreamModel: string, request?: ChatRequestBody, frames = true) {
    const answerTool = request ? structuredOutputTool(request)?.name : undefined;
    /** The content block index of the structured answer's tool_use, once it started. */
    let answerIndex: number | undefined;
    let id = "chatcmpl-anthropic";
    const usageOf = messagesStreamUsage();
    const toolIndex = new Map<number, number>();
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => {
      const c = { id, object: "chat.completion.chunk", created, model: publicModel, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], ...extra };
      return { forward: JSON.stringify(c), chunk: c as Record<string, unknown> };
    };
    /** What a text chunk's JSON says before and after its content (the same for every one): the text's JSON string body goes between. */
    let textFrame: [string, string] | undefined;
    const head = () => `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(publicModel)},"choices":[{"index":0,"delta":{"content":"`;
    return announcing((data: string): ParsedStreamEvent => {
      // The most frequent event, a text delta (beside no structured answer), without parsing it or serializing its chunk.
      const delta = answerTool === undefined ? TEXT_DELTA.exec(data) : null;
      if (delta) {
        const body = delta[1]!;
        const text = jsonStringBody(body);
        textFrame ??= [head(), '"},"finish_reason":null,"logprobs":null}]}'];
        // A chat client reads the frame, a translating shape the chunk: only the one that is read is built.
        if (frames) return { forward: textFrame[0] + body + textFrame[1], text, done: false };
        return {
          forward: undefined,
          chunk: { id, object: "chat.completion.chunk", created, model: publicModel, choices: [{ index: 0, delta: { content: text }, finish_reason: null, logprobs: null }] },
          text,
          done: false,
        };
      }
      const ev = parseStreamEvent<MessagesStreamEvent>(data);
      switch (ev.type) {
        case "message_start":
          id = ev.message?.id ?? id;
          textFrame = undefined;
          return { ...chunk({ role: "assistant", content: "" }, null), ...reported(usageOf.start(ev.message?.usage)), text: "", done: false };
        case "content_block_start":
          if (ev.content_block?.type === "tool_use" && answerTool !== undefined && ev.content_block.name === answerTool) {
            answerIndex = ev.index ?? 0;
            return { forward: undefined, text: "", done: false, ...blockPhase(ev) };
          }
          if (ev.content_block?.type === "tool_use") {
            const i = toolIndex.size;
            toolIndex.set(ev.index ?? 0, i);
            return {
              ...chunk({ tool_calls: [{ index: i, id: ev.content_block.id, type: "function", function: { name: ev.content_block.name, arguments: "" } }] }, null),
              text: "",
              done: false,
              ...blockPhase(ev),
            };
          }
          return { forward: undefined, text: "", done: false, ...blockPhase(ev) };
        case "content_block_delta":
          if (ev.delta?.type === "text_delta") {
            // Text beside a structured answer is counted, not shown: it would break the JSON content.
            if (answerTool !== undefined) return { forward: undefined, text: ev.delta.text ?? "", done: false };
            return { ...chunk({ content: ev.delta.text ?? "" }, null), text: ev.delta.text ?? "", done: false };
          }
          if (ev.delta?.type === "input_json_delta" && answerIndex !== undefined && (ev.index ?? 0) === answerIndex) {
            const json = ev.delta.partial_json ?? "";
            return { ...chunk({ content: json }, null), text: json, done: false };
          }
          if (ev.delta?.type === "input_json_delta") {
            // Tool arguments are output tokens too: counted when the provider reports no usage.
            const args = ev.delta.partial_json ?? "";
            return { ...chunk({ tool_calls: [{ index: toolIndex.get(ev.index ?? 0) ?? 0, function: { arguments: args } }] }, null), text: args, done: false };
          }
          // Thinking is billed as output although the chat shape has no place for it.
          if (ev.delta?.type === "thinking_delta") return { forward: undefined, text: ev.delta.thinking ?? "", done: false };
          return { forward: undefined, text: "", done: false };
        case "message_delta": {
          const usage = usageOf.delta(ev.usage);
          const answered = answerIndex !== undefined && toolIndex.size === 0 && ev.delta?.stop_reason === "tool_use";
          const finish = chunk({}, answered ? "stop" : finishReason(ev.delta?.stop_reason));
          const usageChunk = { id, object: "chat.completion.chunk", created, model: publicModel, choices: [], usage: chatCompletionUsage(usage) };
          // Two OpenAI chunks from one event: the finish, then the usage-only chunk.
          return { ...finish, usageForward: JSON.stringify(usageChunk), ...(usage ? { usage } : {}), text: "", done: false };
        }
        case "message_stop":
          return { forward: undefined, text: "", done: true };
        case "error":
          throw new GatewayError("upstream_error", `The provider reported an error mid-stream: ${ev.error?.message ?? "unknown"}`);
        default:
          return { forward: undefined, text: "", done: false };
      }
    });
  },

  // A non-streamed request held in tranches: the events make the Message the JSON would have been,
  // read as a JSON answer is (a tool's input and a structured answer as the JSON serializes them, not
  // as the stream's partial JSON spaced them).
  collect(publicModel: string, _upstreamModel: string, request?: ChatRequestBody): StreamCollector {
    return messagesCollector(publicModel, (message) => anthropicChat.parseChatResponse(message, publicModel, request));
  },

  mapError(status: number, bodyText: string, retryAfter: string | undefined): GatewayError {
    // Anthropic's 529 means overloaded: retryable like a 503.
    return mapOpenAIError(status === 529 ? 503 : status, bodyText, retryAfter);
  },
};
