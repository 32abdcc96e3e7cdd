import type { ChatRequestBody } from "../types.js";
import { signatureOf } from "./call-id.js";
import { isBareObject, schemaBudget, toGeminiSchema, type SchemaBudget } from "./schema.js";
import type { GeminiContent, GeminiFunctionDeclaration, GeminiGenerationConfig, GeminiPart, GenerateContentRequest, GeminiThinkingConfig, GeminiToolConfig } from "./wire.js";
import { invalidParam } from "@gateway/errors";
import { choicesOf, isObject, type Json } from "../types.js";

/**
 * OpenAI chat-completions request → Gemini `generateContent` request. Every field either maps or is
 * refused with a 400 naming it; the few that change nothing in the answer (`user`, `metadata`,
 * `store`, `stream_options`, `service_tier` auto or default) are not sent.
 */

const given = (v: unknown) => v !== undefined && v !== null;

/**
 * Google's documented stand-in for a function call's thought signature when there is none (a call
 * another provider made, or one the client wrote): Gemini 3 checks the first call of each step of
 * the current turn and accepts this value in place of a signature.
 */
export const SKIP_SIGNATURE = "skip_thought_signature_validator";

/** No equivalent at Gemini (log probabilities are not translated back, so they are refused too). */
const REFUSED = ["logprobs", "top_logprobs", "logit_bias", "audio", "prediction", "web_search_options", "functions", "function_call", "verbosity"] as const;

/** Gemini's major version from the upstream model id (`gemini-2.5-flash` → 2), or undefined for other names. */
export function geminiGeneration(upstreamModel: string): number | undefined {
  const m = /^(?:models\/)?gemini-(\d+)/i.exec(upstreamModel);
  return m ? Number(m[1]) : undefined;
}

/**
 * `reasoning_effort` as Gemini 2.5's `thinkingBudget` (tokens): the budgets Google's own OpenAI
 * compatibility layer uses (low 1,024, medium 8,192, high 24,576; `none` turns thinking off, which
 * only the Flash models accept: Pro answers 400).
 */
const THINKING_BUDGET: Record<string, number> = { none: 0, minimal: 1_024, low: 1_024, medium: 8_192, high: 24_576, xhigh: 24_576 };
/**
 * …and as Gemini 3's `thinkingLevel`, which refuses a budget-less off switch and whose Pro models
 * take only `low` and `high`: the efforts below the default (medium) think little, the others as
 * the model does by default (`high`).
 */
const THINKING_LEVEL: Record<string, "low" | "high"> = { none: "low", minimal: "low", low: "low", medium: "high", high: "high", xhigh: "high" };

interface OAIToolCall {
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}
interface OAIMessage {
  role?: unknown;
  content?: unknown;
  tool_calls?: unknown;
  tool_call_id?: unknown;
}

