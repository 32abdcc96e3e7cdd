import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import { parseRulesDocument } from "@gateway/guardrails";
import { TextCollector } from "../guardrails/index.js";
import type { ChatRequestBody, ResponsesRequestBody } from "../providers/index.js";
import { translateFor } from "../translate/pairs/index.js";
import { responsesToChat } from "../translate/responses.js";
import { serveChat } from "./chat.js";
import { end, endCall } from "./ending.js";
import type { ServedAnswer, ServedStream } from "./route.js";
import {
  SSE_DONE,
  anthropicEvent,
  chatContent,
  dataOf,
  gate,
  jsonReply,
  nextTurn,
  openAIChunk,
  openAICompletion,
  sse,
  sseReply,
  testbed,
  type Bed,
  type BedOptions,
  type Read,
} from "./testing/scripted-upstream.js";

const BODY_BYTES = 400; // the prompt estimate: 100 tokens

const chatBody = (o: Partial<ChatRequestBody> = {}): ChatRequestBody => ({ model: "gw-chat", messages: [{ role: "user", content: "Say hello" }], stream: true, ...o });

async function serve(bed: Bed, body: ChatRequestBody) {
  const call = bed.call(body, BODY_BYTES);
  const served = await serveChat(bed.ctx, call, { routes: translateFor("chat", bed.planned, { body, model: bed.model }), stream: body.stream === true });
  return { call, served };
}

/** serveChat then end(), for a stream: what the client got and what was billed is on the bed. */
async function streamed(o: BedOptions, body = chatBody()): Promise<Bed> {
  const bed = testbed(o);
  const { call, served } = await serve(bed, body);
  expect(served.kind).toBe("stream");
  await end(bed.ctx, "chat", call, served);
  return bed;
}

const role = sse(openAIChunk({ role: "assistant", content: "" }));
const word = (w: string) => sse(openAIChunk({ content: w }));

/** An output rule checked window by window on streams (as the control-plane normalizes it). */
const windowRule = (rule: Record<string, unknown>) => parseRulesDocument(JSON.stringify({ rules: [{ stage: "output", streaming: "window", action: "deny", ...rule }] }));

