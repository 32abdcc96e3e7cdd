import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, GatewayError } from "@gateway/errors";
import { costMinor, tokenLineItems } from "@gateway/pricing";
import { AnthropicStreamWriter, completionToMessage } from "../../translate/openai-to-anthropic.js";
import { ResponsesStreamWriter, completionToResponse } from "../../translate/responses-output.js";
import { SseParser } from "../sse.js";
import type { ChatRequestBody, ParsedStreamEvent, UpstreamTarget } from "../types.js";
import { newCallId, signatureOf } from "./call-id.js";
import { geminiChat } from "./chat.js";
import { SKIP_SIGNATURE, openAIToGemini } from "./request.js";

/**
 * Wire fixtures in the shapes Google's Gemini API reference documents (`generateContent` answers,
 * `streamGenerateContent?alt=sse` events, google.rpc.Status errors): thoughts, thought
 * signatures, cached prompts, parallel function calls, a blocked prompt.
 */
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");
const json = (name: string): unknown => JSON.parse(fixture(name));
const events = (name: string) => new SseParser().push(new TextEncoder().encode(fixture(name)));

const target = (upstream_model = "gemini-2.5-flash"): UpstreamTarget => ({
  provider: { code: "google", kind: "gemini", base_url: "https://generativelanguage.googleapis.com/v1beta/", credential_ref: "GEMINI_API_KEY", auth_header: "", max_connections: 0, http2: false },
  deployment: { provider: "google", upstream_model, priority: 0, weight: 1 },
  apiKey: "secret-g",
});
const body = (extra: Partial<ChatRequestBody> = {}): ChatRequestBody => ({ model: "gw-gemini", messages: [{ role: "user", content: "hi" }], ...extra });
const refused = (b: ChatRequestBody, param: string) =>
  expect(() => openAIToGemini(b, "gemini-2.5-flash")).toThrow(expect.objectContaining({ code: "invalid_request", context: expect.objectContaining({ param }) }));

interface Choice {
  message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> };
  finish_reason: string;
}
const choicesOf = (b: Record<string, unknown>) => b.choices as Choice[];

