import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import type { ChatRequestBody } from "../providers/index.js";
import { translateFor } from "../translate/pairs/index.js";
import { billFailure } from "./bill.js";
import { serveChat } from "./chat.js";
import { end } from "./ending.js";
import { gate, jsonReply, openAICompletion, refusedReply, testbed, timeoutReply, type Bed, type BedOptions } from "./testing/scripted-upstream.js";

const body: ChatRequestBody = { model: "gw-chat", messages: [{ role: "user", content: "Say hello" }] };
const usage = { prompt_tokens: 30, completion_tokens: 7 };
/** 30 input tokens at 1,000,000 and 7 output tokens at 2,000,000 per million. */
const COST = 30 + 2 * 7;
const TWO: BedOptions["deployments"] = [
  { code: "alpha", kind: "openai-compatible" },
  { code: "beta", kind: "openai-compatible" },
];

/**
 * What the runner does (pipeline/route.ts handle): serve, then the ending, or, when nothing was
 * served, the failure record. Returns the error the caller would get, if any.
 */
async function run(bed: Bed): Promise<GatewayError | undefined> {
  const call = bed.call(body, 400);
  try {
    const served = await serveChat(bed.ctx, call, { routes: translateFor("chat", bed.planned, { body, model: bed.model }), stream: false });
    await end(bed.ctx, "chat", call, served);
    return undefined;
  } catch (err) {
    await billFailure(bed.ctx, call.state, { model: call.model, route: "chat", reservation: call.reservation, worst: call.worst, err });
    return err as GatewayError;
  }
}

describe("the attempt policy: every attempt's worst case fits the hold", () => {
  it("a timeout after the provider received the request is answered: no retry, no fallback, its worst case absorbed by the operator", async () => {
    const bed = testbed({ script: [timeoutReply(), jsonReply(openAICompletion("late", usage))], deployments: TWO, retries: 2 });
    const err = await run(bed);

    expect(err).toBeInstanceOf(GatewayError);
    expect(err!.code).toBe("upstream_timeout");
    expect(bed.upstream.calls.map((c) => c.provider)).toEqual(["alpha"]);
    // Nothing billed to the caller; the attempt is on record at the request's worst case.
    expect(bed.settled).toEqual([]);
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 504, cost_minor: 0, provider: "alpha", line_items: [] });
    expect(bed.published[0]!.attempts).toEqual([
      {
        attempt: 1,
        provider: "alpha",
        upstream_model: "alpha-model",
        status: 0,
        outcome: "timeout",
        input_tokens: 1_000,
        output_tokens: 4_096,
        estimated: true,
        cost_minor: 1_000_000,
        provider_cost_minor: 1_000_000,
        payer: "operator",
        duration_ms: expect.any(Number),
      },
    ]);
  });

  it("another attempt starts only while the worst cases of all attempts fit the hold", async () => {
    // Hold 1,000,000; each attempt's worst case 300,000: three fit (900,000), the third serves.
    const fits = testbed({ script: [timeoutReply(), timeoutReply(), jsonReply(openAICompletion("third", usage))], deployments: TWO, retries: 1, worstMinor: 300_000 });
    expect(await run(fits)).toBeUndefined();
    expect(fits.upstream.calls.map((c) => c.provider)).toEqual(["alpha", "alpha", "beta"]);
    expect(fits.settled).toEqual([COST]);
    expect(fits.published[0]!.attempts.map((a) => [a.provider, a.outcome, a.payer, a.cost_minor])).toEqual([
      ["alpha", "timeout", "operator", 300_000],
      ["alpha", "timeout", "operator", 300_000],
      ["beta", "served", "caller", COST],
    ]);

    // Worst case 400,000: after two timeouts (800,000) a third would not fit.
    const full = testbed({ script: [timeoutReply(), timeoutReply(), jsonReply(openAICompletion("third", usage))], deployments: TWO, retries: 1, worstMinor: 400_000 });
    expect((await run(full))!.code).toBe("upstream_timeout");
    expect(full.upstream.calls).toHaveLength(2);
    expect(full.published[0]!.attempts.map((a) => a.outcome)).toEqual(["timeout", "timeout"]);
  });

  it("failures where the provider generated nothing retry and fall back as before, recorded at nothing with the provider's status", async () => {
    const bed = testbed({
      script: [jsonReply({ error: { message: "overloaded" } }, { status: 503 }), refusedReply(), jsonReply(openAICompletion("From beta", usage, "beta-model"))],
      deployments: TWO,
      retries: 1,
    });
    expect(await run(bed)).toBeUndefined();
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ provider: "beta", status: 200, cost_minor: COST });
    expect(bed.published[0]!.attempts.map((a) => [a.attempt, a.provider, a.status, a.outcome, a.payer, a.cost_minor])).toEqual([
      [1, "alpha", 503, "failed", "none", 0],
      [2, "alpha", 0, "failed", "none", 0],
      [3, "beta", 200, "served", "caller", COST],
    ]);
  });

  it("a request that fails at every attempt is recorded with the error's status and nothing billed", async () => {
    const bed = testbed({ script: [jsonReply({}, { status: 500 }), jsonReply({}, { status: 502 })], retries: 1 });
    const err = await run(bed);
    expect(err!.code).toBe("upstream_error");
    expect(bed.settled).toEqual([]);
    expect(bed.published).toHaveLength(1);
    expect(bed.published[0]).toMatchObject({ status: 502, cost_minor: 0, usage: { input_tokens: 0, output_tokens: 0 } });
    expect(bed.published[0]!.attempts.map((a) => [a.status, a.outcome, a.payer])).toEqual([
      [500, "failed", "none"],
      [502, "failed", "none"],
    ]);
  });

  it("a client gone during the attempt: the caller pays what the provider did, the attempt says the client left", async () => {
    const held = gate();
    const bed = testbed({ script: [jsonReply(openAICompletion("Too late", usage), { gate: held.promise })] });
    const running = run(bed);
    await bed.upstream.called(1);
    bed.res.leave();
    held.release();
    expect(await running).toBeUndefined();
    expect(bed.published[0]).toMatchObject({ status: 499, cost_minor: COST });
    // One attempt billed as the event says: sent as what the event does not say.
    expect(bed.published[0]!.attempts).toEqual([]);
    expect(bed.published[0]!.served_attempt).toEqual({ outcome: "client_gone", duration_ms: expect.any(Number), provider_cost_minor: COST });
  });

  it("what the provider charges the operator follows the deployment's cost price; the caller pays the catalog's", async () => {
    const bed = testbed({ script: [jsonReply(openAICompletion("Hello", usage))] });
    // Half the catalog's prices at this deployment.
    Object.assign(bed.model.deployments[0]!, { cost_input_price_minor_per_mtok: 500_000, cost_output_price_minor_per_mtok: 1_000_000 });
    expect(await run(bed)).toBeUndefined();
    expect(bed.settled).toEqual([COST]);
    expect(bed.published[0]).toMatchObject({ cost_minor: COST, served_attempt: { outcome: "served", provider_cost_minor: 15 + 7 } });
  });
});