describe("end: an output guardrail refusing a stream (window mode)", () => {
  it("mid-stream: the frames before the refused piece, then the stream's error frame; billed with status 400", async () => {
    const reads: Read[] = [role, word("The answer"), word(" is "), word("forbidden knowledge"), word(" and more"), sse(openAIChunk({ finish: "stop" })), SSE_DONE];
    const bed = testbed({ script: [sseReply(reads)], guardrails: windowRule({ name: "no-secrets", plugin: "keywords", config: { words: ["forbidden"] } }) });
    const { call, served } = await serve(bed, chatBody());
    await end(bed.ctx, "chat", call, served);

    expect(chatContent(bed.res.received)).toBe("The answer is ");
    expect(bed.res.received).not.toContain("forbidden");
    expect(bed.res.received).not.toContain("[DONE]");
    expect(bed.res.statusCode).toBe(200); // the stream had started
    const error = dataOf(bed.res.ended!) as Array<{ error: { code: string; type: string; message: string } }>;
    expect(error).toHaveLength(1);
    expect(error[0]!.error).toMatchObject({ code: "guardrail_denied", type: "invalid_request_error", message: "Output blocked by guardrail 'no-secrets' (keywords): contains a blocked word." });
    expect(bed.upstream.calls[0]!.body!.destroyed).toBe(true);
    expect(bed.upstream.calls[0]!.body!.delivered).toBe(4); // nothing read after the refused piece
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 400, stream: true, guardrails: [{ plugin: "keywords", name: "no-secrets", outcome: "denied" }] });
    // No usage came: what the model generated is counted, the refused piece included
    // ("The answer is forbidden knowledge", 33 characters: 9 tokens), as the provider charges it.
    expect(bed.published[0]!.usage).toMatchObject({ input_tokens: 100, output_tokens: 9, estimated: true });
    expect(bed.settled).toEqual([100 + 2 * 9]);
  });

  it("the refused piece in the same read as allowed frames: those frames go out first, then the error", async () => {
    const reads: Read[] = [role, word("Fine") + word(" text") + word(" FORBIDDEN") + word(" never sent"), SSE_DONE];
    const bed = await streamed({ script: [sseReply(reads)], guardrails: windowRule({ plugin: "keywords", config: { words: ["forbidden"] } }) });
    expect(chatContent(bed.res.received)).toBe("Fine text");
    // The allowed frames of that read go out with the error frame, which is last.
    expect((dataOf(bed.res.ended!).at(-1) as { error: { code: string } }).error.code).toBe("guardrail_denied");
    expect(bed.published.map((e) => e.status)).toEqual([400]);
  });

  it("in the very first frame: no stream starts, end() throws the 400, billed with status 400, not retried", async () => {
    const reads: Read[] = [sse(openAIChunk({ role: "assistant", content: "my secret is 1234" })), word(" more"), SSE_DONE];
    const bed = testbed({ script: [sseReply(reads), sseReply(reads)], retries: 1, guardrails: windowRule({ plugin: "regex", config: { patterns: ["secret is \\d+"] } }) });
    const { call, served } = await serve(bed, chatBody());
    expect(served.kind).toBe("stream");
    expect((served as ServedStream).stream.pending.empty).toBe(true);

    const err = await end(bed.ctx, "chat", call, served).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).code).toBe("guardrail_denied");
    expect((err as GatewayError).httpStatus).toBe(400);
    expect(bed.upstream.calls).toHaveLength(1);
    expect(bed.res.writeHeadCalls).toBe(0);
    expect(bed.res.headersSent).toBe(false); // the error handler can still answer 400
    expect(bed.res.frames).toEqual([]);
    expect(bed.res.endCalls).toBe(0);
    expect(bed.upstream.calls[0]!.body!.destroyed).toBe(true);
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 400, stream: true, guardrails: [{ plugin: "regex", outcome: "denied" }], usage: { input_tokens: 100, output_tokens: 5, estimated: true } });
    expect(bed.settled).toEqual([110]);
  });
});

/**
 * Output rules check the answer's content (docs/guardrails.md, "What runs where": chat completions'
 * output is "choices' message content"). Through the Anthropic chat adapter, thinking is counted
 * for billing but never shown to a chat client.
 */
describe("end: output guardrails and text the client never sees", () => {
  const rules = windowRule({ plugin: "keywords", config: { words: ["forbidden"] } });
  const thinking = "Is this about forbidden topics? No.";

  it("a whole answer: its thinking is not checked, the content passes", async () => {
    const message = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "alpha-model",
      content: [
        { type: "thinking", thinking, signature: "sig" },
        { type: "text", text: "Hello" },
      ],
      stop_reason: "end_turn",
      usage: { input_tokens: 20, output_tokens: 12 },
    };
    const bed = testbed({ script: [jsonReply(message)], deployments: [{ code: "alpha", kind: "anthropic" }], guardrails: rules });
    const { call, served } = await serve(bed, chatBody({ stream: false }));
    await end(bed.ctx, "chat", call, served);
    expect((JSON.parse(bed.res.ended!) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe("Hello");
    expect(bed.published[0]).toMatchObject({ status: 200, guardrails: [{ plugin: "keywords", outcome: "pass" }] });
  });

  // The window-mode guard reads what is sent, not what is counted for billing: hidden thinking (and
  // text beside a structured answer) never reaches the client, as in the answer above.
  it("a stream: hidden thinking containing a blocked word does not refuse the stream", async () => {
    const reads: Read[] = [
      anthropicEvent({ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "alpha-model", content: [], usage: { input_tokens: 20, output_tokens: 1 } } }),
      anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } }),
      anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking } }),
      anthropicEvent({ type: "content_block_stop", index: 0 }),
      anthropicEvent({ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } }),
      anthropicEvent({ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Hello" } }),
      anthropicEvent({ type: "content_block_stop", index: 1 }),
      anthropicEvent({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 12 } }),
      anthropicEvent({ type: "message_stop" }),
    ];
    const bed = await streamed({ script: [sseReply(reads)], deployments: [{ code: "alpha", kind: "anthropic" }], guardrails: rules });
    expect(bed.res.received).not.toContain("forbidden");
    expect(chatContent(bed.res.received)).toBe("Hello");
    expect(bed.res.ended).toBe(SSE_DONE);
    expect(bed.published[0]).toMatchObject({ status: 200, guardrails: [{ plugin: "keywords", outcome: "pass" }] });
  });
});

