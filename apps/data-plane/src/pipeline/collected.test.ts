import { describe, expect, it } from "vitest";
import type { GatewayError } from "@gateway/errors";
import type { ChatRequestBody } from "../providers/index.js";
import { translateFor } from "../translate/pairs/index.js";
import { ClientGoneError } from "./attempts.js";
import { serveChat } from "./chat.js";
import { end } from "./ending.js";
import type { ServedAnswer } from "./route.js";
import { trancheSpec } from "./tranches.js";
import { SSE_DONE, anthropicEvent, brokenRead, jsonReply, openAIChunk, openAICompletion, sse, sseReply, testbed, type Bed, type Read, type Reply } from "./testing/scripted-upstream.js";

/**
 * A non-streamed request whose worst case is held in tranches is sent to its provider as a stream
 * (admission's `collected`): the client still gets one JSON answer, the one the provider's JSON
 * would have been; the hold grows as the stream is read, and a refused extension stops the provider
 * and answers the refusal, billed for what the provider did.
 */

const body: ChatRequestBody = { model: "gw-chat", messages: [{ role: "user", content: "Say hello" }] };

/** A call as admission hands it over for such a request: translated streamed, held in 100-token tranches (200 minor each at 2 minor a token). */
function collectedCall(bed: Bed, credit: number) {
  const call = bed.call(body, 400);
  const grown: number[] = [];
  call.reservation = {
    ...call.reservation,
    grow: (more) => {
      grown.push(more);
      return credit-- > 0;
    },
  };
  Object.assign(call, { collected: true, tranche: trancheSpec(bed.model, call.bound, 100, undefined) });
  const routes = translateFor("chat", bed.planned, { body: { ...body, stream: true }, model: bed.model });
  return { call, grown, serve: () => serveChat(bed.ctx, call, { routes, stream: false }) };
}

/** An OpenAI stream of `words` (each its own read, `delayMs` apart), its finish, usage and [DONE]. */
function wordStream(words: string[], delayMs = 0, usage: Record<string, unknown> | null = { prompt_tokens: 12, completion_tokens: words.length }): Reply {
  const reads: Read[] = [sse(openAIChunk({ role: "assistant", content: "" })), ...words.map((w) => ({ data: sse(openAIChunk({ content: w })), delayMs }))];
  reads.push(sse(openAIChunk({ finish: "stop" })) + (usage ? sse(openAIChunk({ noChoices: true, usage })) : "") + SSE_DONE);
  return sseReply(reads);
}

