import { describe, expect, it } from "vitest";
import type { Model } from "@gateway/proto";
import { GatewayError } from "@gateway/errors";
import type { Reservation } from "../credits/lease-manager.js";
import { TrancheWatch, producedMinor, producedTokens, trancheSpec, tranchesFit, type TrancheSpec } from "./tranches.js";

const reasoning = { reasoning: true, max_output_tokens_per_second: 100 } as Model;

describe("holds in tranches", () => {
  it("what the provider may have produced: the output seen (counted or reported) and, on a reasoning model, its hidden time at the catalog's rate", () => {
    const p = (generated: number, reported: number, hiddenMs: number, uses = 0) => ({ generated: () => generated, reportedOutput: () => reported, hiddenMs: () => hiddenMs, uses: () => uses });
    expect(producedTokens({ reasoning: false } as Model, p(400, 0, 10_000))).toBe(100);
    expect(producedTokens({ reasoning: false } as Model, p(400, 250, 0))).toBe(250);
    expect(producedTokens(reasoning, p(400, 0, 2_500))).toBe(100 + 250);
    // In money: the output at the dearest output price, and each search seen run.
    const plain = { reasoning: false, input_price_minor_per_mtok: 1_000_000, output_price_minor_per_mtok: 10_000_000 } as Model;
    const spec = trancheSpec(plain, { prompt: 100, output: 100_000, perUse: 0, total: 0 }, 1_000, { count: 5, unitMinor: 300 });
    expect(spec).toMatchObject({ trancheMinor: 10_000, useMinor: 300, heldMinor: 10_300, outputPerMtok: 10_000_000 });
    expect(producedMinor(plain, spec, p(400, 0, 0, 2))).toBe(1_000 + 600);
  });

  it("only a bound larger than one tranche, and only where unseen work is bounded (a reasoning model needs an output rate)", () => {
    const bound = { prompt: 100, output: 10_000, perUse: 0, total: 1 };
    expect(tranchesFit({ reasoning: false } as Model, bound, 4_096)).toBe(true);
    expect(tranchesFit({ reasoning: false } as Model, { ...bound, output: 4_096 }, 4_096)).toBe(false);
    expect(tranchesFit({ reasoning: true, max_output_tokens_per_second: 0 } as Model, bound, 4_096)).toBe(false);
    expect(tranchesFit(reasoning, bound, 4_096)).toBe(true);
    expect(tranchesFit({ reasoning: false } as Model, { ...bound, unitPriced: true }, 4_096)).toBe(false);
    expect(tranchesFit({ reasoning: false } as Model, bound, 0)).toBe(false);
  });

  it("extends half a tranche ahead of what was produced; after a refusal the stream uses what is held, then stops once", async () => {
    let produced = 0;
    let credit = 2;
    const grown: number[] = [];
    const reservation: Reservation = {
      leaseId: "l",
      amount: 0,
      settle: () => undefined,
      grow: (more) => {
        grown.push(more);
        return Promise.resolve(credit-- > 0);
      },
    };
    const spec: TrancheSpec = { tokens: 100, trancheMinor: 100, heldMinor: 100, outputPerMtok: 1_000_000, useMinor: 0 };
    const stops: GatewayError[] = [];
    const w = new TrancheWatch(
      reservation,
      spec,
      () => produced,
      (e) => stops.push(e),
    ).start(60_000);
    const settled = async () => {
      await Promise.resolve();
      await Promise.resolve();
    };
    produced = 40;
    w.check();
    expect(grown).toEqual([]); // 40 + 50 < 100
    produced = 50;
    w.check();
    expect(grown).toEqual([100]);
    w.check(); // an extension in flight: no second one
    expect(grown).toEqual([100]);
    await settled();
    expect(w.heldMinor).toBe(200);
    produced = 160;
    w.check();
    await settled();
    expect(w.heldMinor).toBe(300);
    produced = 260;
    w.check();
    await settled();
    // Refused: the stream goes on within what is held (300), asking nothing more.
    expect(stops).toEqual([]);
    produced = 299;
    w.check();
    expect(stops).toEqual([]);
    expect(grown).toHaveLength(3);
    produced = 300;
    w.check();
    expect(stops).toHaveLength(1);
    expect(stops[0]!.code).toBe("insufficient_credits");
    expect(w.heldMinor).toBe(300);
    w.check();
    expect(stops).toHaveLength(1);
    w.end();
  });

  it("a tranche the budget cannot cover whole is asked for by halves, down to an eighth: the stream uses what is left, then stops", async () => {
    let produced = 0;
    let left = 130; // what the budget can still grant beyond the first tranche
    const grown: number[] = [];
    const refusal = new GatewayError("budget_exceeded", "This API key's daily budget is reached (10 left of 1000, needed 100 minor units).", { budget: "key" });
    const reservation: Reservation = {
      leaseId: "l",
      amount: 0,
      settle: () => undefined,
      grow: (more) => {
        grown.push(more);
        if (more > left) return Promise.resolve(refusal);
        left -= more;
        return Promise.resolve(true);
      },
    };
    const spec: TrancheSpec = { tokens: 800, trancheMinor: 800, heldMinor: 800, outputPerMtok: 1_000_000, useMinor: 0 };
    const stops: GatewayError[] = [];
    const w = new TrancheWatch(
      reservation,
      spec,
      () => produced,
      (e) => stops.push(e),
    ).start(60_000);
    const settled = async () => {
      for (let i = 0; i < 10; i++) await Promise.resolve();
    };
    produced = 400;
    w.check();
    await settled();
    // 800 refused, 400 and 200 refused, 100 held: then 100 again once within half a tranche of it.
    expect(grown).toEqual([800, 400, 200, 100]);
    expect(w.heldMinor).toBe(900);
    produced = 600;
    w.check();
    await settled();
    expect(grown.slice(4)).toEqual([100]);
    expect(w.heldMinor).toBe(900);
    expect(stops).toEqual([]);
    // What is held is used, then the stream stops naming the budget.
    produced = 899;
    w.check();
    expect(stops).toEqual([]);
    produced = 900;
    w.check();
    expect(stops.map((e) => e.code)).toEqual(["budget_exceeded"]);
    w.end();
  });

  it("once refused, a stream that reaches what is held stops even while a smaller part is still being asked for", async () => {
    let produced = 0;
    const refusal = new GatewayError("insufficient_credits", "Your organization's credit balance is too low for this request.", { action: "top_up" });
    const asked: number[] = [];
    const reservation: Reservation = {
      leaseId: "l",
      amount: 0,
      settle: () => undefined,
      // The whole tranche is refused at once; the half never answers (a slow ledger).
      grow: (more) => {
        asked.push(more);
        return more === 100 ? refusal : new Promise<never>(() => undefined);
      },
    };
    const stops: GatewayError[] = [];
    const w = new TrancheWatch(
      reservation,
      { tokens: 100, trancheMinor: 100, heldMinor: 100, outputPerMtok: 1_000_000, useMinor: 0 },
      () => produced,
      (e) => stops.push(e),
    ).start(60_000);
    produced = 60;
    w.check();
    expect(asked).toEqual([100, 50]);
    produced = 100;
    w.check();
    expect(stops.map((e) => e.code)).toEqual(["insufficient_credits"]);
  });
});
