import { GatewayError, invalidParam } from "@gateway/errors";
import type { ChatRequestBody } from "../providers/types.js";
import { callItem, messageItem } from "./responses-output.js";
import { SERVICE_TIER_REFUSAL, acceptedServiceTier } from "../http/body.js";
import { DEFAULT_WEB_SEARCHES } from "../credits/bounds.js";
import { flatName, flattenNamespace } from "./namespaces.js";
import { isObject, type Json } from "../providers/types.js";

/**
 * OpenAI Responses API requests: a Responses request becomes the chat request every provider
 * adapter takes, and a stored conversation goes back and forth between chat turns and input items.
 * What goes out (Response objects, the event stream) is in responses-output.ts.
 */

/** An input content part as a chat content part. */
function chatPart(p: unknown, at: string): Json {
  if (!isObject(p)) throw invalidParam(at, `'${at}' must be an object.`);
  switch (p.type) {
    case "input_text":
    case "output_text":
    case "text":
      if (typeof p.text !== "string") throw new GatewayError("invalid_request", `'${at}.text' must be a string.`, { param: `${at}.text` });
      return { type: "text", text: p.text };
    case "input_image": {
      const url = p.image_url;
      // With a file id beside the URL the provider would read a file of the gateway's own account.
      if (typeof url !== "string" || (p.file_id !== undefined && p.file_id !== null))
        throw new GatewayError("invalid_request", `'${at}.image_url' must be a URL or data URL (file ids are not supported).`, { param: `${at}.image_url` });
      return { type: "image_url", image_url: { url, ...(typeof p.detail === "string" ? { detail: p.detail } : {}) } };
    }
    default:
      throw new GatewayError("invalid_request", `'${at}.type' '${String(p.type)}' is not supported (input_text, input_image).`, { param: `${at}.type` });
  }
}

/** A message's content (string or parts) in the chat shape. */
function chatContent(content: unknown, at: string): string | Json[] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw invalidParam(at, `'${at}' must be a string or an array of content parts.`);
  return content.map((p, i) => chatPart(p, `${at}[${i}]`));
}

/**
 * A `function_call_output`'s output as one text: a string, or text parts (joined). Images and files
 * in a tool's output are refused: no chat tool message carries them, and the hold would not count them.
 */
export function toolOutputText(output: unknown, at: string): string {
  if (typeof output === "string") return output;
  if (!Array.isArray(output)) return JSON.stringify(output ?? "");
  return output
    .map((p, i) => {
      if (!isObject(p) || (p.type !== "input_text" && p.type !== "output_text") || typeof p.text !== "string") {
        throw new GatewayError("invalid_request", `'${at}[${i}]': a function_call_output's parts must be input_text parts (images and files are not supported there).`, { param: `${at}[${i}]` });
      }
      return p.text;
    })
    .join("");
}

