import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import { CircuitBreaker } from "../providers/circuit-breaker.js";
import type { ChatRequestBody } from "../providers/index.js";
import { translateFor } from "../translate/pairs/index.js";
import { ClientGoneError } from "./attempts.js";
import { serveChat } from "./chat.js";
import { end } from "./ending.js";
import type { ServedStream } from "./route.js";
import { SSE_DONE, anthropicEvent, brokenRead, chatContent, dataOf, gate, jsonReply, openAIChunk, refusedReply, sse, sseReply, testbed, type Bed, type Reply } from "./testing/scripted-upstream.js";

const chatBody = (o: Partial<ChatRequestBody> = {}): ChatRequestBody => ({ model: "gw-chat", messages: [{ role: "user", content: "Say hello" }], stream: true, ...o });

/** The route's serve stage for a chat-completions stream: the attempts until the first client frame. */
async function openStream(bed: Bed, body = chatBody()) {
  const call = bed.call(body, 400);
  const served = await serveChat(bed.ctx, call, { routes: translateFor("chat", bed.planned, { body, model: bed.model }), stream: true });
  expect(served.kind).toBe("stream");
  return { call, served: served as ServedStream };
}

/** A complete OpenAI stream from `alpha`: role, the words, the finish, a usage-only chunk, [DONE]; one read each. */
function alphaStream(words: string[], usage = { prompt_tokens: 12, completion_tokens: 3 }): Reply {
  return sseReply([
    sse(openAIChunk({ role: "assistant", content: "" })),
    ...words.map((w) => sse(openAIChunk({ content: w }))),
    sse(openAIChunk({ finish: "stop" })),
    sse(openAIChunk({ noChoices: true, usage })),
    SSE_DONE,
  ]);
}

describe("serveChat: a stream retried before its first byte", () => {
  const firstFailures: Array<[string, Reply]> = [
    ["a 503", jsonReply({ error: { message: "upstream overloaded" } }, { status: 503 })],
    ["a refused connection", refusedReply()],
    ["a 200 whose connection breaks before any frame", sseReply([brokenRead()])],
  ];

  it.each(firstFailures)("after %s, the client gets only the second stream's frames", async (_what, first) => {
    const bed = testbed({ script: [first, alphaStream(["Hello", " world"])], retries: 2 });
    const { call, served } = await openStream(bed);

    expect(bed.upstream.calls.map((c) => c.provider)).toEqual(["alpha", "alpha"]);
    expect(bed.state.served).toMatchObject({ provider: "alpha", upstreamModel: "alpha-model", retries: 1, fallbacks: [] });
    expect(bed.attempts.map((a) => a.outcome)).toEqual([first.kind === "refused" ? "connect" : "upstream_error", "ok"]);
    // Served once its first frame is ready, but nothing is written before the ending.
    expect(served.stream.pending.peek()).toContain('"role":"assistant"');
    expect(bed.res.frames).toEqual([]);

    await end(bed.ctx, "chat", call, served);
    expect(bed.res.statusCode).toBe(200);
    expect(bed.res.headers["x-gateway-retry-count"]).toBe("1");
    expect(bed.res.headers["x-gateway-provider"]).toBe("alpha");
    expect(bed.res.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(chatContent(bed.res.received)).toBe("Hello world");
    expect(bed.res.received).not.toContain("overloaded");
    // [DONE] once, last (the frames read with the provider's end go out with it, in one write).
    expect(bed.res.received.split(SSE_DONE)).toEqual([expect.any(String), ""]);
    expect(bed.res.ended!.endsWith(SSE_DONE)).toBe(true);
    // Every chunk the client got names the public model, never the deployment's.
    expect(bed.res.received).not.toContain("alpha-model");
    expect(
      dataOf(bed.res.received)
        .filter((d) => d !== "[DONE]")
        .every((d) => (d as { model: string }).model === "gw-chat"),
    ).toBe(true);
    // The provider was asked for usage (include_usage), the client's usage-only chunk withheld (it did not ask).
    expect(bed.upstream.sentBody(2)).toMatchObject({ model: "alpha-model", stream: true, stream_options: { include_usage: true } });
    expect(bed.res.received).not.toContain('"usage"');
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ provider: "alpha", status: 200, stream: true, usage: { input_tokens: 12, output_tokens: 3, estimated: false } });
    expect(bed.settled).toEqual([12 + 2 * 3]);
    // Both attempts are recorded: the first generated nothing (nobody pays), the second is the caller's.
    expect(bed.published[0]!.attempts).toMatchObject([
      { attempt: 1, provider: "alpha", status: first.kind === "json" ? 503 : 0, outcome: "failed", cost_minor: 0, payer: "none" },
      { attempt: 2, provider: "alpha", status: 200, outcome: "served", input_tokens: 12, output_tokens: 3, cost_minor: 12 + 2 * 3, provider_cost_minor: 12 + 2 * 3, payer: "caller" },
    ]);
  });

  it("the client leaving while the first attempt fails starts no new attempt and bills nothing", async () => {
    const held = gate();
    const bed = testbed({ script: [jsonReply({ error: { message: "overloaded" } }, { status: 503, gate: held.promise }), alphaStream(["never"])], retries: 3 });
    const serving = openStream(bed);
    await bed.upstream.called(1);
    bed.res.leave();
    held.release();

    await expect(serving).rejects.toBeInstanceOf(ClientGoneError);
    expect(bed.upstream.calls).toHaveLength(1);
    expect(bed.published).toEqual([]);
    expect(bed.res.frames).toEqual([]);
    expect(bed.res.endCalls).toBe(0);
  });

  it("gives up after the retries with the last failure (a 502 upstream_error), nothing written", async () => {
    const bed = testbed({ script: [jsonReply({}, { status: 500 }), jsonReply({}, { status: 502 })], retries: 1 });
    const err = await openStream(bed).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).code).toBe("upstream_error");
    expect((err as GatewayError).message).toContain("502");
    expect(bed.upstream.calls).toHaveLength(2);
    expect(bed.state.served).toMatchObject({ provider: "", fallbacks: ["alpha"] });
    expect(bed.res.frames).toEqual([]);
  });
});

