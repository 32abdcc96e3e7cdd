import type { Request, Response } from "express";
import type { DataPlaneContext } from "../context.js";
import { attributionOf } from "../admission/attribution.js";
import { admit, admitCall, type Admission, type AdmissionRequest, type CallAdmission, type CallAdmissionRequest } from "../admission/admit.js";
import type { UsageEventV1 } from "@gateway/events";
import type { ApiRoute } from "@gateway/proto";
import type { RouteKind } from "../catalog/visibility.js";
import type { GuardTexts } from "../guardrails/index.js";
import type { Capability, UpstreamTarget } from "../providers/index.js";
import type { Authenticated } from "../http/request-context.js";
import { stage } from "../http/tracing.js";
import { ClientGoneError, clampedTimeout, clientSignal, worstCaseOf, type AttemptCall } from "./attempts.js";
import { billFailure, type BilledCall, type Charge } from "./bill.js";
import { end, endCall, endRefused } from "./ending.js";
import type { OpenedStream } from "./stream.js";
import { type GatewayError, invalidParam } from "@gateway/errors";

/** A whole answer: billed, checked by the output guardrails, then sent as JSON. */
export interface ServedAnswer {
  kind: "answer";
  /** The deployment that served it. */
  target: UpstreamTarget;
  charge: Charge;
  /**
   * The answer's texts for the output guardrails; absent: the route has none. A mask builds a copy
   * of the answer, and its `rebuild` gives the client's answer built from that copy.
   */
  texts?: () => GuardTexts<() => unknown>;
  /** The client's answer (as the provider gave it), built after the output guardrails and while the usage event travels. */
  render(): unknown;
  /** Stores the rendered answer before it is released (marking in it whether it was); never rejects. */
  keep?(answer: unknown): Promise<unknown>;
}

/** A stream opened at a deployment (its first frames read): relayed, then billed and ended. */
export interface ServedStream {
  kind: "stream";
  target: UpstreamTarget;
  stream: OpenedStream;
  /** The charge once the stream ended (the provider's usage, or what was delivered, counted). */
  charge(): Charge;
}

/** An answer that has no usage event of its own (a token count; a video job, billed when it completes). */
export interface ServedUnbilled {
  kind: "unbilled";
  body: unknown;
  /**
   * The provider received a request that nobody is billed for (a video create that lost an
   * Idempotency-Key race: its job was cancelled, the other create's answered): the ending records
   * its attempts at cost 0, the served one the operator's at the request's worst case.
   */
  absorbed?: boolean;
}

/**
 * Nothing was answered (a stream's client left before its first frame and the drain window passed)
 * but the provider had the request: what it may have done is billed, status 499. The attempt loop
 * reports it as a ClientGoneError that carries the charge; the runner hands it to the ending.
 */
export interface ServedGone {
  kind: "gone";
  target: UpstreamTarget;
  charge: Charge;
  /** Not the client but its credit stopped it (a tranche refused): billed with this error's status, which is the answer. */
  refusal?: GatewayError;
}

export type Served = ServedAnswer | ServedStream | ServedUnbilled | ServedGone;

/** `x-gateway-dry-run: true` asks for admission alone (docs/billing.md#dry-run); any other value than true/false is a 400. */
function dryRunOf(req: Request): boolean {
  const v = req.headers["x-gateway-dry-run"];
  if (v === undefined) return false;
  const s = (Array.isArray(v) ? v.join(",") : v).trim().toLowerCase();
  if (s === "true") return true;
  if (s === "false" || s === "") return false;
  throw invalidParam("x-gateway-dry-run", "The 'x-gateway-dry-run' header must be 'true' or 'false'.");
}

/** What a route's serve stage gets: the validated body, admission's result and the request's bounds (and what the attempt loop needs). */
export interface Call<B, C extends Capability> extends Admission<C, B>, AttemptCall {
  /** The request's context past authentication (http/request-context.ts), passed explicitly. */
  state: Authenticated;
  req: Request;
  /** Written by the ending alone (pipeline/ending.ts); a stage that starts a stream of its own writes to it (video content). */
  res: Response;
  /** Per-attempt timeout, ms (x-gateway-timeout-ms clamped). */
  timeoutMs: number;
}

/**
 * A model route, declared once: how its body is validated, what admission needs to know about it
 * (model, maximum-cost bound, guardrail texts, context check), the adapter capability it needs,
 * and how its attempts run. It returns what was served; it never writes the response.
 */
export interface RouteSpec<B, C extends Capability> {
  route: RouteKind;
  capability: C;
  /** Validates the body (a zod schema through parseBody: 400 naming the field). */
  parse(raw: unknown): B;
  /**
   * What admission needs: model id, the cost bound, guardrail texts, context-check texts, network
   * checks. May validate the body against the catalog (the model's own limits) before anything else.
   */
  admission(body: B, state: Authenticated, ctx: DataPlaneContext, req: Request): Omit<AdmissionRequest<C, B>, "route" | "capability">;
  /** The attempts over the planned deployments (pipeline/attempts.ts): what was served. */
  serve(ctx: DataPlaneContext, call: Call<B, C>): Promise<Served>;
}

