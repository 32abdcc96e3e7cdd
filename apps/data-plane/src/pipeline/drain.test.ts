import { describe, expect, it } from "vitest";
import type { ChatRequestBody } from "../providers/index.js";
import { translateFor } from "../translate/pairs/index.js";
import { serveChat } from "./chat.js";
import { end } from "./ending.js";
import { HiddenTime } from "./hidden-time.js";
import type { ServedStream } from "./route.js";
import { SSE_DONE, chatContent, gate, openAIChunk, sse, sseReply, testbed, type BedOptions, type Read } from "./testing/scripted-upstream.js";

/**
 * Streams that end without the provider's usage (docs/billing.md, "Streams that end without
 * usage"): the drain window after the client leaves, and the time bound of hidden reasoning past it,
 * on a scripted clock. Prices: 1 minor unit per input token, 2 per output token (reasoning too).
 */
const BODY_BYTES = 400; // the prompt estimate: 100 tokens
const chatBody = (o: Partial<ChatRequestBody> = {}): ChatRequestBody => ({ model: "gw-chat", messages: [{ role: "user", content: "Think, then talk" }], stream: true, ...o });
const role = sse(openAIChunk({ role: "assistant", content: "" }));
const word = (w: string) => sse(openAIChunk({ content: w }));
const usage = (completion: number, reasoning = 0) =>
  sse(openAIChunk({ noChoices: true, usage: { prompt_tokens: 57, completion_tokens: completion, completion_tokens_details: { reasoning_tokens: reasoning } } }));

/** A reasoning model that writes at most 100 tokens a second (reasoning included). */
const REASONING = { reasoning: true, max_output_tokens_per_second: 100 };

/** A scripted clock, ms: tests move it; nothing else does. */
function clock() {
  const c = { t: 0, now: () => c.t };
  return c;
}

async function open(o: BedOptions) {
  const bed = testbed(o);
  const body = chatBody();
  const call = bed.call(body, BODY_BYTES);
  const served = (await serveChat(bed.ctx, call, { routes: translateFor("chat", bed.planned, { body, model: bed.model }), stream: true })) as ServedStream;
  return { bed, call, served };
}

describe("the drain window: a stream whose client left is read on for the provider's usage", () => {
  it("the usage arrives within the window: billed exactly from it (basis drained), nothing more sent to the client", async () => {
    const rest = gate();
    const reads: Read[] = [role, word("Once"), { data: word(" upon") + word(" a time") + sse(openAIChunk({ finish: "stop" })) + usage(40, 10) + SSE_DONE, gate: rest.promise }];
    const { bed, call, served } = await open({ script: [sseReply(reads)], drainMs: 60_000, model: REASONING });
    bed.res.onWrite = (frames) => {
      if (chatContent(frames.join("")) === "Once") {
        bed.res.leave();
        rest.release();
      }
    };
    await end(bed.ctx, "chat", call, served);

    expect(chatContent(bed.res.received)).toBe("Once");
    expect(bed.res.endCalls).toBe(0);
    expect(bed.upstream.calls[0]!.signal.aborted).toBe(false); // read to its end, not cancelled
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ usage: { input_tokens: 57, output_tokens: 40, reasoning_tokens: 10, estimated: false, basis: "drained" }, cost_minor: 57 + 2 * 40 });
    expect(bed.published[0]!.attempts.length === 0 ? bed.published[0]!.served_attempt?.outcome : bed.published[0]!.attempts[0]!.outcome).toBe("client_gone");
    expect(bed.settled).toEqual([57 + 80]);
  });

  it("the window ends first: the provider call is cancelled, billed what was seen plus the time bound (basis bounded)", async () => {
    const c = clock();
    const never = gate();
    const reads: Read[] = [role, word("Once upon"), { data: word(" a time") + SSE_DONE, gate: never.promise }];
    const { bed, call, served } = await open({ script: [sseReply(reads)], drainMs: 20, model: REASONING, now: c.now });
    bed.res.onWrite = (frames) => {
      if (chatContent(frames.join("")) !== "Once upon") return;
      c.t = 5_000; // long after the first visible token: answering is not reasoning
      bed.res.leave();
    };
    await end(bed.ctx, "chat", call, served);

    const body = bed.upstream.calls[0]!.body!;
    expect(bed.upstream.calls[0]!.signal.aborted).toBe(true);
    expect(body.destroyed).toBe(true);
    // "Once upon": 3 tokens seen; the provider answered at once (t = 0), so no time to reason unseen.
    expect(bed.published[0]).toMatchObject({ usage: { input_tokens: 100, output_tokens: 3, reasoning_tokens: 0, estimated: true, basis: "bounded" }, cost_minor: 100 + 2 * 3 });
    never.release();
  });
});

