import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import { eventually } from "@gateway/testing";
import type { ChatRequestBody, ParsedStreamEvent, StreamParser, WireAdapter } from "../providers/index.js";
import { openAIShape } from "../translate/client-shape.js";
import { translateFor, type Routed } from "../translate/pairs/index.js";
import { chatAnswerTexts } from "../translate/texts.js";
import { bind } from "../translate/translation.js";
import { serveChat } from "./chat.js";
import { end } from "./ending.js";
import type { ServedStream } from "./route.js";
import { relay } from "./stream.js";
import { SSE_DONE, brokenRead, chatContent, dataOf, gate, nextTurn, openAIChunk, sse, sseReply, testbed, type Bed, type Read } from "./testing/scripted-upstream.js";

const BROKE_OFF = "The provider's stream broke off before it was complete.";
const ENDED_EARLY = "The provider ended the stream before it was complete.";
/** The gateway's error frame that ends a broken stream, as the client reads it. */
const errorFrame = (message: string) => [{ error: { message, type: "upstream_error", code: "upstream_error", request_id: "req_test0000000001" } }];

const chatBody = (o: Partial<ChatRequestBody> = {}): ChatRequestBody => ({ model: "gw-chat", messages: [{ role: "user", content: "Tell me a story" }], stream: true, ...o });

/** Decoded body size given to serveChat: the prompt estimate is 400 / 4 = 100 tokens. */
const BODY_BYTES = 400;

async function openStream(bed: Bed, routes?: Routed[], body = chatBody()) {
  const call = bed.call(body, BODY_BYTES);
  const served = await serveChat(bed.ctx, call, { routes: routes ?? translateFor("chat", bed.planned, { body, model: bed.model }), stream: true });
  expect(served.kind).toBe("stream");
  return { call, served: served as ServedStream };
}

const role = sse(openAIChunk({ role: "assistant", content: "" }));
const word = (w: string) => sse(openAIChunk({ content: w }));

describe("relay: the client leaves mid-stream", () => {
  it("right after its second frame: relay stops, the upstream body is destroyed, what was delivered is billed once, no end frame", async () => {
    const bed = testbed({ script: [sseReply([role, word("Once upon"), word(" a time"), word(" there was"), sse(openAIChunk({ finish: "stop" })), SSE_DONE])] });
    const { call, served } = await openStream(bed);
    bed.res.onWrite = (frames) => {
      if (frames.length === 2) bed.res.leave();
    };
    await end(bed.ctx, "chat", call, served);

    const body = bed.upstream.calls[0]!.body!;
    expect(bed.res.frames).toHaveLength(2);
    expect(chatContent(bed.res.received)).toBe("Once upon");
    expect(bed.res.endCalls).toBe(0);
    expect(bed.res.received).not.toContain("[DONE]");
    expect(body.destroyed).toBe(true);
    expect(body.delivered).toBe(2); // nothing more was read from the provider
    // The provider reported no usage: the prompt estimate and "Once upon" (9 characters: 3 tokens).
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 200, stream: true, usage: { input_tokens: 100, output_tokens: 3, estimated: true }, cost_minor: 100 + 2 * 3 });
    expect(bed.settled).toEqual([106]);
    expect(bed.timeline.indexOf("client-left")).toBeLessThan(bed.timeline.indexOf("publish"));
  });

  it("while relay waits for the provider: the pending read is cancelled with the request, billed once for what was delivered", async () => {
    const held = gate();
    const reads: Read[] = [role, word("Once"), word(" upon"), { data: word(" a time"), gate: held.promise }, SSE_DONE];
    const bed = testbed({ script: [sseReply(reads)] });
    const { call, served } = await openStream(bed);
    const ending = end(bed.ctx, "chat", call, served);
    const body = bed.upstream.calls[0]!.body!;
    await body.asking(3);
    // Three reads delivered, the fourth awaited: the client leaves now.
    bed.res.leave();
    await ending;

    expect(chatContent(bed.res.received)).toBe("Once upon");
    expect(bed.res.endCalls).toBe(0);
    expect(body.destroyed).toBe(true);
    expect(body.delivered).toBe(3);
    expect(bed.upstream.calls[0]!.signal.aborted).toBe(true); // the upstream call followed the client
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 200, usage: { input_tokens: 100, output_tokens: 3, estimated: true } });
    held.release();
  });

  it("after the provider's usage came (in the last content chunk): billed with the provider's usage, not an estimate", async () => {
    const usage = { prompt_tokens: 57, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 0 } };
    const bed = testbed({ script: [sseReply([role, word("Once"), sse(openAIChunk({ content: " upon", finish: "stop", usage })), SSE_DONE])] });
    const { call, served } = await openStream(bed);
    bed.res.onWrite = (frames) => {
      if (frames.length === 3) bed.res.leave();
    };
    await end(bed.ctx, "chat", call, served);

    expect(chatContent(bed.res.received)).toBe("Once upon");
    expect(bed.res.endCalls).toBe(0);
    expect(bed.upstream.calls[0]!.body!.destroyed).toBe(true);
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 200, usage: { input_tokens: 57, output_tokens: 9, estimated: false }, cost_minor: 57 + 18 });
  });

  it("relay itself reports no failure for a client that left (nothing to tell it)", async () => {
    const bed = testbed({ script: [sseReply([role, word("a"), word("b"), SSE_DONE])] });
    const { call, served } = await openStream(bed);
    bed.res.onWrite = () => bed.res.leave();
    await expect(relay(call.res, served.stream, call.client)).resolves.toEqual({});
    expect(bed.res.frames).toHaveLength(1);
    expect(served.stream.done).toBe(false);
    expect(bed.upstream.calls[0]!.body!.destroyed).toBe(true);
  });
});