describe("end: the usage billed for a stream, wherever the provider put it", () => {
  it("usage in the final chunk that still has choices (forwarded with it)", async () => {
    const usage = { prompt_tokens: 1117, completion_tokens: 2, total_tokens: 1119, prompt_tokens_details: { cached_tokens: 1024 }, completion_tokens_details: { reasoning_tokens: 0 } };
    const bed = await streamed({ script: [sseReply([role, word("Hello"), sse(openAIChunk({ content: " there", finish: "stop", usage })), SSE_DONE])] });

    expect(chatContent(bed.res.received)).toBe("Hello there");
    expect(bed.res.ended).toBe(SSE_DONE);
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]!.usage).toEqual({
      input_tokens: 1117,
      output_tokens: 2,
      cached_input_tokens: 1024,
      cache_creation_input_tokens: 0,
      reasoning_tokens: 0,
      estimated: false,
      basis: "reported",
    });
    // 93 uncached + 1024 cached input at 1, 2 output at 2.
    expect(bed.published[0]!.cost_minor).toBe(1117 + 4);
    expect(bed.settled).toEqual([1121]);
  });

  const usageOnly = { prompt_tokens: 1290, completion_tokens: 452, prompt_tokens_details: { cached_tokens: 1152 }, completion_tokens_details: { reasoning_tokens: 448 } };
  const afterFinish = () => sseReply([role, word("Forty-two."), sse(openAIChunk({ finish: "stop" })), sse(openAIChunk({ noChoices: true, usage: usageOnly })), SSE_DONE]);

  it("usage in a usage-only chunk after the finish: billed; withheld from a client that did not ask for it", async () => {
    const bed = await streamed({ script: [afterFinish()] });
    expect(chatContent(bed.res.received)).toBe("Forty-two.");
    expect(bed.res.received).not.toContain('"usage"');
    expect(bed.published[0]!.usage).toEqual({
      input_tokens: 1290,
      output_tokens: 452,
      cached_input_tokens: 1152,
      cache_creation_input_tokens: 0,
      reasoning_tokens: 448,
      estimated: false,
      basis: "reported",
    });
    expect(bed.published[0]!.cost_minor).toBe(1290 + 2 * 452);
  });

  it("the same usage-only chunk is forwarded to a client that asked (stream_options.include_usage), before [DONE]", async () => {
    const bed = await streamed({ script: [afterFinish()] }, chatBody({ stream_options: { include_usage: true } }));
    const data = dataOf(bed.res.received);
    expect(data.at(-1)).toBe("[DONE]");
    expect(data.at(-2)).toMatchObject({ model: "gw-chat", choices: [], usage: { prompt_tokens: 1290, completion_tokens: 452 } });
    expect(bed.published[0]!.usage).toMatchObject({ input_tokens: 1290, output_tokens: 452, estimated: false });
  });

  const noUsage: Array<[string, Read]> = [
    ["no usage at all", sse(openAIChunk({ finish: "stop" }))],
    ["an all-zero usage", sse(openAIChunk({ finish: "stop", usage: { prompt_tokens: 0, completion_tokens: 0 } }))],
  ];

  it.each(noUsage)("%s: estimated, counted from the delivered text", async (_what, finish) => {
    const bed = await streamed({ script: [sseReply([role, word("Hello"), word(" there,"), word(" friend"), finish, SSE_DONE])] });
    expect(chatContent(bed.res.received)).toBe("Hello there, friend");
    expect(bed.res.ended).toBe(SSE_DONE);
    // 19 characters: 5 tokens; the prompt at 4 bytes per token.
    expect(bed.published[0]!.usage).toEqual({ input_tokens: 100, output_tokens: 5, cached_input_tokens: 0, cache_creation_input_tokens: 0, reasoning_tokens: 0, estimated: true, basis: "estimated" });
    expect(bed.published[0]!.cost_minor).toBe(110);
    expect(bed.published[0]!.status).toBe(200);
  });

  const anthropicStream = () =>
    sseReply([
      anthropicEvent({
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "alpha-model",
          content: [],
          usage: { input_tokens: 25, cache_read_input_tokens: 10, cache_creation_input_tokens: 5, output_tokens: 1 },
        },
      }),
      anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
      anthropicEvent({ type: "ping" }),
      anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } }),
      anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: " there" } }),
      anthropicEvent({ type: "content_block_stop", index: 0 }),
      anthropicEvent({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 15 } }),
      anthropicEvent({ type: "message_stop" }),
    ]);

  it("Anthropic usage split between message_start and message_delta (through the chat adapter)", async () => {
    const bed = await streamed({ script: [anthropicStream()], deployments: [{ code: "alpha", kind: "anthropic" }] });
    expect(chatContent(bed.res.received)).toBe("Hi there");
    expect(bed.res.ended).toBe(SSE_DONE);
    expect(bed.res.received).not.toContain('"usage"');
    // Cache reads and writes are prompt tokens too: 25 + 10 + 5.
    expect(bed.published[0]!.usage).toEqual({ input_tokens: 40, output_tokens: 15, cached_input_tokens: 10, cache_creation_input_tokens: 5, reasoning_tokens: 0, estimated: false, basis: "reported" });
    expect(bed.published[0]!.cost_minor).toBe(40 + 2 * 15);
  });

  it("Anthropic usage, forwarded in the chat shape to a client that asked for it", async () => {
    const bed = await streamed({ script: [anthropicStream()], deployments: [{ code: "alpha", kind: "anthropic" }] }, chatBody({ stream_options: { include_usage: true } }));
    const data = dataOf(bed.res.received);
    expect(data.at(-2)).toMatchObject({ choices: [], usage: { prompt_tokens: 40, completion_tokens: 15, total_tokens: 55, prompt_tokens_details: { cached_tokens: 10 } } });
  });
});