describe("serveChat: fallback with the hold-back (a stream is served only once it has a client frame)", () => {
  /** Deployment B: Anthropic, through the real chat adapter (the client still gets chat chunks). */
  const betaStream = sseReply([
    anthropicEvent({ type: "message_start", message: { id: "msg_b", type: "message", role: "assistant", model: "beta-model", content: [], usage: { input_tokens: 21, output_tokens: 1 } } }),
    anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) + anthropicEvent({ type: "ping" }),
    anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Bonjour" } }),
    anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: " !" } }),
    anthropicEvent({ type: "content_block_stop", index: 0 }) +
      anthropicEvent({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 4 } }) +
      anthropicEvent({ type: "message_stop" }),
  ]);

  const failures: Array<[string, Reply, boolean]> = [
    ["closes the connection right after its 200", sseReply([]), true],
    ["sends an error event first", sseReply([sse({ error: { message: "model crashed on alpha" } })]), true],
    ["breaks mid-read before any frame", sseReply([brokenRead("alpha socket reset")]), true],
    ["sends an empty stream ([DONE] only)", sseReply([SSE_DONE]), false],
  ];

  it.each(failures)("deployment A %s: B serves, nothing of A reaches the client, billed once for B", async (_what, aReply, destroyed) => {
    const bed = testbed({
      script: [aReply, betaStream],
      deployments: [
        { code: "alpha", kind: "openai-compatible" },
        { code: "beta", kind: "anthropic" },
      ],
      retries: 0,
      breakerThreshold: 1,
    });
    const { call, served } = await openStream(bed);

    expect(bed.upstream.calls.map((c) => c.provider)).toEqual(["alpha", "beta"]);
    expect(bed.upstream.calls[0]!.body!.destroyed).toBe(destroyed);
    expect(served.target.provider.code).toBe("beta");
    expect(bed.state.served).toMatchObject({ provider: "beta", upstreamModel: "beta-model", retries: 0, fallbacks: ["alpha"] });
    // The failure fed the breaker: alpha cools down (threshold 1), beta does not.
    expect(bed.ctx.breaker.isOpen(CircuitBreaker.key("alpha", "alpha-model"))).toBe(true);
    expect(bed.ctx.breaker.isOpen(CircuitBreaker.key("beta", "beta-model"))).toBe(false);
    // B got the request translated to the Messages API.
    expect(bed.upstream.calls[1]!.request.url).toBe("https://beta.example/v1/messages");
    expect(bed.upstream.sentBody(2)).toMatchObject({ model: "beta-model", stream: true, max_tokens: 4096, messages: [{ role: "user", content: [{ type: "text", text: "Say hello" }] }] });
    expect(bed.res.frames).toEqual([]);

    await end(bed.ctx, "chat", call, served);
    expect(bed.res.headers["x-gateway-provider"]).toBe("beta");
    expect(bed.res.headers["x-gateway-attempted-fallbacks"]).toBe("alpha");
    expect(chatContent(bed.res.received)).toBe("Bonjour !");
    expect(bed.res.received).not.toContain("alpha");
    // [DONE] once, last (the frames read with the provider's end go out with it, in one write).
    expect(bed.res.received.split(SSE_DONE)).toEqual([expect.any(String), ""]);
    expect(bed.res.ended!.endsWith(SSE_DONE)).toBe(true);
    const chunks = dataOf(bed.res.received).filter((d) => d !== "[DONE]") as Array<{ model: string; choices: Array<{ finish_reason: string | null }> }>;
    expect(chunks.every((c) => c.model === "gw-chat")).toBe(true);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ provider: "beta", upstream_model: "beta-model", status: 200, usage: { input_tokens: 21, output_tokens: 4, estimated: false } });
    expect(bed.settled).toEqual([21 + 2 * 4]);
  });

  it("a stream that fails after its first frame does not fall back: the client gets A's frame, then A's error", async () => {
    const bed = testbed({
      script: [sseReply([sse(openAIChunk({ role: "assistant", content: "" })), sse(openAIChunk({ content: "Par" })), brokenRead()]), betaStream],
      deployments: [
        { code: "alpha", kind: "openai-compatible" },
        { code: "beta", kind: "anthropic" },
      ],
      retries: 0,
    });
    const { call, served } = await openStream(bed);
    expect(served.target.provider.code).toBe("alpha");
    await end(bed.ctx, "chat", call, served);

    expect(bed.upstream.calls).toHaveLength(1);
    expect(chatContent(bed.res.received)).toBe("Par");
    expect(dataOf(bed.res.ended!)).toEqual([
      { error: { message: "The provider's stream broke off before it was complete.", type: "upstream_error", code: "upstream_error", request_id: "req_test0000000001" } },
    ]);
    expect(bed.published).toHaveLength(1);
    // No usage came: the prompt (400 bytes / 4) and the delivered "Par" (1 token) are counted.
    expect(bed.published[0]).toMatchObject({ provider: "alpha", status: 200, usage: { input_tokens: 100, output_tokens: 1, estimated: true } });
    // Cut by the provider: billed to the caller for what it delivered, marked as counted.
    expect(bed.published[0]).toMatchObject({ attempts: [], served_attempt: { outcome: "cut", provider_cost_minor: bed.published[0]!.cost_minor } });
  });
});