/**
 * A provider whose stream ends with the connection (no terminal event): each SSE data is
 * `{"t": "text"}`, and `{"stop": true}` marks a complete answer. With `withEnd`, the parser has
 * `end()`, which says whether the stream was complete when the body ended.
 */
function connectionEndedAdapter(withEnd: boolean): WireAdapter<ChatRequestBody> {
  return {
    buildChatRequest: (body, target) => ({ url: `${target.provider.base_url}/generate`, headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt: body.messages }) }),
    parseChatResponse: (json) => ({ body: json as Record<string, unknown>, usage: undefined }),
    streamParser: (publicModel) => {
      let stopped = false;
      const parse = (data: string): ParsedStreamEvent => {
        const ev = JSON.parse(data) as { t?: string; stop?: boolean };
        if (ev.stop) stopped = true;
        const chunk = {
          id: "gen-1",
          object: "chat.completion.chunk",
          created: 1,
          model: publicModel,
          choices: [{ index: 0, delta: ev.t ? { content: ev.t } : {}, finish_reason: ev.stop ? "stop" : null }],
        };
        return { forward: JSON.stringify(chunk), chunk, text: ev.t ?? "", done: false };
      };
      if (!withEnd) return parse;
      const parser: StreamParser = Object.assign(parse, { end: (): ParsedStreamEvent | undefined => (stopped ? { forward: undefined, text: "", done: true } : undefined) });
      return parser;
    },
    mapError: (status, text) => new GatewayError(status >= 500 ? "upstream_error" : "invalid_request", text),
  };
}

function connectionEndedRoutes(bed: Bed, withEnd: boolean): Routed[] {
  const body = chatBody();
  const translation = bind(connectionEndedAdapter(withEnd), body, bed.model, openAIShape(body, bed.model.id), chatAnswerTexts);
  return bed.planned.map((p) => ({ target: p.target, translation }));
}

describe("relay: the provider's body goes away while relay waits for it", () => {
  it("destroyed without an error (nothing more will come): the stream ends with the error frame, billed once, no hang", async () => {
    const held = gate();
    const bed = testbed({ script: [sseReply([role, word("Once"), word(" upon"), { data: word(" a time"), gate: held.promise }, SSE_DONE])] });
    const { call, served } = await openStream(bed);
    const ending = end(bed.ctx, "chat", call, served);
    const body = bed.upstream.calls[0]!.body!;
    await body.asking(3);
    body.destroy();
    await ending;

    expect(chatContent(bed.res.received)).toBe("Once upon");
    expect(bed.res.received).not.toContain("[DONE]");
    expect(dataOf(bed.res.ended!)).toEqual(errorFrame(BROKE_OFF));
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 200, stream: true, usage: { input_tokens: 100, output_tokens: 3, estimated: true } });
    expect(bed.settled).toEqual([106]);
    held.release();
  });

  it("failing after frames (the connection broke): the error frame, billed once for what was delivered", async () => {
    const bed = testbed({ script: [sseReply([role, word("Once"), word(" upon"), brokenRead()])] });
    const { call, served } = await openStream(bed);
    await end(bed.ctx, "chat", call, served);

    expect(chatContent(bed.res.received)).toBe("Once upon");
    expect(dataOf(bed.res.ended!)).toEqual(errorFrame(BROKE_OFF));
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 200, usage: { output_tokens: 3, estimated: true } });
    expect(bed.settled).toEqual([106]);
  });
});