describe("end: a whole answer (the answer executor)", () => {
  const usage = { prompt_tokens: 30, completion_tokens: 7 };

  it("a 200 after one 429 with Retry-After 0: one retry, the answer sent after its usage event", async () => {
    const bed = testbed({ script: [jsonReply({ error: { message: "slow down" } }, { status: 429, headers: { "retry-after": "0" } }), jsonReply(openAICompletion("Hello!", usage))], retries: 2 });
    const { call, served } = await serve(bed, chatBody({ stream: false }));
    expect(served.kind).toBe("answer");
    expect(bed.upstream.calls).toHaveLength(2);
    expect(bed.attempts.map((a) => a.outcome)).toEqual(["model_unavailable", "ok"]);
    expect(bed.state.served).toMatchObject({ provider: "alpha", upstreamModel: "alpha-model", retries: 1, fallbacks: [] });
    await end(bed.ctx, "chat", call, served);

    expect(bed.res.statusCode).toBe(200);
    expect(bed.res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(bed.res.headers["x-gateway-retry-count"]).toBe("1");
    expect(JSON.parse(bed.res.ended!)).toEqual({ ...openAICompletion("Hello!", usage), model: "gw-chat" });
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 200, stream: false, usage: { input_tokens: 30, output_tokens: 7, estimated: false }, cost_minor: 44 });
    expect(bed.settled).toEqual([44]);
    expect(bed.timeline.indexOf("publish")).toBeLessThan(bed.timeline.indexOf("end"));
  });

  it("a 429 whose Retry-After is beyond the retry cap is not retried there: the next deployment answers", async () => {
    const bed = testbed({
      script: [jsonReply({ error: { message: "slow down" } }, { status: 429, headers: { "retry-after": "60" } }), jsonReply(openAICompletion("From beta", usage, "beta-model"))],
      deployments: [
        { code: "alpha", kind: "openai-compatible" },
        { code: "beta", kind: "openai-compatible" },
      ],
      retries: 2,
    });
    const { call, served } = await serve(bed, chatBody({ stream: false }));
    await end(bed.ctx, "chat", call, served);
    expect(bed.upstream.calls.map((c) => c.provider)).toEqual(["alpha", "beta"]);
    expect(bed.state.served).toMatchObject({ provider: "beta", upstreamModel: "beta-model", retries: 0, fallbacks: ["alpha"] });
    expect((JSON.parse(bed.res.ended!) as { model: string }).model).toBe("gw-chat");
    expect(bed.published[0]).toMatchObject({ provider: "beta", status: 200 });
  });

  it("the answer waits for its usage event to be durable", async () => {
    const durable = gate();
    const bed = testbed({ script: [jsonReply(openAICompletion("Hello!", usage))], publishGate: durable.promise });
    const { call, served } = await serve(bed, chatBody({ stream: false }));
    const ending = end(bed.ctx, "chat", call, served);
    await nextTurn();
    expect(bed.published).toHaveLength(1);
    expect(bed.res.endCalls).toBe(0);
    expect(bed.settled).toEqual([]);
    durable.release();
    await ending;
    expect(bed.timeline.slice(-3)).toEqual(["durable", "settle", "end"]);
  });

  it("a client gone during the attempt: the attempt runs to its end, billed with status 499, nothing written", async () => {
    const held = gate();
    const bed = testbed({ script: [jsonReply(openAICompletion("Too late", usage), { gate: held.promise })] });
    const serving = serve(bed, chatBody({ stream: false }));
    const upstreamCall = await bed.upstream.called(1);
    bed.res.leave();
    held.release();
    const { call, served } = await serving;
    expect(upstreamCall.signal.aborted).toBe(false); // the provider call is not cancelled: it charges anyway
    await end(bed.ctx, "chat", call, served);

    expect(bed.upstream.calls).toHaveLength(1);
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 499, stream: false, usage: { input_tokens: 30, output_tokens: 7, estimated: false } });
    expect(bed.settled).toEqual([44]);
    expect(bed.res.endCalls).toBe(0);
    expect(bed.res.frames).toEqual([]);
    expect(bed.res.headers["content-type"]).toBeUndefined();
  });
});