/**
 * The runner: the stages in the order a reader expects. The request id, the decoded body and
 * authentication come from the middleware before it; then validation, admission (resolve model →
 * output limit → plan deployments → rate limit → prepare → context pre-check → input guardrails →
 * network checks → translate for each provider kind and bound what is sent → hold; admission/admit.ts), the route's attempts (serve), and the ending every route
 * shares (pipeline/ending.ts: a client that left, output guardrails, the usage event, status,
 * headers and the answer or the relayed stream), and finally the reservation released of whatever
 * was not billed. A request refused before anything was held (validation or admission) ends in
 * `endRefused`: an input guardrail's denial is recorded before its 400 (pipeline/bill.ts), any other
 * 4xx but a 429 leaves a refusal record (usage/refusals.ts).
 * Each stage is a span when the request is traced (http/tracing.ts), and only then.
 */
export function handle<B, C extends Capability>(ctx: DataPlaneContext, spec: RouteSpec<B, C>) {
  return async (req: Request, res: Response, state: Authenticated): Promise<void> => {
    let dryRun = false;
    let admission: Admission<C, B>;
    try {
      dryRun = dryRunOf(req);
      const body = stage(state, "validate", () => spec.parse(req.body));
      // The body as sent: a translated one may not keep `user` or `metadata.user_id`.
      state.attribution = attributionOf(state.key, req, req.body);
      admission = await stage(state, "admission", () => admit(ctx, state, body, { route: spec.route, capability: spec.capability, ...spec.admission(body, state, ctx, req), dryRun }));
    } catch (err) {
      // Refused before anything was held or sent: recorded (nothing billed); a dry run records nothing.
      if (!dryRun) await stage(state, "refused", () => endRefused(ctx, spec.route, state, err, req.body));
      throw err;
    }
    try {
      const call: Call<B, C> = {
        state,
        ...admission,
        req,
        res,
        client: clientSignal(res),
        timeoutMs: clampedTimeout(ctx, req),
        holdMinor: admission.reservation.amount,
        worst: worstCaseOf(admission.model, admission.bound),
      };
      let served: Served;
      try {
        // A dry run ends at admission: nothing held, no provider called, the estimate is the answer.
        served = admission.estimate ? { kind: "unbilled", body: admission.estimate } : await stage(state, "serve", () => spec.serve(ctx, call));
      } catch (err) {
        // The client left, but the provider had the request: the ending bills what it may have done.
        if (err instanceof ClientGoneError && err.billed) {
          const gone: Served = { kind: "gone", ...err.billed, ...(err.refusal ? { refusal: err.refusal } : {}) };
          return await stage(state, "answer", () => end(ctx, spec.route, call, gone));
        }
        // Nothing served, so nothing billed; the attempts made are recorded (who pays for them: docs/billing.md).
        if (admission.bound.total > 0) await billFailure(ctx, state, { model: admission.model, route: spec.route, reservation: admission.reservation, worst: call.worst, err });
        // The client left before anything was served: nobody to answer.
        if (err instanceof ClientGoneError) return;
        throw err;
      }
      await stage(state, "answer", () => end(ctx, spec.route, call, served));
    } finally {
      admission.reservation.settle(0); // no-op when already settled with the actual cost
    }
  };
}

/**
 * What a tool call's serve stage gives: an answer (its charge, the texts for the output guardrails
 * and the answer as the caller gets it), or a failure after which the call is billed as sent when
 * it was (its charge) and at 0 when it never reached the server.
 */
export type ServedCall = { kind: "answer"; charge: Charge; texts?: ServedAnswer["texts"]; render(): unknown } | { kind: "failed"; charge: Charge; err: unknown };

/** What the ending of a call needs: its hold, who is listening, and what its record names. */
export interface EndedCall {
  reservation: Admission<Capability, unknown>["reservation"];
  client: AbortSignal;
  billedAs: BilledCall;
}

/**
 * A tool (an MCP server's), declared once like a model route: what admission needs (the plan step's
 * target, its price as the bound, the texts the input guardrails read), how the call is made, and
 * what its record names. It returns what was served; the ending bills and answers.
 */
export interface CallSpec<T, B> {
  route: ApiRoute;
  admission(body: B): CallAdmissionRequest<T, B> & {
    /** What a call an input guardrail denied is recorded with (its line items at quantity 0). */
    denied(): UsageEventV1["line_items"];
  };
  serve(ctx: DataPlaneContext, call: CallAdmission<T, B> & { state: Authenticated }): Promise<ServedCall>;
  billedAs(target: T): BilledCall;
}

/**
 * The runner of one call of a JSON-RPC batch (a request of its own: http/request-context.ts
 * `callContext`), the same stages as `handle`: admission (admission/admit.ts `admitCall`), serve,
 * and the ending (pipeline/ending.ts `endCall`), each a span; a denial at input recorded; the hold
 * released of whatever was not billed. A caller that left before the call was made gets none made,
 * and nothing recorded. Refusals and failures are thrown as GatewayErrors for the surface to present.
 */
export async function runCall<T, B>(ctx: DataPlaneContext, state: Authenticated, spec: CallSpec<T, B>, body: B, client: AbortSignal): Promise<unknown> {
  const req = spec.admission(body);
  let admission: CallAdmission<T, B>;
  try {
    admission = await stage(state, "admission", () => admitCall(ctx, state, body, req));
  } catch (err) {
    await stage(state, "refused", () => endRefused(ctx, spec.route, state, err, body, () => req.denied()));
    throw err;
  }
  try {
    if (client.aborted) throw new ClientGoneError();
    const served = await stage(state, "serve", () => spec.serve(ctx, { state, ...admission }));
    const ended: EndedCall = { reservation: admission.reservation, client, billedAs: spec.billedAs(admission.target) };
    return await stage(state, "answer", () => endCall(ctx, spec.route, state, ended, served));
  } finally {
    admission.reservation.settle(0); // no-op once settled with the call's cost
  }
}