describe("relay: an OpenAI-compatible provider that closes the stream without [DONE]", () => {
  /** A chunk of choice `index` (of a request for several). */
  const choiceChunk = (index: number, delta: Record<string, unknown>, finish: string | null = null) =>
    sse({ id: "chatcmpl-n", object: "chat.completion.chunk", created: 1, model: "alpha-model", choices: [{ index, delta, finish_reason: finish, logprobs: null }] });

  it("after its finish and usage chunks: the answer is whole, the client gets [DONE], billed the provider's usage", async () => {
    const usage = { prompt_tokens: 12, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 0 } };
    const bed = testbed({ script: [sseReply([role, word("Once"), word(" upon"), sse(openAIChunk({ finish: "stop" })), sse(openAIChunk({ usage, noChoices: true }))])] });
    const { call, served } = await openStream(bed, undefined, chatBody({ stream_options: { include_usage: true } }));
    await end(bed.ctx, "chat", call, served);

    expect(chatContent(bed.res.received)).toBe("Once upon");
    expect(bed.res.received).toContain('"finish_reason":"stop"');
    expect(bed.res.received).toContain('"completion_tokens":2');
    expect(bed.res.ended).toBe(SSE_DONE);
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 200, usage: { input_tokens: 12, output_tokens: 2, estimated: false } });
  });

  it("before its finish: it broke off, the error frame, billed for what was delivered", async () => {
    const bed = testbed({ script: [sseReply([role, word("Once"), word(" upon")])] });
    const { call, served } = await openStream(bed);
    await end(bed.ctx, "chat", call, served);

    expect(chatContent(bed.res.received)).toBe("Once upon");
    expect(bed.res.received).not.toContain("[DONE]");
    expect(dataOf(bed.res.ended!)).toEqual(errorFrame(ENDED_EARLY));
    expect(bed.published[0]).toMatchObject({ status: 200, usage: { output_tokens: 3, estimated: true } });
  });

  it("a server that sends an empty finish_reason on every chunk, closed before a real one: it broke off", async () => {
    const chunk = (content: string) => sse({ id: "chatcmpl-e", object: "chat.completion.chunk", created: 1, model: "alpha-model", choices: [{ index: 0, delta: { content }, finish_reason: "" }] });
    const bed = testbed({ script: [sseReply([chunk("Once"), chunk(" upon")])] });
    const { call, served } = await openStream(bed);
    await end(bed.ctx, "chat", call, served);

    expect(chatContent(bed.res.received)).toBe("Once upon");
    expect(bed.res.received).not.toContain("[DONE]");
    expect(dataOf(bed.res.ended!)).toMatchObject([{ error: { code: "upstream_error", message: ENDED_EARLY } }]);
  });

  it("n = 2: whole only once both choices finished", async () => {
    const both = [choiceChunk(0, { role: "assistant", content: "A" }), choiceChunk(1, { role: "assistant", content: "B" }), choiceChunk(0, {}, "stop"), choiceChunk(1, {}, "length")];
    const whole = testbed({ script: [sseReply(both)] });
    const w = await openStream(whole, undefined, chatBody({ n: 2 }));
    await end(whole.ctx, "chat", w.call, w.served);
    expect(whole.res.ended).toBe(SSE_DONE);

    const half = testbed({ script: [sseReply(both.slice(0, 3))] });
    const h = await openStream(half, undefined, chatBody({ n: 2 }));
    await end(half.ctx, "chat", h.call, h.served);
    expect(half.res.received).not.toContain("[DONE]");
    expect(dataOf(half.res.ended!)).toMatchObject([{ error: { code: "upstream_error", message: ENDED_EARLY } }]);
  });
});