/** The text of a Responses stream's output_text deltas. */
function responsesText(text: string): string {
  return (dataOf(text) as Array<{ type?: string; delta?: string }>)
    .filter((e) => e.type === "response.output_text.delta")
    .map((e) => e.delta)
    .join("");
}

describe("end: the Responses keep() path", () => {
  const responsesBody: ResponsesRequestBody = { model: "gw-chat", input: "Say hello", store: true };

  /** serveChat for /v1/responses over an OpenAI-compatible deployment (translated through chat), with a recording keep. */
  async function serveResponses(bed: Bed, body: ResponsesRequestBody, keep: (response: Record<string, unknown>) => Promise<boolean>) {
    const echo = { id: "resp_test", createdAt: 1_700_000_000, model: bed.model.id, request: body };
    const routes = translateFor("responses", bed.planned, { body, chat: () => responsesToChat(body), echo, keep, headers: { version: undefined, beta: undefined }, model: bed.model });
    const call = bed.call(body, BODY_BYTES);
    const served = await serveChat(bed.ctx, call, { routes, stream: body.stream === true });
    return { call, served };
  }

  it("an answer is stored (keep awaited) before it is sent, and says it was", async () => {
    const held = gate();
    const bed = testbed({ script: [jsonReply(openAICompletion("Hello!", { prompt_tokens: 30, completion_tokens: 7 }))] });
    const kept: Array<Record<string, unknown>> = [];
    const keepCalled = gate();
    const { call, served } = await serveResponses(bed, responsesBody, async (response) => {
      kept.push(response);
      bed.timeline.push("keep");
      keepCalled.release();
      await held.promise;
      bed.timeline.push("kept");
      return true;
    });
    expect(served.kind).toBe("answer");
    expect((served as ServedAnswer).keep).toBeDefined();
    expect(bed.upstream.calls[0]!.request.url).toBe("https://alpha.example/v1/chat/completions");
    expect(bed.upstream.sentBody(1)).toMatchObject({ model: "alpha-model", messages: [{ role: "user", content: "Say hello" }] });

    const ending = end(bed.ctx, "responses", call, served);
    await keepCalled.promise;
    await nextTurn();
    // Billed, but held while storing.
    expect(bed.published).toHaveLength(1);
    expect(bed.settled).toHaveLength(1);
    expect(bed.res.endCalls).toBe(0);
    held.release();
    await ending;

    expect(bed.timeline.indexOf("kept")).toBeLessThan(bed.timeline.indexOf("end"));
    expect(bed.timeline.indexOf("publish")).toBeLessThan(bed.timeline.indexOf("end"));
    const answer = JSON.parse(bed.res.ended!) as Record<string, unknown>;
    expect(answer).toMatchObject({ id: "resp_test", object: "response", status: "completed", model: "gw-chat", store: true, usage: { input_tokens: 30, output_tokens: 7 } });
    expect(kept).toHaveLength(1);
    expect(kept[0]!.id).toBe("resp_test");
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ route: "responses", status: 200 });
  });

  it("an answer that could not be stored still goes out, saying store: false", async () => {
    const bed = testbed({ script: [jsonReply(openAICompletion("Hello!", { prompt_tokens: 30, completion_tokens: 7 }))] });
    const { call, served } = await serveResponses(bed, responsesBody, async () => false);
    await end(bed.ctx, "responses", call, served);
    expect(JSON.parse(bed.res.ended!)).toMatchObject({ object: "response", store: false });
  });

  it("a stream's complete answer is stored after its usage event and before its last frame (response.completed)", async () => {
    const held = gate();
    const keepCalled = gate();
    const bed = testbed({
      script: [sseReply([role, word("Hel"), word("lo"), sse(openAIChunk({ finish: "stop" })), sse(openAIChunk({ noChoices: true, usage: { prompt_tokens: 30, completion_tokens: 2 } })), SSE_DONE])],
    });
    const { call, served } = await serveResponses(bed, { ...responsesBody, stream: true }, async (response) => {
      expect(response).toMatchObject({ id: "resp_test", status: "completed" });
      keepCalled.release();
      await held.promise;
      bed.timeline.push("kept");
      return true;
    });
    const ending = end(bed.ctx, "responses", call, served);
    await keepCalled.promise;
    await nextTurn();
    // Relayed and billed; the last frame waits for the store.
    expect(responsesText(bed.res.received)).toBe("Hello");
    expect(bed.settled).toHaveLength(1);
    expect(bed.res.endCalls).toBe(0);
    expect(bed.res.received).not.toContain("response.completed");
    held.release();
    await ending;

    const events = dataOf(bed.res.received) as Array<{ type: string; response?: Record<string, unknown> }>;
    expect(events.at(-1)).toMatchObject({ type: "response.completed", response: { id: "resp_test", store: true, usage: { input_tokens: 30, output_tokens: 2 } } });
    expect(bed.timeline.indexOf("publish")).toBeLessThan(bed.timeline.indexOf("kept"));
    expect(bed.timeline.indexOf("kept")).toBeLessThan(bed.timeline.indexOf("end"));
    expect(bed.published.map((e) => e.status)).toEqual([200]);
  });
});