/** A media URL as a part: data: URLs inline, http(s) and gs:// URLs by reference. */
function mediaPart(url: unknown, at: string): GeminiPart {
  if (typeof url !== "string") throw invalidParam(at, `'${at}' must be a data: URL or an http(s) URL.`);
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (m) return { inlineData: { mimeType: m[1]!, data: m[2]! } };
  if (!/^(https?|gs):\/\//i.test(url)) throw invalidParam(at, `'${at}' must be a data: URL or an http(s) URL.`);
  const ext = /\.(png|jpe?g|webp|gif|heic|heif)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  const mimeType = ext === undefined ? undefined : `image/${ext === "jpg" ? "jpeg" : ext}`;
  return { fileData: { fileUri: url, ...(mimeType ? { mimeType } : {}) } };
}

function contentParts(content: unknown, where: string, media: boolean): GeminiPart[] {
  if (!given(content)) return [];
  if (typeof content === "string") return content ? [{ text: content }] : [];
  if (!Array.isArray(content)) throw invalidParam(where, `'${where}' must be a string or an array of parts.`);
  return content.map((p: unknown, i): GeminiPart => {
    const at = `${where}[${i}]`;
    const part = isObject(p) ? p : {};
    if ((part.type === "text" || part.type === "refusal") && typeof (part.text ?? part.refusal) === "string") return { text: String(part.text ?? part.refusal) };
    if (!media) throw invalidParam(at, `Only text parts are supported in this message for this model's provider.`);
    if (part.type === "image_url" && isObject(part.image_url)) return mediaPart(part.image_url.url, `${at}.image_url.url`);
    if (part.type === "input_audio" && isObject(part.input_audio) && typeof part.input_audio.data === "string" && typeof part.input_audio.format === "string") {
      return { inlineData: { mimeType: `audio/${part.input_audio.format}`, data: part.input_audio.data } };
    }
    if (part.type === "file" && isObject(part.file) && typeof part.file.file_data === "string") return mediaPart(part.file.file_data, `${at}.file.file_data`);
    throw invalidParam(at, `Part type '${String(part.type)}' has no equivalent for this model's provider (file ids included: send the file's data).`);
  });
}

function textOf(content: unknown, where: string): string {
  return contentParts(content, where, false)
    .map((p) => p.text ?? "")
    .join("");
}

/** A tool's output as Gemini's functionResponse.response, an object: `{output: …}`, JSON decoded when it is JSON. */
function toolResponse(text: string): Json {
  if (/^\s*[[{]/.test(text)) {
    try {
      return { output: JSON.parse(text) as unknown };
    } catch {
      // not JSON after all: the text as is
    }
  }
  return { output: text };
}

function number(body: ChatRequestBody, f: string): number | undefined {
  const v = body[f];
  if (!given(v)) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) throw invalidParam(f, `'${f}' must be a number.`);
  return v;
}

export function openAIToGemini(body: ChatRequestBody, upstreamModel: string): GenerateContentRequest {
  for (const f of REFUSED) {
    const v = body[f];
    if (!given(v) || (f === "logprobs" && v === false)) continue;
    throw invalidParam(f, `'${f}' has no equivalent for this model's provider.`);
  }
  if (given(body.modalities) && !(Array.isArray(body.modalities) && body.modalities.every((m) => m === "text")))
    throw invalidParam("modalities", "Only text output is supported for this model's provider.");
  if (given(body.service_tier) && body.service_tier !== "auto" && body.service_tier !== "default")
    throw invalidParam("service_tier", `service_tier '${String(body.service_tier)}' has no equivalent for this model's provider.`);
  // Gemini may answer with several calls at once and has no switch for it.
  if (body.parallel_tool_calls === false) throw invalidParam("parallel_tool_calls", "'parallel_tool_calls: false' has no equivalent for this model's provider.");
  const gen = geminiGeneration(upstreamModel) ?? 0;

  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  const push = (role: "user" | "model", parts: GeminiPart[]) => {
    if (!parts.length) return;
    const last = contents.at(-1);
    // One turn per role change: a step's function responses must all be in the turn after its calls.
    if (last?.role === role) last.parts!.push(...parts);
    else contents.push({ role, parts });
  };
  /** Function names by the id of the call, to name each tool result (Gemini matches them by name). */
  const names = new Map<string, string>();
  (body.messages as OAIMessage[]).forEach((m, i) => {
    const where = `messages[${i}].content`;
    switch (m.role) {
      case "system":
      case "developer": {
        const text = textOf(m.content, where);
        if (text) system.push({ text });
        break;
      }
      case "user":
        push("user", contentParts(m.content, where, true));
        break;
      case "assistant": {
        const parts = contentParts(m.content, where, false);
        const calls = given(m.tool_calls) ? m.tool_calls : [];
        if (!Array.isArray(calls)) throw invalidParam(`messages[${i}].tool_calls`, `'messages[${i}].tool_calls' must be an array.`);
        (calls as OAIToolCall[]).forEach((tc, j) => {
          const at = `messages[${i}].tool_calls[${j}]`;
          const name = tc.function?.name;
          if (typeof name !== "string" || !name) throw invalidParam(`${at}.function.name`, `'${at}.function.name' is required.`);
          let args: unknown = {};
          try {
            const raw = tc.function?.arguments;
            args = typeof raw === "string" && raw.trim() ? JSON.parse(raw) : {};
          } catch {
            throw invalidParam(`${at}.function.arguments`, "Tool call arguments must be JSON.");
          }
          if (!isObject(args)) throw invalidParam(`${at}.function.arguments`, "Tool call arguments must be a JSON object for this model's provider.");
          if (typeof tc.id === "string") names.set(tc.id, name);
          // The signature goes back on the part it came on; only a step's first call needs one.
          const signature = signatureOf(tc.id) ?? (j === 0 && gen >= 3 ? SKIP_SIGNATURE : undefined);
          parts.push({ functionCall: { name, args }, ...(signature ? { thoughtSignature: signature } : {}) });
        });
        push("model", parts);
        break;
      }
      case "tool": {
        const name = typeof m.tool_call_id === "string" ? names.get(m.tool_call_id) : undefined;
        if (name === undefined) throw invalidParam(`messages[${i}].tool_call_id`, `'messages[${i}].tool_call_id' must be the id of a tool call in an earlier assistant message.`);
        push("user", [{ functionResponse: { name, response: toolResponse(textOf(m.content, where)) } }]);
        break;
      }
      default:
        throw invalidParam(`messages[${i}].role`, `Role '${String(m.role)}' has no equivalent for this model's provider.`);
    }
  });
  if (!contents.length) throw invalidParam("messages", "At least one user or assistant message is required for this model's provider.");

  const out: GenerateContentRequest = { contents };
  if (system.length) out.systemInstruction = { parts: system };

  // One budget for all the request's schemas (every tool's parameters, the response format): the limits are for them together.
  const budget = schemaBudget();
  const declarations: GeminiFunctionDeclaration[] = [];
  if (given(body.tools)) {
    if (!Array.isArray(body.tools)) throw invalidParam("tools", "'tools' must be an array.");
    body.tools.forEach((t: unknown, i) => {
      const fn = isObject(t) && t.type === "function" && isObject(t.function) ? t.function : undefined;
      if (!fn || typeof fn.name !== "string" || !fn.name) throw invalidParam(`tools[${i}]`, "Only function tools are supported for this model's provider.");
      const parameters = given(fn.parameters) ? toGeminiSchema(fn.parameters, { param: `tools[${i}].function.parameters`, ordering: false, budget }) : undefined;
      declarations.push({
        name: fn.name,
        ...(typeof fn.description === "string" && fn.description ? { description: fn.description } : {}),
        // Gemini refuses an OBJECT without properties: a function without parameters has none.
        ...(parameters && !isBareObject(parameters) ? { parameters } : {}),
      });
    });
    if (declarations.length) out.tools = [{ functionDeclarations: declarations }];
  }
  const toolConfig = functionCalling(body.tool_choice, declarations);
  if (toolConfig) out.toolConfig = toolConfig;

  const g: GeminiGenerationConfig = {};
  const temperature = number(body, "temperature");
  if (temperature !== undefined) g.temperature = temperature;
  const topP = number(body, "top_p");
  if (topP !== undefined) g.topP = topP;
  const seed = number(body, "seed");
  if (seed !== undefined) g.seed = seed;
  const presence = number(body, "presence_penalty");
  if (presence !== undefined) g.presencePenalty = presence;
  const frequency = number(body, "frequency_penalty");
  if (frequency !== undefined) g.frequencyPenalty = frequency;
  const max = body.max_completion_tokens ?? body.max_tokens;
  if (typeof max === "number") g.maxOutputTokens = max;
  const candidates = choicesOf(body);
  if (candidates > 1) g.candidateCount = candidates;
  if (given(body.stop)) {
    const stop = Array.isArray(body.stop) ? body.stop : [body.stop];
    if (!stop.every((s) => typeof s === "string")) throw invalidParam("stop", "'stop' must be a string or an array of strings.");
    if (stop.length) g.stopSequences = stop as string[];
  }
  responseFormat(body.response_format, g, budget);
  const thinking = thinkingConfig(body.reasoning_effort, gen);
  if (thinking) g.thinkingConfig = thinking;
  if (Object.keys(g).length) out.generationConfig = g;
  return out;
}

/** `tool_choice` → functionCallingConfig: auto AUTO, none NONE, required ANY, a named function ANY limited to it. */
function functionCalling(tc: unknown, declarations: GeminiFunctionDeclaration[]): GeminiToolConfig | undefined {
  if (!given(tc) || tc === "auto") return undefined;
  if (tc === "none") return declarations.length ? { functionCallingConfig: { mode: "NONE" } } : undefined;
  if (!declarations.length) throw invalidParam("tool_choice", "'tool_choice' needs 'tools'.");
  if (tc === "required") return { functionCallingConfig: { mode: "ANY" } };
  const name = isObject(tc) && tc.type === "function" && isObject(tc.function) ? tc.function.name : undefined;
  if (typeof name !== "string") throw invalidParam("tool_choice", "'tool_choice' must be 'auto', 'none', 'required' or a function tool choice.");
  if (!declarations.some((d) => d.name === name)) throw invalidParam("tool_choice", `'tool_choice' names '${name}', which is not one of the tools.`);
  return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [name] } };
}