/** The Responses `input` (a string or items) as chat messages. */
function chatMessages(input: unknown): Json[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  if (!Array.isArray(input) || input.length === 0) throw invalidParam("input", "'input' is required: a string or a non-empty array of input items.");
  const out: Json[] = [];
  input.forEach((item, i) => {
    const at = `input[${i}]`;
    if (!isObject(item)) throw invalidParam(at, `'${at}' must be an object.`);
    const type = item.type ?? "message";
    if (type === "message") {
      const role = item.role;
      if (role !== "user" && role !== "assistant" && role !== "system" && role !== "developer") {
        throw new GatewayError("invalid_request", `'${at}.role' must be one of user, assistant, system, developer.`, { param: `${at}.role` });
      }
      const content = chatContent(item.content, `${at}.content`);
      // Assistant turns carry text only in the chat shape.
      out.push({ role: role === "developer" ? "system" : role, content: role === "assistant" && Array.isArray(content) ? content.map((c) => c.text ?? "").join("") : content });
    } else if (type === "function_call") {
      if (typeof item.call_id !== "string" || typeof item.name !== "string") throw invalidParam(at, `'${at}' needs 'call_id' and 'name'.`);
      const call = { id: item.call_id, type: "function", function: { name: callName(item), arguments: typeof item.arguments === "string" ? item.arguments : "{}" } };
      // Consecutive calls are one assistant turn with several tool calls.
      const last = out.at(-1);
      if (last && last.role === "assistant" && Array.isArray(last.tool_calls)) (last.tool_calls as Json[]).push(call);
      else out.push({ role: "assistant", content: null, tool_calls: [call] });
    } else if (type === "function_call_output") {
      if (typeof item.call_id !== "string") throw new GatewayError("invalid_request", `'${at}.call_id' is required.`, { param: `${at}.call_id` });
      out.push({ role: "tool", tool_call_id: item.call_id, content: toolOutputText(item.output, `${at}.output`) });
    } else if (type === "reasoning" || type === "web_search_call") {
      // Reasoning and searches of an earlier answer: the chat shape has nowhere to put them (what a
      // search found is in the answer's text that follows).
    } else {
      throw new GatewayError("invalid_request", `'${at}.type' '${String(type)}' is not supported (message, function_call, function_call_output).`, { param: `${at}.type` });
    }
  });
  return out;
}

/** A function call's name where namespaces do not exist (a namespaced call goes by its flattened name). */
export const callName = (item: Json): string => (typeof item.namespace === "string" && item.namespace ? flatName(item.namespace, String(item.name)) : String(item.name));

/** The Responses API's built-in web search tool, in each of its spellings (`web_search`, `web_search_preview`, dated). */
const WEB_SEARCH_TOOL = /^web_search(?:_preview)?(?:_\d{4}_\d{2}_\d{2})?$/;
export const isWebSearch = (t: unknown): boolean => isObject(t) && typeof t.type === "string" && WEB_SEARCH_TOOL.test(t.type);

/**
 * The most web searches a Responses request allows: 0 without the web search tool, else its
 * `max_tool_calls` (which bounds every built-in tool call, and web search is the only built-in tool
 * the gateway passes on), DEFAULT_WEB_SEARCHES when absent (and then sent, so the provider keeps
 * to what the hold covers).
 */
export function webSearchBound(body: Json): number {
  if (!Array.isArray(body.tools) || !body.tools.some(isWebSearch)) return 0;
  const v = body.max_tool_calls;
  if (v === undefined || v === null) return DEFAULT_WEB_SEARCHES;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1 || v > 1_000) throw invalidParam("max_tool_calls", "'max_tool_calls' must be an integer from 1 to 1000.");
  return v;
}

/**
 * The request's tools as flat function tools in the Responses shape: namespace tools flattened
 * (translate/namespaces.ts), web search left out (a provider reached through chat completions has no
 * built-in search: the answer says so in x-gateway-dropped-params), other built-in tools refused.
 */
export function functionTools(tools: unknown): Json[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) throw invalidParam("tools", "'tools' must be an array.");
  return tools.flatMap((t, i): Json[] => {
    if (isObject(t) && t.type === "namespace") return flattenNamespace(t, `tools[${i}]`, invalidParam);
    if (isWebSearch(t)) return [];
    if (!isObject(t) || t.type !== "function" || typeof t.name !== "string") {
      throw invalidParam(`tools[${i}]`, `'tools[${i}]': only function, namespace and web_search tools are supported.`);
    }
    return [t];
  });
}

/** Function tools in the chat shape. */
function chatTools(tools: unknown): Json[] | undefined {
  return functionTools(tools)?.map((t) => {
    return {
      type: "function",
      function: {
        name: t.name,
        ...(t.description !== undefined ? { description: t.description } : {}),
        parameters: t.parameters ?? { type: "object", properties: {} },
        ...(t.strict !== undefined && t.strict !== null ? { strict: t.strict } : {}),
      },
    };
  });
}

