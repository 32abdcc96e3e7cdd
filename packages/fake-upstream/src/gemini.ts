import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { minimalInstance } from "./schema-object.js";
import { flakyStatus, parseDirectives, scriptedCall, stripMarkers, type Directives } from "./directives.js";
import { sleep } from "./openai-chat.js";
import { countTokens } from "./tokens.js";

/** The parts of Gemini's schema subset the fake checks (types in upper case). */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  nullable?: boolean;
}

/**
 * Google's Gemini API, faked under `/gemini/v1beta`: `POST models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse` (one JSON GenerateContentResponse per SSE event, usage on every
 * one, the finish reason on the last, then the connection closes: no terminal event), the key in
 * `x-goog-api-key`. Deterministic like the other fakes: it echoes the last user turn, calls the
 * first declared function when the last turn is the user's (the allowed one when forced), answers
 * "Tool said: …" after function responses, writes JSON its `responseSchema` allows in JSON mode.
 * It refuses what Gemini refuses (unknown schema keywords, an OBJECT without properties, function
 * responses that answer no call, a thought signature it never issued), so the gateway's
 * translation is checked end to end. Directives as for the other fakes (`cut=N` closes the stream
 * cleanly after N chunks, without its finishing chunk), plus `block[=REASON]`.
 */

interface Part {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType?: string; data?: string };
  fileData?: { mimeType?: string; fileUri?: string };
  functionCall?: { name?: string; args?: unknown };
  functionResponse?: { name?: string; response?: { output?: unknown } & Record<string, unknown> };
}
interface Content {
  role?: string;
  parts?: Part[];
}
interface Declaration {
  name?: string;
  description?: string;
  parameters?: JsonSchema;
}
export interface GenerateContentBody {
  contents?: Content[];
  systemInstruction?: Content;
  tools?: Array<{ functionDeclarations?: Declaration[] }>;
  toolConfig?: { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } };
  generationConfig?: {
    maxOutputTokens?: number;
    candidateCount?: number;
    responseMimeType?: string;
    responseSchema?: JsonSchema;
    thinkingConfig?: { thinkingBudget?: number; thinkingLevel?: string; includeThoughts?: boolean };
  };
}

const ROUTE = /^\/gemini\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
const STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};
/** Google's documented stand-in for a signature the caller does not have. */
const SKIP_SIGNATURE = "skip_thought_signature_validator";
/** The keywords of Gemini's Schema: any other is "Unknown name" at Gemini. */
const SCHEMA_KEYS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "items",
  "minItems",
  "maxItems",
  "properties",
  "required",
  "propertyOrdering",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "anyOf",
  "default",
  "example",
]);

/** A signature stands for the model's reasoning state; the fake's say which call they were issued for. */
export const fakeSignature = (name: string) => Buffer.from(`fake-thought:${name}`).toString("base64");