describe("the time bound: hidden reasoning of a stream cut short is the output rate × the time before the first visible token", () => {
  /** The provider thinks for `thinkMs` before its first token; the client leaves after it (no drain). */
  async function thinkThenLeave(thinkMs: number, model: BedOptions["model"]) {
    const c = clock();
    const thinking = gate();
    const reads: Read[] = [{ data: role + word("Hello"), gate: thinking.promise }, word(" there"), word(" and more"), SSE_DONE];
    const bed = testbed({ script: [sseReply(reads)], model, now: c.now });
    const body = chatBody();
    const call = bed.call(body, BODY_BYTES);
    const serving = serveChat(bed.ctx, call, { routes: translateFor("chat", bed.planned, { body, model: bed.model }), stream: true });
    await bed.upstream.called(1);
    c.t = thinkMs;
    thinking.release();
    const served = (await serving) as ServedStream;
    bed.res.onWrite = (frames) => {
      if (!chatContent(frames.join("")).includes("Hello")) return;
      c.t = thinkMs + 60_000;
      bed.res.leave();
    };
    await end(bed.ctx, "chat", call, served);
    return bed.published[0]!;
  }

  it("3 s of quiet at 100 tokens/s: 300 hidden reasoning tokens on top of the 2 seen", async () => {
    const ev = await thinkThenLeave(3_000, REASONING);
    // "Hello" (5 characters): 2 tokens seen; 300 reasoning at most in the 3 s before it.
    expect(ev.usage).toMatchObject({ output_tokens: 302, reasoning_tokens: 300, estimated: true, basis: "bounded" });
    expect(ev.cost_minor).toBe(100 + 2 * 302);
  });

  it("never more than the output limit, whatever the time", async () => {
    const ev = await thinkThenLeave(3_600_000, REASONING);
    expect(ev.usage).toMatchObject({ output_tokens: 4_096, reasoning_tokens: 4_094 });
  });

  it("a model the catalog does not mark as reasoning: no hidden reasoning, even with a reasoning price", async () => {
    const ev = await thinkThenLeave(3_000, { reasoning_price_minor_per_mtok: 2_000_000, max_output_tokens_per_second: 100 });
    expect(ev.usage).toMatchObject({ output_tokens: 2, reasoning_tokens: 0, basis: "estimated" });
  });

  it("a reasoning model that declares no output rate: the output limit less what was seen, as the hold covered", async () => {
    const ev = await thinkThenLeave(3_000, { reasoning: true });
    expect(ev.usage).toMatchObject({ output_tokens: 4_096, reasoning_tokens: 4_094, basis: "estimated" });
  });
});

describe("a client that leaves before the first frame", () => {
  // The runner bills what the error carries with status 499 (pipeline/route.ts; tests/e2e/abandoned-streams.test.ts).
  it("the provider had the request: the attempt ends carrying the prompt and the time bound to bill, nothing sent", async () => {
    const c = clock();
    const headers = gate();
    const bed = testbed({ script: [sseReply([role, word("late"), SSE_DONE], { gate: headers.promise })], model: REASONING, now: c.now });
    const call = bed.call(chatBody(), BODY_BYTES);
    const served = serveChat(bed.ctx, call, { routes: translateFor("chat", bed.planned, { body: chatBody(), model: bed.model }), stream: true });
    await bed.upstream.called(1);
    c.t = 1_500;
    bed.res.leave();
    await expect(served).rejects.toMatchObject({ billed: { charge: { usage: { input_tokens: 100, output_tokens: 150, reasoning_tokens: 150, basis: "bounded" }, costMinor: 100 + 300 } } });
    expect(bed.res.writeHeadCalls).toBe(0);
    expect(bed.upstream.calls[0]!.signal.aborted).toBe(true);
    headers.release();
  });
});

describe("a client that leaves after the headers, before the first frame", () => {
  it("nothing is written; the stream is drained, then billed the prompt and the time bound with status 499", async () => {
    const c = clock();
    const never = gate();
    const bed = testbed({ script: [sseReply([{ data: role + word("late"), gate: never.promise }, SSE_DONE])], drainMs: 20, model: REASONING, now: c.now });
    const body = chatBody();
    const call = bed.call(body, BODY_BYTES);
    const serving = serveChat(bed.ctx, call, { routes: translateFor("chat", bed.planned, { body, model: bed.model }), stream: true });
    await bed.upstream.called(1);
    await bed.upstream.calls[0]!.body?.asking(0);
    c.t = 2_000;
    bed.res.leave();
    const served = (await serving) as ServedStream;
    await end(bed.ctx, "chat", call, served);

    expect(bed.res.writeHeadCalls).toBe(0);
    expect(bed.res.frames).toHaveLength(0);
    expect(bed.upstream.calls[0]!.signal.aborted).toBe(true);
    // 2 s of quiet at 100 tokens/s: 200 reasoning tokens, on top of the 100-token prompt estimate.
    expect(bed.published[0]).toMatchObject({ status: 499, usage: { input_tokens: 100, output_tokens: 200, reasoning_tokens: 200, basis: "bounded" }, cost_minor: 100 + 400 });
    never.release();
  });
});

describe("HiddenTime", () => {
  it("for a wire format that announces its reasoning, only the announced phases count, not the quiet before the first token", () => {
    const c = clock();
    const h = new HiddenTime(c.now);
    h.announced();
    c.t = 1_500; // Claude without thinking: 1.5 s to its first token, and no reasoning
    h.visible();
    h.thinking(true);
    c.t = 2_000;
    h.thinking(false);
    expect(h.ms()).toBe(500);
  });

  it("counts the opening quiet and the phases the provider announces, not the time spent answering", () => {
    const c = clock();
    const h = new HiddenTime(c.now);
    c.t = 400;
    h.visible(); // first token after 400 ms of quiet
    c.t = 1_000;
    h.visible();
    h.thinking(true); // a reasoning item opens at 1,000
    c.t = 1_300;
    h.visible(); // its summary streams: still reasoning
    c.t = 1_900;
    h.thinking(false);
    c.t = 5_000;
    expect(h.ms()).toBe(400 + 900);
    h.thinking(true);
    c.t = 5_250;
    h.stop();
    c.t = 9_000;
    expect(h.ms()).toBe(400 + 900 + 250);
  });
});