describe("endCall: a tool call's ending (the runner's, as a model route's)", () => {
  const billedAs = { id: "tools/send_mail", provider: "tools", upstreamModel: "send_mail" };
  const PRICE = 300_000;
  const charge = (costMinor: number, outcome: string) => ({
    usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, estimated: false },
    costMinor,
    lineItems: [{ item: "tool_call", quantity: 1, unit_price_minor: PRICE, per: "call", attributes: { outcome } }],
  });
  const ending = (o: BedOptions = { script: [] }, leave = false) => {
    const bed = testbed(o);
    const { state, reservation } = bed.call({}, 0);
    const client = new AbortController();
    if (leave) client.abort();
    return { bed, state, call: { reservation, client: client.signal, billedAs } };
  };

  it("a call the server got but did not answer in time: billed its price under status 504, the failure thrown after the record is durable", async () => {
    const { bed, state, call } = ending();
    const err = new GatewayError("upstream_timeout", "MCP server 'tools' did not answer within 1500 ms");
    await expect(endCall(bed.ctx, "mcp", state, call, { kind: "failed", charge: charge(PRICE, "timeout"), err })).rejects.toBe(err);
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ route: "mcp", model: "tools/send_mail", provider: "tools", upstream_model: "send_mail", status: 504, cost_minor: PRICE });
    expect(bed.published[0]!.line_items).toEqual(charge(PRICE, "timeout").lineItems);
    expect(bed.settled).toEqual([PRICE]);
    expect(state.billedMinor).toBe(PRICE);
  });

  it("an answer whose caller left: billed with status 499, nothing returned", async () => {
    const { bed, state, call } = ending({ script: [] }, true);
    const out = await endCall(bed.ctx, "mcp", state, call, { kind: "answer", charge: charge(PRICE, "ok"), render: () => ({ content: [] }) });
    expect(out).toBeUndefined();
    expect(bed.published[0]).toMatchObject({ status: 499, cost_minor: PRICE });
    expect(bed.settled).toEqual([PRICE]);
  });

  it("an answer an output rule denies: billed (the tool did the work) with status 400, the denial thrown; an allowed one returned after its record", async () => {
    const rules = parseRulesDocument(JSON.stringify({ rules: [{ stage: "output", action: "deny", name: "no-secrets", plugin: "keywords", config: { words: ["secret"] } }] }));
    const { bed, state, call } = ending({ script: [], guardrails: rules });
    const result = (text: string) => ({ content: [{ type: "text", text }] });
    const served = (text: string) => ({
      kind: "answer" as const,
      charge: charge(PRICE, "ok"),
      texts: () => {
        const t = new TextCollector(result(text));
        t.add(text, "content", 0, "text");
        return t.map((masked) => () => masked);
      },
      render: () => result(text),
    });
    await expect(endCall(bed.ctx, "mcp", state, call, served("the secret is 42"))).rejects.toMatchObject({ code: "guardrail_denied" });
    expect(bed.published[0]).toMatchObject({ status: 400, cost_minor: PRICE, guardrails: [{ plugin: "keywords", name: "no-secrets", outcome: "denied" }] });
    const allowed = ending({ script: [], guardrails: rules });
    expect(await endCall(allowed.bed.ctx, "mcp", allowed.state, allowed.call, served("all clear"))).toEqual(result("all clear"));
    expect(allowed.bed.timeline.indexOf("durable")).toBeGreaterThan(-1);
    expect(allowed.bed.published[0]).toMatchObject({ status: 200, cost_minor: PRICE });
  });
});