describe("the request: chat completions → generateContent", () => {
  it("goes to models/{model}:generateContent, or :streamGenerateContent?alt=sse, with the key in x-goog-api-key", () => {
    const plain = geminiChat.buildChatRequest(body(), target("models/gemini-2.5-flash"));
    expect(plain.url).toBe("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent");
    expect(plain.headers["x-goog-api-key"]).toBe("secret-g");
    expect(plain.headers.authorization).toBeUndefined();
    expect(geminiChat.buildChatRequest(body({ stream: true }), target()).url).toBe("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    // The stream flag is the URL's, not a body field.
    expect(JSON.parse(geminiChat.buildChatRequest(body({ stream: true }), target()).body!)).not.toHaveProperty("stream");
  });

  it("puts system and developer messages in systemInstruction and the turns in contents (user / model), images inline or by URI", () => {
    const out = openAIToGemini(
      body({
        messages: [
          { role: "system", content: "Be terse." },
          {
            role: "user",
            content: [
              { type: "text", text: "what is this" },
              { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
              { type: "image_url", image_url: { url: "https://example.com/cat.JPG?x=1" } },
            ],
          },
          { role: "assistant", content: "a cat" },
          { role: "developer", content: [{ type: "text", text: "Answer in French." }] },
          { role: "user", content: "and this?" },
          { role: "user", content: [{ type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } }] },
        ],
      }),
      "gemini-2.5-flash",
    );
    expect(out.systemInstruction).toEqual({ parts: [{ text: "Be terse." }, { text: "Answer in French." }] });
    expect(out.contents).toEqual([
      {
        role: "user",
        parts: [{ text: "what is this" }, { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }, { fileData: { fileUri: "https://example.com/cat.JPG?x=1", mimeType: "image/jpeg" } }],
      },
      { role: "model", parts: [{ text: "a cat" }] },
      // Consecutive user messages are one turn.
      { role: "user", parts: [{ text: "and this?" }, { inlineData: { mimeType: "audio/wav", data: "UklGRg==" } }] },
    ]);
    expect(out.generationConfig).toBeUndefined();
  });

  it("maps the sampling fields to generationConfig", () => {
    const out = openAIToGemini(
      body({
        temperature: 0.2,
        top_p: 0.9,
        stop: "END",
        max_tokens: 50,
        max_completion_tokens: 64,
        seed: 7,
        n: 2,
        presence_penalty: 0.5,
        frequency_penalty: -0.5,
        user: "u-1",
        store: false,
        metadata: { a: "b" },
        service_tier: "auto",
      }),
      "gemini-2.5-flash",
    );
    expect(out.generationConfig).toEqual({ temperature: 0.2, topP: 0.9, stopSequences: ["END"], maxOutputTokens: 64, seed: 7, candidateCount: 2, presencePenalty: 0.5, frequencyPenalty: -0.5 });
  });

  it("declares function tools with their parameters in Gemini's schema subset, and maps tool_choice", () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Weather for a place",
          strict: true,
          parameters: {
            $schema: "http://json-schema.org/draft-07/schema#",
            type: "object",
            additionalProperties: false,
            properties: {
              location: { type: "string", format: "uri-reference" },
              unit: { type: ["string", "null"], enum: ["celsius", "fahrenheit"] },
              days: { type: "integer", minimum: 1, exclusiveMaximum: 15 },
            },
            required: ["location", "unit", "missing"],
          },
        },
      },
      { type: "function", function: { name: "now", parameters: { type: "object", properties: {} } } },
    ];
    const out = openAIToGemini(body({ tools, tool_choice: { type: "function", function: { name: "get_weather" } } }), "gemini-2.5-flash");
    expect(out.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "get_weather",
            description: "Weather for a place",
            parameters: {
              type: "OBJECT",
              properties: { location: { type: "STRING" }, unit: { type: "STRING", nullable: true, enum: ["celsius", "fahrenheit"], format: "enum" }, days: { type: "INTEGER", minimum: 1 } },
              required: ["location", "unit"],
            },
          },
          // A function without parameters declares none: Gemini refuses an OBJECT without properties.
          { name: "now" },
        ],
      },
    ]);
    expect(out.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } });
    const mode = (tool_choice: unknown) => openAIToGemini(body({ tools, tool_choice }), "gemini-2.5-flash").toolConfig?.functionCallingConfig.mode;
    expect([mode("auto"), mode("none"), mode("required")]).toEqual([undefined, "NONE", "ANY"]);
    refused(body({ tools, tool_choice: { type: "function", function: { name: "other" } } }), "tool_choice");
    refused(body({ tool_choice: "required" }), "tool_choice");
    refused(body({ tools: [{ type: "custom", custom: { name: "x" } }] }), "tools[0]");
  });

  it("sends tool calls back as functionCall parts (signature on the part it came on) and tool results as functionResponse parts named after their call", () => {
    const signed = newCallId("CpcCAcu98PD/Nq9k+A==");
    const out = openAIToGemini(
      body({
        messages: [
          { role: "user", content: "weather in Boston and Paris?" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: signed, type: "function", function: { name: "get_weather", arguments: '{"location":"Boston"}' } },
              { id: "call_other", type: "function", function: { name: "get_time", arguments: "" } },
            ],
          },
          { role: "tool", tool_call_id: "call_other", content: "09:00" },
          { role: "tool", tool_call_id: signed, content: '{"temp": 21}' },
        ],
      }),
      "gemini-3-pro-preview",
    );
    expect(out.contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [{ functionCall: { name: "get_weather", args: { location: "Boston" } }, thoughtSignature: "CpcCAcu98PD/Nq9k+A==" }, { functionCall: { name: "get_time", args: {} } }],
      },
      // Every response of the step in the one turn after its calls; JSON outputs decoded.
      { role: "user", parts: [{ functionResponse: { name: "get_time", response: { output: "09:00" } } }, { functionResponse: { name: "get_weather", response: { output: { temp: 21 } } } }] },
    ]);
    refused(
      body({
        messages: [
          { role: "user", content: "x" },
          { role: "tool", tool_call_id: "nope", content: "1" },
        ],
      }),
      "messages[1].tool_call_id",
    );
    refused(body({ messages: [{ role: "assistant", content: null, tool_calls: [{ id: "a", function: { name: "f", arguments: "[1]" } }] }] }), "messages[0].tool_calls[0].function.arguments");
  });

  it("gives a Gemini 3 model Google's stand-in signature for a call it did not sign (another provider's, or the client's own)", () => {
    const history = body({
      messages: [
        { role: "user", content: "q" },
        { role: "assistant", content: null, tool_calls: [{ id: "toolu_01", type: "function", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "toolu_01", content: "r" },
      ],
    });
    const parts = (model: string) => openAIToGemini(history, model).contents[1]!.parts!;
    expect(parts("gemini-3-flash-preview")).toEqual([{ functionCall: { name: "f", args: {} }, thoughtSignature: SKIP_SIGNATURE }]);
    // Gemini 2.5 checks no signatures: nothing is made up for it.
    expect(parts("gemini-2.5-pro")).toEqual([{ functionCall: { name: "f", args: {} } }]);
  });

  it("turns response_format into JSON mode with the schema in Gemini's subset: refs inlined, nullable, properties in schema order", () => {
    const schema = {
      type: "object",
      additionalProperties: false,
      $defs: { Step: { type: "object", properties: { explanation: { type: "string" }, output: { type: "string" } }, required: ["explanation", "output"], additionalProperties: false } },
      properties: {
        steps: { type: "array", items: { $ref: "#/$defs/Step" }, minItems: 1 },
        final_answer: { anyOf: [{ type: "string" }, { type: "null" }] },
        confidence: { type: "number", format: "double" },
      },
      required: ["steps", "final_answer", "confidence"],
    };
    const g = openAIToGemini(body({ response_format: { type: "json_schema", json_schema: { name: "math", strict: true, schema } } }), "gemini-2.5-flash").generationConfig!;
    expect(g.responseMimeType).toBe("application/json");
    expect(g.responseSchema).toEqual({
      type: "OBJECT",
      properties: {
        steps: {
          type: "ARRAY",
          minItems: 1,
          items: { type: "OBJECT", properties: { explanation: { type: "STRING" }, output: { type: "STRING" } }, propertyOrdering: ["explanation", "output"], required: ["explanation", "output"] },
        },
        final_answer: { type: "STRING", nullable: true },
        confidence: { type: "NUMBER", format: "double" },
      },
      propertyOrdering: ["steps", "final_answer", "confidence"],
      required: ["steps", "final_answer", "confidence"],
    });
    expect(openAIToGemini(body({ response_format: { type: "json_object" } }), "gemini-2.5-flash").generationConfig).toEqual({ responseMimeType: "application/json" });
    const recursive = { type: "object", properties: { child: { $ref: "#" } }, $defs: {} };
    refused(
      body({
        response_format: {
          type: "json_schema",
          json_schema: { name: "r", schema: { ...recursive, properties: { child: { $ref: "#/$defs/Node" } }, $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } } } } },
        },
      }),
      "response_format.json_schema.schema",
    );
    refused(body({ response_format: { type: "json_schema", json_schema: { name: "r", schema: recursive } } }), "response_format.json_schema.schema");
  });

  it("maps reasoning_effort to a thinking budget (Gemini 2.x) or level (Gemini 3)", () => {
    const thinking = (effort: string, model: string) => openAIToGemini(body({ reasoning_effort: effort }), model).generationConfig?.thinkingConfig;
    expect(thinking("none", "gemini-2.5-flash")).toEqual({ thinkingBudget: 0 });
    expect(thinking("low", "gemini-2.5-flash")).toEqual({ thinkingBudget: 1024 });
    expect(thinking("medium", "gemini-2.5-pro")).toEqual({ thinkingBudget: 8192 });
    expect(thinking("high", "gemini-2.5-pro")).toEqual({ thinkingBudget: 24576 });
    expect(thinking("minimal", "gemini-3-pro-preview")).toEqual({ thinkingLevel: "low" });
    expect(thinking("high", "gemini-3-flash-preview")).toEqual({ thinkingLevel: "high" });
    refused(body({ reasoning_effort: "extreme" }), "reasoning_effort");
  });

  it("refuses what has no equivalent, naming the field", () => {
    refused(body({ logprobs: true }), "logprobs");
    refused(body({ top_logprobs: 3 }), "top_logprobs");
    refused(body({ logit_bias: { "1": 2 } }), "logit_bias");
    refused(body({ parallel_tool_calls: false }), "parallel_tool_calls");
    refused(body({ service_tier: "flex" }), "service_tier");
    refused(body({ modalities: ["text", "audio"] }), "modalities");
    refused(body({ messages: [{ role: "user", content: [{ type: "file", file: { file_id: "file-1" } }] }] }), "messages[0].content[0]");
    refused(body({ messages: [{ role: "function", content: "x" }] }), "messages[0].role");
    refused(body({ messages: [{ role: "system", content: "only a system prompt" }] }), "messages");
    expect(() => openAIToGemini(body({ logprobs: false, parallel_tool_calls: true }), "gemini-2.5-flash")).not.toThrow();
  });
});