function chatToolChoice(choice: unknown): unknown {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === "string") return choice; // auto, none, required
  if (isObject(choice) && choice.type === "function" && typeof choice.name === "string") return { type: "function", function: { name: callName(choice) } };
  throw invalidParam("tool_choice", "'tool_choice' must be 'auto', 'none', 'required' or {type: 'function', name}.");
}

const asksWebSearch = (body: Json): boolean => Array.isArray(body.tools) && body.tools.some(isWebSearch);

/** What a provider reached through chat completions leaves out of a Responses request (x-gateway-dropped-params). */
export const droppedThroughChat = (body: Json): string[] => (asksWebSearch(body) ? ["web_search"] : []);

/**
 * The searches a provider that searches itself (OpenAI, Anthropic) may run for this request: its
 * bound when the catalog prices a search on the model, else 0 — the tool is then left out, as
 * through chat completions, and `dropped` says so.
 */
export function pricedSearches(body: Json, model: { web_search_price_minor?: number | null }): { searches: number; dropped: string[] } {
  if (!asksWebSearch(body)) return { searches: 0, dropped: [] };
  if (model.web_search_price_minor === undefined || model.web_search_price_minor === null) return { searches: 0, dropped: ["web_search"] };
  return { searches: webSearchBound(body), dropped: [] };
}

/** `text.format` as the chat `response_format`. */
export function chatResponseFormat(text: unknown): unknown {
  if (!isObject(text) || !isObject(text.format)) return undefined;
  const f = text.format;
  if (f.type === "text") return undefined;
  if (f.type === "json_object") return { type: "json_object" };
  if (f.type === "json_schema") {
    if (typeof f.name !== "string" || !isObject(f.schema)) throw invalidParam("text.format", "'text.format' json_schema needs 'name' and 'schema'.");
    return {
      type: "json_schema",
      json_schema: {
        name: f.name,
        schema: f.schema,
        ...(f.strict !== undefined && f.strict !== null ? { strict: f.strict } : {}),
        ...(typeof f.description === "string" ? { description: f.description } : {}),
      },
    };
  }
  throw invalidParam("text.format.type", `'text.format.type' '${String(f.type)}' is not supported (text, json_object, json_schema).`);
}

/**
 * Fields an OpenAI deployment would act on (the native passthrough sends the client's body) that make
 * the provider charge what the hold cannot bound or the gateway cannot bill: `background` (the
 * answer is generated after a queued reply without usage, and keeps running when the client leaves),
 * `prompt` and `conversation` (a stored prompt template or conversation on the gateway's provider
 * account: input the prompt bound never saw, and another tenant's data), a `service_tier` other
 * than auto, default or flex (`priority` is billed above the catalog's prices, `scale` spends the
 * operator's reserved capacity). Refused for every deployment alike.
 */
function refuseUnbillable(body: Json): void {
  const refuse = (param: string, why: string) => invalidParam(param, `'${param}' is not supported: ${why}`);
  if (body.background !== undefined && body.background !== null && body.background !== false)
    throw refuse("background", "responses are generated while the request is open (use stream for long answers).");
  if (body.prompt !== undefined && body.prompt !== null) throw refuse("prompt", "stored prompt templates are not available through the gateway; send instructions and input.");
  if (body.conversation !== undefined && body.conversation !== null) throw refuse("conversation", "continue a conversation with previous_response_id.");
  if (body.service_tier !== undefined && body.service_tier !== null && !acceptedServiceTier(body.service_tier)) {
    throw new GatewayError("invalid_request", SERVICE_TIER_REFUSAL, { param: "service_tier" });
  }
}