describe("a whole answer read from the provider's stream (held in tranches)", () => {
  it("is the answer the provider's JSON gives, asked as a stream with its usage, billed the provider's usage; the hold grew as it was read", async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${String(i).padStart(5, "0")} `);
    const bed = testbed({ script: [wordStream(words, 2)] });
    const { call, grown, serve } = collectedCall(bed, 10);
    const served = (await serve()) as ServedAnswer;
    expect(served.kind).toBe("answer");
    expect(bed.upstream.sentBody(1)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    // 40 × 10 characters: 100 tokens, 200 minor, past half the first tranche: extended while it was read.
    expect(grown.length).toBeGreaterThan(0);

    const json = testbed({ script: [jsonReply(openAICompletion(words.join(""), { prompt_tokens: 12, completion_tokens: 40 }))] });
    const plain = (await serveChat(json.ctx, json.call(body, 400), { routes: translateFor("chat", json.planned, { body, model: json.model }), stream: false })) as ServedAnswer;
    const rendered = served.render() as Record<string, unknown>;
    const answer = plain.render() as Record<string, unknown>;
    expect(rendered.choices).toEqual(answer.choices);
    expect(rendered.usage).toEqual(answer.usage);
    expect(rendered).toMatchObject({ object: "chat.completion", model: "gw-chat" });

    await end(bed.ctx, "chat", call, served);
    expect(bed.res.statusCode).toBe(200);
    expect(bed.res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(bed.res.ended!)).toEqual(rendered);
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 200, stream: false, usage: { input_tokens: 12, output_tokens: 40, estimated: false, basis: "reported" } });
    expect(bed.settled).toEqual([12 + 2 * 40]);
  });

  it("an extension refused: the provider is stopped once it may have used what is held, nothing partial is answered, the refusal (402) is, and what was generated is billed", async () => {
    const words = Array.from({ length: 300 }, () => "0123456789");
    const bed = testbed({ script: [wordStream(words, 1)] });
    const { call, grown, serve } = collectedCall(bed, 0);
    const err = await serve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientGoneError);
    const gone = err as ClientGoneError;
    expect(gone.refusal?.code).toBe("insufficient_credits");
    expect(grown).toEqual([200]);
    // Stopped: the upstream call cancelled long before its end.
    const upstream = bed.upstream.calls[0]!.body!;
    expect(upstream.destroyed).toBe(true);
    expect(upstream.delivered).toBeLessThan(100);
    // What was held (one tranche, 200 minor: 100 tokens, 400 characters) was used before the stop.
    const output = gone.billed!.charge.usage.output_tokens;
    expect(output).toBeGreaterThanOrEqual(100);
    expect(gone.billed!.charge.usage).toMatchObject({ estimated: true, input_tokens: 100 });

    const refusal = await end(bed.ctx, "chat", call, { kind: "gone", ...gone.billed!, refusal: gone.refusal! }).catch((e: unknown) => e);
    expect((refusal as GatewayError).httpStatus).toBe(402);
    expect(bed.res.frames).toEqual([]);
    expect(bed.res.ended).toBeUndefined();
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 402, usage: { output_tokens: output, estimated: true }, served_attempt: { outcome: "cut" } });
    expect(bed.settled).toEqual([100 + 2 * output]);
  });

  it("a provider that fails before its stream completes is retried or falls back, as a broken answer is; the caller pays only for the answer", async () => {
    const betaStream = sseReply([
      anthropicEvent({ type: "message_start", message: { id: "msg_b", type: "message", role: "assistant", model: "beta-model", content: [], usage: { input_tokens: 21, output_tokens: 1 } } }),
      anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "lookup", input: {} } }),
      anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"q": ' } }),
      anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"x"}' } }),
      anthropicEvent({ type: "content_block_stop", index: 0 }) +
        anthropicEvent({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 9 } }) +
        anthropicEvent({ type: "message_stop" }),
    ]);
    const bed = testbed({
      script: [
        jsonReply({ error: { message: "overloaded" } }, { status: 503 }),
        sseReply([sse(openAIChunk({ role: "assistant", content: "" })), sse(openAIChunk({ content: "Par" })), brokenRead()]),
        betaStream,
      ],
      deployments: [
        { code: "alpha", kind: "openai-compatible" },
        { code: "beta", kind: "anthropic" },
      ],
      retries: 1,
    });
    const { call, serve } = collectedCall(bed, 10);
    const served = (await serve()) as ServedAnswer;
    expect(bed.upstream.calls.map((c) => c.provider)).toEqual(["alpha", "alpha", "beta"]);
    expect(bed.upstream.calls[2]!.request.url).toBe("https://beta.example/v1/messages");
    expect(bed.upstream.sentBody(3)).toMatchObject({ stream: true });
    expect(served.render()).toMatchObject({
      model: "gw-chat",
      choices: [
        { message: { role: "assistant", content: null, tool_calls: [{ id: "toolu_1", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } }] }, finish_reason: "tool_calls" },
      ],
    });
    await end(bed.ctx, "chat", call, served);
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]!.attempts.map((a) => [a.provider, a.outcome, a.payer])).toEqual([
      ["alpha", "failed", "none"],
      ["alpha", "failed", "none"],
      ["beta", "served", "caller"],
    ]);
    expect(bed.settled).toEqual([21 + 2 * 9]);
  });

  it("the client leaving does not stop the provider: the answer is read to its end and billed, status 499", async () => {
    const bed = testbed({ script: [wordStream(["a", "b", "c"], 5)] });
    const { call, serve } = collectedCall(bed, 10);
    const serving = serve();
    await bed.upstream.called(1);
    bed.res.leave();
    const served = await serving;
    await end(bed.ctx, "chat", call, served);
    expect(bed.upstream.calls[0]!.body!.destroyed).toBe(false);
    expect(bed.published[0]).toMatchObject({ status: 499, usage: { output_tokens: 3, estimated: false } });
  });
});