describe("relay: a provider whose stream ends with the connection", () => {
  const complete = [sse({ t: "Hi" }), sse({ t: " there" }), sse({ stop: true })];

  it("with a parser end() that says the answer was complete: the stream completes ([DONE]), billed 200", async () => {
    const bed = testbed({ script: [sseReply(complete)] });
    const { call, served } = await openStream(bed, connectionEndedRoutes(bed, true));
    await end(bed.ctx, "chat", call, served);

    expect(bed.upstream.calls[0]!.request.url).toBe("https://alpha.example/v1/generate");
    expect(chatContent(bed.res.received)).toBe("Hi there");
    expect(bed.res.ended).toBe(SSE_DONE);
    expect(served.stream.done).toBe(true);
    expect(bed.upstream.calls[0]!.body!.readableEnded).toBe(true); // read to its end, not cut
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 200, usage: { input_tokens: 100, output_tokens: 2, estimated: true } });
  });

  it("with end() but closed before the answer was complete: the explicit error frame", async () => {
    const bed = testbed({ script: [sseReply(complete.slice(0, 2))] });
    const { call, served } = await openStream(bed, connectionEndedRoutes(bed, true));
    await end(bed.ctx, "chat", call, served);

    expect(chatContent(bed.res.received)).toBe("Hi there");
    expect(dataOf(bed.res.ended!)).toEqual(errorFrame(ENDED_EARLY));
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 200, usage: { output_tokens: 2, estimated: true } });
  });

  it("without done and without end(): the explicit error frame, even after the provider's stop marker", async () => {
    const bed = testbed({ script: [sseReply(complete)] });
    const { call, served } = await openStream(bed, connectionEndedRoutes(bed, false));
    await end(bed.ctx, "chat", call, served);

    expect(chatContent(bed.res.received)).toBe("Hi there");
    expect(bed.res.received).not.toContain("[DONE]");
    expect(dataOf(bed.res.ended!)).toEqual(errorFrame(ENDED_EARLY));
    expect(bed.published).toHaveLength(1);
  });

  it("with end(), a connection closed before any frame (incomplete): retried before the first byte, not served", async () => {
    const bed = testbed({ script: [sseReply([]), sseReply(complete)], retries: 1 });
    const { call, served } = await openStream(bed, connectionEndedRoutes(bed, true));
    await end(bed.ctx, "chat", call, served);

    expect(bed.upstream.calls).toHaveLength(2);
    expect(bed.attempts.map((a) => a.outcome)).toEqual(["upstream_error", "ok"]);
    expect(chatContent(bed.res.received)).toBe("Hi there");
    expect(bed.res.ended).toBe(SSE_DONE);
  });
});

describe("relay then end: the last frame", () => {
  it("a stream's last frame waits for its usage event to be durable", async () => {
    const durable = gate();
    const bed = testbed({ script: [sseReply([role, word("a"), word("b"), SSE_DONE])], publishGate: durable.promise });
    const { call, served } = await openStream(bed);
    const ending = end(bed.ctx, "chat", call, served);
    // Read to its end and billed; then a turn more: the last frame is still held.
    await eventually(() => (bed.published.length === 1 ? true : undefined), 5_000, "the usage event");
    await nextTurn();
    expect(chatContent(bed.res.received)).toBe("ab");
    expect(bed.published).toHaveLength(1);
    expect(bed.res.endCalls).toBe(0);
    durable.release();
    await ending;
    expect(bed.res.ended).toBe(SSE_DONE);
    expect(bed.timeline.slice(-3)).toEqual(["durable", "settle", "end"]);
  });

  it("the frames that came in the same read as the provider's end go out with the last frame, in one write, once the usage event is durable", async () => {
    const durable = gate();
    const usage = { prompt_tokens: 7, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 0 } };
    const last = word(" c") + sse(openAIChunk({ finish: "stop" })) + sse(openAIChunk({ usage })) + SSE_DONE;
    const bed = testbed({ script: [sseReply([role, word("a"), word(" b"), last])], publishGate: durable.promise });
    const { call, served } = await openStream(bed, undefined, chatBody({ stream_options: { include_usage: true } }));
    const ending = end(bed.ctx, "chat", call, served);
    await eventually(() => (bed.published.length === 1 ? true : undefined), 5_000, "the usage event");
    await nextTurn();
    // " c", the finish and the usage chunk were read with [DONE]: none of them is written yet.
    expect(chatContent(bed.res.received)).toBe("a b");
    expect(bed.res.endCalls).toBe(0);
    const writes = bed.res.frames.length;
    durable.release();
    await ending;
    expect(bed.res.frames).toHaveLength(writes);
    expect(chatContent(bed.res.ended!)).toBe(" c");
    expect(bed.res.ended).toContain('"completion_tokens":3');
    expect(bed.res.ended!.endsWith(SSE_DONE)).toBe(true);
    expect(bed.published[0]).toMatchObject({ usage: { input_tokens: 7, output_tokens: 3, estimated: false } });
  });
});