/** A Responses request (validated for the fields the gateway reads) as a chat request. */
export function responsesToChat(body: Json): ChatRequestBody {
  refuseUnbillable(body);
  const messages = chatMessages(body.input);
  if (typeof body.instructions === "string" && body.instructions) messages.unshift({ role: "system", content: body.instructions });
  const chat: ChatRequestBody = { model: body.model as string, messages };
  const set = (k: string, v: unknown) => {
    if (v !== undefined && v !== null) chat[k] = v;
  };
  set("max_tokens", body.max_output_tokens);
  set("temperature", body.temperature);
  set("top_p", body.top_p);
  const tools = chatTools(body.tools);
  // Only web search asked for: no tools at all (chat completions refuse an empty list).
  if (tools?.length) {
    chat.tools = tools;
    set("tool_choice", chatToolChoice(body.tool_choice));
  }
  if (chat.tools) set("parallel_tool_calls", body.parallel_tool_calls);
  set("response_format", chatResponseFormat(body.text));
  if (isObject(body.reasoning) && typeof body.reasoning.effort === "string") chat.reasoning_effort = body.reasoning.effort;
  set("user", body.user);
  if (body.stream === true) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}

/** A Response's output as the chat shape's assistant turn (text and tool calls), for a continuation. */
export function assistantTurn(response: Json): Json {
  let text = "";
  const calls: Json[] = [];
  for (const item of (Array.isArray(response.output) ? response.output : []) as Json[]) {
    if (item.type === "message") {
      for (const c of (Array.isArray(item.content) ? item.content : []) as Json[]) if (typeof c.text === "string") text += c.text;
    } else if (item.type === "function_call") {
      calls.push({ id: item.call_id, type: "function", function: { name: item.name, arguments: item.arguments } });
    }
  }
  return { role: "assistant", content: text || null, ...(calls.length ? { tool_calls: calls } : {}) };
}

/**
 * The input items of a stored response (`GET /v1/responses/{id}/input_items`): its conversation in
 * the chat shape, without the answer's own turn, back as Responses items. Ids are derived from the
 * response id and the position, so the listing's `after` cursor is stable across reads.
 */
export function inputItems(responseId: string, messages: unknown[]): Json[] {
  const base = responseId.replace(/^resp_/, "");
  let n = 0;
  return chatToItems(messages.slice(0, -1), (prefix) => `${prefix}_${base}${(n++).toString(16).padStart(4, "0")}`);
}

/**
 * A stored conversation (chat-shaped turns, the last answer's included) as input items without ids,
 * for a continuation sent to a provider in the Responses or Messages shape.
 */
export function historyItems(messages: unknown[]): Json[] {
  // Easy-input form for the answers' text: an output message as input would need the provider's own item id.
  return chatToItems(messages, undefined).map(({ id: _id, status: _status, ...item }) =>
    item.type === "message" && item.role === "assistant" ? { type: "message", role: "assistant", content: ((item.content as Json[])[0]?.text as string | undefined) ?? "" } : item,
  );
}

function chatToItems(messages: unknown[], nextId: ((prefix: string) => string) | undefined): Json[] {
  const id = nextId ?? (() => "");
  const items: Json[] = [];
  for (const m of messages as Json[]) {
    if (m.role === "assistant") {
      const text = typeof m.content === "string" ? m.content : "";
      if (text) items.push(messageItem(id("msg"), text, "completed"));
      for (const c of (Array.isArray(m.tool_calls) ? m.tool_calls : []) as Json[]) {
        const fn = (c.function ?? {}) as Json;
        items.push(callItem(id("fc"), String(c.id), String(fn.name ?? ""), typeof fn.arguments === "string" ? fn.arguments : "{}", "completed"));
      }
    } else if (m.role === "tool") {
      items.push({ type: "function_call_output", id: id("fco"), call_id: m.tool_call_id, output: typeof m.content === "string" ? m.content : JSON.stringify(m.content), status: "completed" });
    } else {
      const parts = typeof m.content === "string" ? [{ type: "text", text: m.content }] : ((Array.isArray(m.content) ? m.content : []) as Json[]);
      const content = parts.map((p) => {
        const image = p.image_url as Json | undefined;
        return p.type === "image_url" && image ? { type: "input_image", image_url: image.url, detail: image.detail ?? "auto" } : { type: "input_text", text: String(p.text ?? "") };
      });
      items.push({ type: "message", id: id("msg"), role: m.role, status: "completed", content });
    }
  }
  return items;
}