/** An error in Gemini's shape (a google.rpc.Status), with Retry-After and RetryInfo when asked for. */
function status(res: ServerResponse, code: number, message: string, d?: Directives, reason?: string): void {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const details: Array<Record<string, unknown>> = [];
  if (reason) details.push({ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "googleapis.com" });
  if (d?.retryAfterS !== undefined) {
    headers["retry-after"] = String(d.retryAfterS);
    details.push({ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${d.retryAfterS}s` });
  }
  res.writeHead(code, headers).end(JSON.stringify({ error: { code, message, status: STATUS[code] ?? "UNKNOWN", ...(details.length ? { details } : {}) } }));
}

const textOf = (parts: Part[] | undefined) =>
  (parts ?? [])
    .map((p) => p.text ?? "")
    .filter(Boolean)
    .join(" ");

/** What Gemini would refuse in a schema, as its message, or undefined. */
function schemaProblem(s: JsonSchema | undefined, at: string): string | undefined {
  if (!s || typeof s !== "object") return undefined;
  for (const k of Object.keys(s)) if (!SCHEMA_KEYS.has(k)) return `Invalid JSON payload received. Unknown name "${k}" at '${at}': Cannot find field.`;
  if (s.type !== undefined && (typeof s.type !== "string" || !/^(STRING|NUMBER|INTEGER|BOOLEAN|ARRAY|OBJECT)$/i.test(s.type))) return `Invalid value at '${at}.type': ${JSON.stringify(s.type)}`;
  if (s.type?.toUpperCase() === "OBJECT" && (!s.properties || Object.keys(s.properties).length === 0)) return `* ${at}.properties: should be non-empty for OBJECT type`;
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    const p = schemaProblem(v, `${at}.properties[${k}]`);
    if (p) return p;
  }
  for (const [i, v] of (s.anyOf ?? []).entries()) {
    const p = schemaProblem(v, `${at}.any_of[${i}]`);
    if (p) return p;
  }
  return schemaProblem(s.items, `${at}.items`);
}

/** What Gemini would refuse in the turns: function responses must answer the calls just before them; signatures must be real. */
function turnProblem(contents: Content[]): string | undefined {
  for (const [i, c] of contents.entries()) {
    for (const p of c.parts ?? []) {
      if (p.thoughtSignature !== undefined && p.thoughtSignature !== SKIP_SIGNATURE && !Buffer.from(p.thoughtSignature, "base64").toString().startsWith("fake-thought:")) {
        return `Thought signature is not valid (contents[${i}]).`;
      }
    }
    const responses = (c.parts ?? []).filter((p) => p.functionResponse).map((p) => p.functionResponse!.name);
    if (!responses.length) continue;
    const calls = (contents[i - 1]?.role === "model" ? (contents[i - 1]!.parts ?? []) : []).filter((p) => p.functionCall).map((p) => p.functionCall!.name);
    if (responses.length !== calls.length || responses.some((n) => !calls.includes(n))) {
      return `Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn (contents[${i}]).`;
    }
  }
  return undefined;
}

/** Handles the Gemini routes; false when the path is not one of them. */
export async function handleGemini(req: IncomingMessage, res: ServerResponse, path: string, body: unknown, apiKey: string | undefined): Promise<boolean> {
  const route = ROUTE.exec(path);
  if (!route) return false;
  if (apiKey && req.headers["x-goog-api-key"] !== apiKey) {
    // As Gemini answers: no key is a 403, a wrong one a 400 with reason API_KEY_INVALID.
    if (req.headers["x-goog-api-key"] === undefined)
      status(res, 403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
    else status(res, 400, "API key not valid. Please pass a valid API key.", undefined, "API_KEY_INVALID");
    return true;
  }
  const model = decodeURIComponent(route[1]!);
  const stream = route[2] === "streamGenerateContent";
  if (stream && !/[?&]alt=sse(&|$)/.test(req.url ?? "")) {
    status(res, 400, "The fake streams only with alt=sse.");
    return true;
  }
  if (req.method !== "POST" || !body || typeof body !== "object") {
    status(res, 400, "Invalid JSON payload received.");
    return true;
  }
  await generate(body as GenerateContentBody, model, stream, res);
  return true;
}

async function generate(body: GenerateContentBody, model: string, stream: boolean, res: ServerResponse): Promise<void> {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  const system = textOf(body.systemInstruction?.parts);
  const d = parseDirectives(model, [system, ...contents.map((c) => textOf(c.parts))].join("\n"));
  if (d.delayMs) await sleep(d.delayMs);
  if (res.destroyed) return;
  const failWith = flakyStatus(d);
  if (failWith !== undefined && failWith !== 200) return status(res, failWith, `fake upstream status ${failWith}`, d);
  if (!contents.length) return status(res, 400, "* GenerateContentRequest.contents: contents is not specified");
  const declarations = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
  const g = body.generationConfig ?? {};
  const problem =
    turnProblem(contents) ??
    declarations.map((f, i) => schemaProblem(f.parameters, `tools[0].function_declarations[${i}].parameters`)).find(Boolean) ??
    schemaProblem(g.responseSchema, "generation_config.response_schema");
  if (problem) return status(res, 400, problem);

  const last = contents.at(-1)!;
  const responses = (last.parts ?? []).filter((p) => p.functionResponse);
  const userText = stripMarkers(textOf(last.parts));
  const prompt =
    countTokens(stripMarkers(system)) + contents.reduce((n, c) => n + countTokens(stripMarkers(textOf(c.parts))) + (c.parts ?? []).filter((p) => p.inlineData || p.fileData).length * d.imageTokens, 0);
  const modelVersion = model.split("+")[0]!;
  const responseId = randomBytes(12).toString("base64url");

  if (d.block) {
    const blocked = {
      promptFeedback: { blockReason: d.block, safetyRatings: [{ category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH" }] },
      usageMetadata: { promptTokenCount: prompt, totalTokenCount: prompt },
      modelVersion,
      responseId,
    };
    if (!stream) return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(blocked));
    res.writeHead(200, { "content-type": "text/event-stream" }).end(`data: ${JSON.stringify(blocked)}\r\n\r\n`);
    return;
  }

  // A function call when the user spoke last and functions are callable (the allowed one when forced).
  const mode = body.toolConfig?.functionCallingConfig?.mode ?? "AUTO";
  const allowed = body.toolConfig?.functionCallingConfig?.allowedFunctionNames;
  const fn = last.role === "user" && !responses.length && mode !== "NONE" ? declarations.find((f) => !allowed?.length || allowed.includes(f.name ?? "")) : undefined;
  // A scripted call (`[[fake-call:NAME {…}]]`) of a declared function comes before the default pick.
  const scripted = fn
    ? scriptedCall(
        contents.map((c) => textOf(c.parts)).join("\n"),
        declarations.map((f) => f.name ?? ""),
      )
    : undefined;
  const call = scripted
    ? { name: scripted.name, args: scripted.args }
    : fn?.name
      ? { name: fn.name, args: mode === "ANY" && allowed?.length ? minimalInstance(fn.parameters, { text: userText, strict: true }) : { text: userText } }
      : undefined;
  const json = g.responseMimeType === "application/json";
  let reply: string;
  if (responses.length) {
    reply = `Tool said: ${responses.map((p) => (typeof p.functionResponse!.response?.output === "string" ? p.functionResponse!.response.output : JSON.stringify(p.functionResponse!.response?.output ?? p.functionResponse!.response))).join(" ")}`;
  } else if (json) reply = JSON.stringify(g.responseSchema ? minimalInstance(g.responseSchema, { text: userText, strict: true }) : { text: userText });
  else if (d.words !== undefined) reply = Array.from({ length: d.words }, (_, i) => `w${i}`).join(" ");
  else reply = d.reply ?? `Echo: ${userText}`;

  // Thinking when thinkingConfig asks for it (a non-zero budget or a level); thought summaries with includeThoughts.
  const tc = g.thinkingConfig;
  const thinking = tc !== undefined && (tc.thinkingLevel !== undefined || (tc.thinkingBudget ?? -1) !== 0);
  const thoughtText = thinking ? `Thinking about: ${userText}` : "";
  const limit = typeof g.maxOutputTokens === "number" && g.maxOutputTokens > 0 ? g.maxOutputTokens : undefined;
  let thoughts = d.reasoningTokens || countTokens(thoughtText);
  if (limit !== undefined) thoughts = Math.min(thoughts, limit);
  // JSON is one piece (never cut: a cut would not parse); text streams word by word.
  let pieces = json
    ? [reply]
    : reply
        .split(/\s+/)
        .filter(Boolean)
        .map((w, i) => (i === 0 ? w : ` ${w}`));
  let finish = "STOP";
  if (!call && !json && limit !== undefined && pieces.length > limit - thoughts) {
    pieces = pieces.slice(0, Math.max(0, limit - thoughts));
    finish = "MAX_TOKENS";
  }
  const n = typeof g.candidateCount === "number" && g.candidateCount > 1 ? g.candidateCount : 1;
  const perCandidate = call ? countTokens(JSON.stringify(call.args)) : json ? countTokens(reply) : pieces.length;
  const cached = Math.min(d.cachedTokens, prompt);
  const usage = (candidates: number) => ({
    promptTokenCount: prompt,
    candidatesTokenCount: candidates * n,
    totalTokenCount: prompt + (candidates + thoughts) * n,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: prompt }],
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts * n } : {}),
  });
  const usageOf = (candidates: number) => (d.noUsage ? {} : { usageMetadata: d.emptyUsage ? {} : usage(candidates) });
  const thoughtPart: Part[] = thinking && tc?.includeThoughts ? [{ text: thoughtText, thought: true }] : [];
  const callPart: Part | undefined = call ? { functionCall: call, thoughtSignature: fakeSignature(call.name) } : undefined;
  const candidates = (parts: Part[], finishReason?: string) => Array.from({ length: n }, (_, index) => ({ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}), index }));

  if (!stream) {
    if (d.malformed) return void res.writeHead(200, { "content-type": "application/json" }).end('{"candidates": [');
    const parts = [...thoughtPart, ...(callPart ? [callPart] : [{ text: pieces.join("") }])];
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ candidates: candidates(parts, finish), ...usageOf(perCandidate), modelVersion, responseId }));
    return;
  }

  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (parts: Part[], generated: number, finishReason?: string) =>
    res.write(`data: ${JSON.stringify({ candidates: candidates(parts, finishReason), ...usageOf(generated), modelVersion, responseId })}\r\n\r\n`);
  if (thoughtPart.length) send(thoughtPart, 0);
  if (callPart) {
    send([callPart], perCandidate, finish);
    res.end();
    return;
  }
  if (!pieces.length) pieces = [""];
  for (let i = 0; i < pieces.length; i++) {
    if (d.cutAfter !== undefined && i >= d.cutAfter) break;
    if (d.chunkDelayMs > 0) await sleep(d.chunkDelayMs);
    if (res.destroyed) return;
    if (d.malformed && i === 1) {
      res.write("data: {not json\r\n\r\n");
      continue;
    }
    const lastPiece = i === pieces.length - 1;
    // With `cut` the finishing chunk never comes.
    send([{ text: pieces[i]! }], json ? (lastPiece ? perCandidate : 0) : i + 1, lastPiece && d.cutAfter === undefined ? finish : undefined);
  }
  // The finish reason (and the final usage) came with the last chunk: Gemini just closes the stream.
  // `cut` closes it the same way, cleanly, before that chunk: only the missing finish says it broke off.
  res.end();
}