describe("answers: generateContent → chat completion", () => {
  it("shows the text, not the thought summary, and bills the thinking as output and the cache reads as cached input", () => {
    const parsed = geminiChat.parseChatResponse(json("answer-thinking-cached.json"), "gw-gemini");
    const [choice] = choicesOf(parsed.body);
    expect(choice!.message.content).toBe("In double-entry bookkeeping every transaction is recorded twice: once as a debit and once as a credit of the same amount, so the books always balance.");
    expect(choice!.finish_reason).toBe("stop");
    expect(parsed.body).toMatchObject({ object: "chat.completion", model: "gw-gemini", id: "chatcmpl-kq1oaPicLbanqtsP0Yq3wQk" });
    // promptTokenCount includes the cached tokens; thoughts are not in candidatesTokenCount.
    expect(parsed.usage).toEqual({ input_tokens: 4381, output_tokens: 33 + 235, cached_input_tokens: 4096, reasoning_tokens: 235, estimated: false });
    expect(parsed.body.usage).toEqual({
      prompt_tokens: 4381,
      completion_tokens: 268,
      total_tokens: 4649,
      prompt_tokens_details: { cached_tokens: 4096 },
      completion_tokens_details: { reasoning_tokens: 235 },
    });
    // Gemini 2.5 Flash's prices: $0.30 input, $0.03 cached input, $2.50 output (thinking included) per million tokens.
    const prices = { input_price_minor_per_mtok: 300_000, cached_input_price_minor_per_mtok: 30_000, output_price_minor_per_mtok: 2_500_000 };
    expect(tokenLineItems(parsed.usage!, prices).map((i) => [i.item, i.quantity, i.unit_price_minor])).toEqual([
      ["input_tokens", 285, 300_000],
      ["cached_input_tokens", 4096, 30_000],
      ["output_tokens", 33, 2_500_000],
      ["reasoning_tokens", 235, 2_500_000],
    ]);
    // 285 × 0.3 + 4096 × 0.03 + 268 × 2.5 = 85.5 + 122.88 + 670 = 878.38 → 879
    expect(costMinor(parsed.usage!, prices)).toBe(879);
    // A Messages client sees the uncached prompt as input_tokens, the cache reads apart.
    expect(completionToMessage(parsed.body, "gw-gemini", parsed.usage!).usage).toMatchObject({ input_tokens: 285, cache_read_input_tokens: 4096, output_tokens: 268 });
  });

  it("turns parallel function calls into tool_calls whose ids carry the thought signature back", () => {
    const parsed = geminiChat.parseChatResponse(json("answer-function-call.json"), "gw-gemini");
    const [choice] = choicesOf(parsed.body);
    expect(choice!.finish_reason).toBe("tool_calls");
    expect(choice!.message.content).toBeNull();
    const calls = choice!.message.tool_calls!;
    expect(calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ["get_current_weather", { location: "Boston, MA", unit: "celsius" }],
      ["get_current_weather", { location: "Paris, France", unit: "celsius" }],
    ]);
    expect(calls.every((c) => /^call_[0-9a-f]{24}/.test(c.id) && /^[A-Za-z0-9_-]+$/.test(c.id))).toBe(true);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    // Only the first call was signed, as Gemini signs parallel calls.
    expect(signatureOf(calls[0]!.id)).toBe(
      (json("answer-function-call.json") as { candidates: Array<{ content: { parts: Array<{ thoughtSignature?: string }> } }> }).candidates[0]!.content.parts[0]!.thoughtSignature,
    );
    expect(signatureOf(calls[1]!.id)).toBeUndefined();
    // The conversation continued through the gateway gives Gemini the signature on the same part.
    const next = openAIToGemini(
      body({ messages: [{ role: "user", content: "weather?" }, { role: "assistant", ...choice!.message }, ...calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: "sunny" }))] }),
      "gemini-3-flash-preview",
    );
    expect(next.contents[1]!.parts!.map((p) => p.thoughtSignature)).toEqual([signatureOf(calls[0]!.id), undefined]);
    expect(next.contents[2]!.parts!.map((p) => p.functionResponse?.name)).toEqual(["get_current_weather", "get_current_weather"]);
    // A Messages client gets the calls as tool_use blocks with the same ids.
    expect((completionToMessage(parsed.body, "gw-gemini", parsed.usage).content as Array<{ id: string }>).map((b) => b.id)).toEqual(calls.map((c) => c.id));
    expect(completionToResponse(parsed.body, parsed.usage, { id: "resp_1", createdAt: 0, model: "gw-gemini", request: {} }).output).toHaveLength(2);
  });

  it("reports a candidate stopped by a safety filter as content_filter", () => {
    const parsed = geminiChat.parseChatResponse(json("answer-safety.json"), "gw-gemini");
    expect(choicesOf(parsed.body)[0]).toMatchObject({ message: { content: "" }, finish_reason: "content_filter" });
    expect(parsed.usage).toMatchObject({ input_tokens: 14, output_tokens: 0 });
  });

  it("answers a blocked prompt with a 400 naming the block reason", () => {
    const err = (() => {
      try {
        geminiChat.parseChatResponse(json("prompt-blocked.json"), "gw-gemini");
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ code: "invalid_request", context: { param: "messages" } });
    expect((err as GatewayError).message).toContain("SAFETY");
    expect(ERROR_CODES[(err as GatewayError).code].http).toBe(400);
  });
});

