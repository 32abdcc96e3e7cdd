import { GatewayError } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import { dearestOutput, estimateCharTokens, pricesFor, tokenPrices } from "@gateway/pricing";
import type { Grown, Reservation } from "../credits/lease-manager.js";
import type { Bound } from "../admission/admit.js";

/**
 * A streamed request held in tranches (docs/billing.md, "Holds in tranches"): its prompt and a first
 * output tranche at admission, then one more tranche each time what the provider may have produced
 * comes within half a tranche of what is held. Set by admission when the request's worst case
 * exceeds the prompt and one tranche.
 */
export interface TrancheSpec {
  /** Output tokens one tranche holds. */
  tokens: number;
  /** Minor credit units of one tranche: its tokens at the request's dearest output price. */
  trancheMinor: number;
  /** Minor credit units held beyond the prompt at admission: one tranche, and one use of each per-use tool. */
  heldMinor: number;
  /** The request's dearest output price, minor units per million tokens. */
  outputPerMtok: number;
  /** What one use of the tools the provider bills per use (a web search and its results) costs, minor units; 0 when none is offered. */
  useMinor: number;
}

/** What the provider may have produced so far: output seen (counted, or as it reported) and hidden reasoning (its time × the model's rate). */
export interface Produced {
  generated(): number;
  reportedOutput(): number;
  hiddenMs(): number;
  /** Uses of the per-use tools seen run (web searches). */
  uses(): number;
}

/** Output tokens the provider may have produced: what was seen and, on a reasoning model, its hidden time at the catalog's rate. */
export function producedTokens(model: Model, p: Produced): number {
  const seen = Math.max(p.reportedOutput(), estimateCharTokens(p.generated()));
  const rate = model.reasoning ? (model.max_output_tokens_per_second ?? 0) : 0;
  return seen + (rate > 0 ? Math.ceil((rate * p.hiddenMs()) / 1000) : 0);
}

/** What the provider may have charged beyond the prompt so far, minor units: its output at the dearest output price, and each tool use seen. */
export function producedMinor(model: Model, spec: TrancheSpec, p: Produced): number {
  return Math.ceil((producedTokens(model, p) * spec.outputPerMtok) / 1_000_000) + p.uses() * spec.useMinor;
}

/**
 * Whether a request can be held in tranches: its bound exceeds one tranche of output, and what a
 * provider may produce unseen is bounded (a reasoning model without an output rate is held whole).
 */
export function tranchesFit(model: Model, bound: Pick<Bound, "output" | "unitPriced">, tokens: number): boolean {
  if (tokens <= 0 || bound.unitPriced || bound.output <= tokens) return false;
  return !model.reasoning || (model.max_output_tokens_per_second ?? 0) > 0;
}

/**
 * Extends a stream's hold ahead of what its provider may have produced, on a timer (never on the
 * path of a chunk): each tick compares what was produced with what is held and, within half a
 * tranche of it, asks for the next tranche — from the replica's lease when it has the credit (no
 * round trip), else from the ledger. A refused tranche is asked for again by halves, down to an
 * eighth of a tranche; after the last refusal the stream goes on within what is held and, once it
 * may have used it, `stop` is called once (the stream is cancelled and ends with an
 * `insufficient_credits` error in the client's format) and the watch ends.
 */
export class TrancheWatch {
  /** Minor credit units held beyond the prompt. */
  private held: number;
  private extending = false;
  private timer: NodeJS.Timeout | undefined;
  /** What the next extension asks for: a tranche, halved after each refusal down to an eighth, so the last of a budget or balance is used rather than left. */
  private step: number;
  private readonly minStep: number;
  /** Set when an extension was refused. */
  refused: GatewayError | undefined;
  /** No extension is asked for any more (the smallest was refused, or the lease is gone). */
  private exhausted = false;

  constructor(
    private readonly reservation: Reservation,
    private readonly spec: TrancheSpec,
    /** What the provider may have charged beyond the prompt so far, minor units (producedMinor). */
    private readonly produced: () => number,
    private readonly stop: (err: GatewayError) => void,
  ) {
    this.held = spec.heldMinor;
    this.step = spec.trancheMinor;
    this.minStep = Math.max(1, Math.ceil(spec.trancheMinor / 8));
  }

  /** Minor credit units held beyond the prompt now. */
  get heldMinor(): number {
    return this.held;
  }

  start(everyMs: number): this {
    this.timer = setInterval(() => this.check(), everyMs);
    this.timer.unref();
    return this;
  }

  end(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * One tick: the next tranche when the provider may have come within half a tranche of the held
   * output; once one was refused, the stop when it may have used what is held.
   */
  check(): void {
    if (!this.timer) return;
    const produced = this.produced();
    // Once refused, the stop comes when what is held may be used, even while a smaller part is being asked for.
    if (this.refused && produced >= this.held) {
      this.end();
      this.stop(this.refused);
      return;
    }
    if (this.extending || this.exhausted || produced + this.spec.trancheMinor / 2 < this.held) return;
    const step = this.step;
    const grown = this.reservation.grow?.(step) ?? false;
    if (grown instanceof Promise) {
      this.extending = true;
      void grown.then((ok) => {
        this.extending = false;
        this.settle(ok, step);
      });
    } else this.settle(grown, step);
  }

  private settle(ok: Grown, step: number): void {
    if (!this.timer) return;
    if (ok === true) {
      this.held += step;
      return;
    }
    // Refused: from now on the stream stops once it may have used what is held. The balance or the
    // budget may still cover part of a tranche: asked for by halves, down to an eighth.
    if (ok instanceof GatewayError && step > this.minStep) this.step = Math.max(this.minStep, Math.floor(step / 2));
    else this.exhausted = true;
    this.refused ??=
      ok instanceof GatewayError && ok.code === "budget_exceeded"
        ? new GatewayError("budget_exceeded", `${ok.message.replace(/ \(.*\)\.$/, "")} while this answer was being generated: it was stopped, and what was generated is billed.`, ok.context)
        : new GatewayError("insufficient_credits", "Your organization's credit ran out while this answer was being generated: it was stopped, and what was generated is billed. Top up to continue.", {
            action: "top_up",
          });
    // What is held is still the stream's: it goes on until it may have used it, then stops.
    this.check();
  }
}

/**
 * A request's tranche spec: one tranche at its dearest output price, and held at admission that
 * tranche plus one use of each per-use tool it offers (`uses` of `useMinor` each).
 */
export function trancheSpec(model: Model, bound: Bound, tokens: number, uses: { count: number; unitMinor: number } | undefined): TrancheSpec {
  const outputPerMtok = dearestOutput(tokenPrices(pricesFor(model, bound.prompt)), bound.audio);
  const trancheMinor = Math.ceil((tokens * outputPerMtok) / 1_000_000);
  const useMinor = uses && uses.count > 0 ? uses.unitMinor : 0;
  return { tokens, trancheMinor, heldMinor: trancheMinor + useMinor, outputPerMtok, useMinor };
}