/** `response_format`: JSON mode, and the schema in Gemini's subset (in the order the schema lists the properties). */
function responseFormat(rf: unknown, g: GeminiGenerationConfig, budget: SchemaBudget): void {
  if (!given(rf)) return;
  const type = isObject(rf) ? rf.type : undefined;
  if (type === "text") return;
  if (type === "json_object") {
    g.responseMimeType = "application/json";
    return;
  }
  if (type !== "json_schema") throw invalidParam("response_format.type", `response_format type '${String(type)}' has no equivalent for this model's provider.`);
  const js = (rf as Json).json_schema;
  if (!isObject(js)) throw invalidParam("response_format.json_schema", "'response_format.json_schema' is required.");
  g.responseMimeType = "application/json";
  const schema = toGeminiSchema(js.schema, { param: "response_format.json_schema.schema", ordering: true, budget });
  // A schema that only says "an object" is JSON mode (Gemini refuses an OBJECT without properties).
  if (!isBareObject(schema)) g.responseSchema = schema;
}

/** `reasoning_effort` as a budget (Gemini 2.x and unknown names) or a level (Gemini 3 and later). */
function thinkingConfig(effort: unknown, gen: number): GeminiThinkingConfig | undefined {
  if (!given(effort)) return undefined;
  if (typeof effort !== "string" || !(effort in THINKING_BUDGET))
    throw invalidParam("reasoning_effort", `reasoning_effort '${String(effort)}' is not one of ${Object.keys(THINKING_BUDGET).join(", ")}.`);
  return gen >= 3 ? { thinkingLevel: THINKING_LEVEL[effort]! } : { thinkingBudget: THINKING_BUDGET[effort]! };
}