describe("streams: streamGenerateContent?alt=sse → chat chunks", () => {
  const parseAll = (name: string, request?: ChatRequestBody) => {
    const parse = geminiChat.streamParser("gw-gemini", "gemini-2.5-flash", request);
    const parsed: ParsedStreamEvent[] = events(name).map((e) => parse(e.data));
    return { parse, parsed };
  };

  it("forwards text deltas with one id, the role first, usage from the finishing chunk, and ends complete when the connection closes", () => {
    const { parse, parsed } = parseAll("stream-thinking-cached.sse");
    // The thought-only chunk shows nothing but counts.
    expect(parsed[0]!.forward).toBeUndefined();
    expect(parsed[0]!.text).toContain("Counting the primes");
    const chunks = parsed
      .filter((p) => p.forward)
      .map((p) => JSON.parse(p.forward!) as { id: string; model: string; choices: Array<{ delta: { role?: string; content?: string }; finish_reason: string | null }> });
    expect(new Set(chunks.map((c) => c.id))).toEqual(new Set(["chatcmpl-bq5paNOdC4Ciz7IPs5vTgAs"]));
    expect(chunks.every((c) => c.model === "gw-gemini")).toBe(true);
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: "assistant", content: "The primes below ten are 2, 3, 5" });
    expect(chunks.map((c) => c.choices[0]!.delta.content ?? "").join("")).toBe("The primes below ten are 2, 3, 5 and 7: four of them.");
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
    // Usage grows on every chunk; only the finished answer's is billed.
    expect(parsed.filter((p) => p.usage)).toHaveLength(1);
    const last = parsed.at(-1)!;
    expect(last.usage).toEqual({ input_tokens: 2071, output_tokens: 19 + 311, cached_input_tokens: 1920, reasoning_tokens: 311, estimated: false });
    expect(JSON.parse(last.usageForward!)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 2071, completion_tokens: 330, prompt_tokens_details: { cached_tokens: 1920 }, completion_tokens_details: { reasoning_tokens: 311 } },
    });
    // No [DONE]: the stream is complete because the last chunk finished.
    expect(parsed.some((p) => p.done)).toBe(false);
    expect(parse.end?.()).toMatchObject({ done: true, usage: last.usage });
  });

  it("a stream cut before the finishing chunk is broken, not complete", () => {
    const parse = geminiChat.streamParser("gw-gemini", "gemini-2.5-flash");
    for (const e of events("stream-thinking-cached.sse").slice(0, -1)) parse(e.data);
    expect(parse.end?.()).toBeUndefined();
  });

  it("streams a function call as one tool_call delta (index, signed id, name, arguments) and finishes with tool_calls", () => {
    const { parse, parsed } = parseAll("stream-function-call.sse");
    const chunk = JSON.parse(parsed[0]!.forward!) as {
      choices: Array<{ delta: { role?: string; tool_calls: Array<{ index: number; id: string; type: string; function: { name: string; arguments: string } }> }; finish_reason: string }>;
    };
    const [call] = chunk.choices[0]!.delta.tool_calls;
    expect(call).toMatchObject({ index: 0, type: "function", function: { name: "get_current_weather", arguments: '{"location":"Boston, MA"}' } });
    expect(signatureOf(call!.id)).toBe("EtYCCtMCAcu98PA/W5EO7nxsGk6cZoG/q2R3JUg1ZozcCIBMNKb2ZSm+hVfU8bHyQAVnMBb+1Ndp");
    expect(chunk.choices[0]!.finish_reason).toBe("tool_calls");
    expect(parsed[0]!.text).toBe('{"location":"Boston, MA"}');
    expect(parsed[0]!.usage).toEqual({ input_tokens: 64, output_tokens: 18 + 97, cached_input_tokens: 0, reasoning_tokens: 97, estimated: false });
    expect(parse.end?.()?.done).toBe(true);
  });

  it("reads as a Messages stream and a Responses stream through the chat chunks", () => {
    const anthropic = new AnthropicStreamWriter("gw-gemini");
    const responses = new ResponsesStreamWriter({ id: "resp_1", createdAt: 0, model: "gw-gemini", request: {} });
    let a = "";
    let r = "";
    for (const p of parseAll("stream-function-call.sse").parsed.concat(parseAll("stream-thinking-cached.sse").parsed.slice(0, 1))) {
      if (!p.chunk) continue;
      a += anthropic.chunk(p.chunk as never);
      r += responses.chunk(p.chunk);
    }
    const usage = { input_tokens: 64, output_tokens: 115, cached_input_tokens: 0, reasoning_tokens: 97, estimated: false };
    a += anthropic.end(usage);
    r += responses.end(usage);
    const frames = (s: string) => new SseParser().push(new TextEncoder().encode(s));
    const start = frames(a).find((e) => e.event === "content_block_start")!;
    expect(JSON.parse(start.data)).toMatchObject({ content_block: { type: "tool_use", name: "get_current_weather" } });
    expect(JSON.parse(frames(a).find((e) => e.event === "message_delta")!.data)).toMatchObject({ delta: { stop_reason: "tool_use" } });
    const completed = JSON.parse(frames(r).at(-1)!.data) as { type: string; response: { output: Array<{ type: string; arguments: string }> } };
    expect(completed.type).toBe("response.completed");
    expect(completed.response.output).toMatchObject([{ type: "function_call", arguments: '{"location":"Boston, MA"}' }]);
  });

  it("fails on an error event and on a blocked prompt, and finishes only when every candidate asked for finished", () => {
    const parse = geminiChat.streamParser("gw-gemini", "gemini-2.5-flash");
    expect(() => parse(fixture("error-overloaded.json"))).toThrow(expect.objectContaining({ code: "upstream_error" }));
    expect(() => geminiChat.streamParser("gw-gemini", "m")(fixture("prompt-blocked.json"))).toThrow(expect.objectContaining({ code: "invalid_request" }));
    const two = geminiChat.streamParser("gw-gemini", "m", body({ n: 2 }));
    const finishing = (index: number) =>
      JSON.stringify({ candidates: [{ index, content: { role: "model", parts: [{ text: "x" }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2 } });
    expect(two(finishing(0)).usage).toBeUndefined();
    expect(two.end?.()).toBeUndefined();
    const last = two(finishing(1));
    expect(last.usage).toMatchObject({ input_tokens: 3, output_tokens: 2 });
    expect(JSON.parse(last.forward!).choices[0]).toMatchObject({ index: 1, delta: { role: "assistant", content: "x" }, finish_reason: "stop" });
    expect(two.end?.()?.done).toBe(true);
  });
});

describe("errors: google.rpc.Status → the gateway's", () => {
  const map = (status: number, name: string, retryAfter?: string) => geminiChat.mapError(status, fixture(name), retryAfter);

  it("rate limits and overload are retryable, with Google's RetryInfo as the delay when no Retry-After came", () => {
    expect(map(429, "error-quota.json")).toMatchObject({ code: "model_unavailable", context: { retry_after_s: 37 } });
    expect(map(429, "error-quota.json", "5")).toMatchObject({ context: { retry_after_s: 5 } });
    expect(map(503, "error-overloaded.json")).toMatchObject({ code: "upstream_error", message: expect.stringContaining("overloaded") });
  });

  it("an invalid key (a 400 at Gemini) is the gateway's credential problem, an unknown model a provider error, the rest the client's request", () => {
    expect(map(400, "error-api-key-invalid.json")).toMatchObject({ code: "upstream_error", message: "The provider rejected the gateway's credentials for this model." });
    expect(map(404, "error-model-not-found.json")).toMatchObject({ code: "upstream_error", message: expect.stringContaining("gemini-9.9-ultra") });
    expect(map(400, "error-invalid-argument.json")).toMatchObject({ code: "invalid_request", message: expect.stringContaining("stop sequences") });
    expect(geminiChat.mapError(502, "<html>bad gateway</html>", undefined)).toMatchObject({ code: "upstream_error" });
  });
});
