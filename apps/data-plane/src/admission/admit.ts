import { GatewayError, invalidParam } from "@gateway/errors";
import type { ApiRoute, Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { resolveModel, type RouteKind } from "../catalog/visibility.js";
import { NO_AUDIO, dearestInput, dearestOutput, maxTokenCostMinor, pricesFor, tokenPrices, type AudioUse } from "@gateway/pricing";
import type { BudgetClaim, Reservation } from "../credits/lease-manager.js";
import type { Authenticated } from "../http/request-context.js";
import { refuseStreamIfNeeded, runStage, type GuardTexts } from "../guardrails/index.js";
import { plan, type Planned } from "./plan.js";
import { spendRules } from "./attribution.js";
import { trancheSpec, tranchesFit, type TrancheSpec } from "../pipeline/tranches.js";
import { LONG_CACHE_MS, SHORT_CACHE_MS, pinsPay, sessionKeyOf, type SessionSource } from "../routing/session-key.js";
import { translateFor, type Routed } from "../translate/pairs/index.js";
import type { ClientApi, ClientRequests, Translation } from "../translate/translation.js";
import type { Capability, UpstreamTarget } from "../providers/index.js";
import { PROVIDERS } from "../providers/table.js";
import { stage } from "../http/tracing.js";

/** A route's client API (data) and its request as that API's translators take it. */
export type ClientOf<B> = { [A in ClientApi]: { api: A; request: (body: B, model: Model) => ClientRequests[A] } }[ClientApi];

/** What admission needs to know about a request whose body (the route's parsed request) is a `B`. */
export interface AdmissionRequest<C extends Capability, B> {
  route: RouteKind;
  /** The adapter capability the route needs: deployments without it are not planned. */
  capability: C;
  modelId: string;
  /**
   * Upper bound of the prompt's tokens for the resolved model (credits/bounds.ts; no tokenizer on
   * the hot path). `sentBytes`: the largest upstream request body the deployments may be sent
   * (after `translate`), in bytes: the bound covers what is sent, not only what the client sent.
   */
  promptTokensBound: (model: Model, body: B, sentBytes?: number) => number;
  /**
   * The client API the route speaks and its request as the translators take it: admission translates
   * it for each planned deployment's provider kind (providers/table.ts), after the input guardrails
   * and before the hold, so a body no deployment can take is a 400 with nothing held, and the hold
   * covers the largest request actually sent. The attempts send those requests.
   */
  client?: ClientOf<B>;
  /** Prompt tokens the request's images count at most (part of the prompt bound): billed at least when a stream ends without the provider's usage. */
  imageTokens?: (model: Model, body: B) => number;
  /** The request offers tools: the provider's own tool prompt (the catalog's tool_prompt_tokens) is added to the prompt bound. */
  offersTools?: boolean;
  /** Output tokens the caller asked for (max_tokens …), if any, per choice. */
  requestedOutput: number | undefined;
  /** Choices asked for (`n`): each may produce the whole output. */
  choices?: number;
  /** Name of the request field that set requestedOutput, for error messages and `x-gateway-clamped`. */
  outputParam?: string;
  /**
   * The request with its output limit set to `limit`: a request asking for more output than the
   * model allows is clamped to the model's limit (unless its organization's policy is `strict`),
   * and everything after (the hold, the provider's request) sees the clamped value. Absent: such a
   * request is a 400.
   */
  clampOutput?: (body: B, limit: number) => B;
  /** Audio sent (input parts) or asked for (output): held at the model's audio prices (credits/cost.ts). Read after prepare. */
  audio?: (body: B) => AudioUse;
  /**
   * Checks the request against the resolved model (a video's duration among the model's …) and
   * gives it with the model's defaults filled in, in the resolve step: its 400 comes after the
   * model's 403/404 and before rate limits, and later stages (the bound, the attempts) read the
   * fitted body, so a catalog change between two checks cannot split them.
   */
  fit?: (body: B, model: Model) => B;
  /** Exact maximum cost when the route prices by unit (images, video), minor credit units. */
  maxCostMinor?: (model: Model, body: B) => number;
  /** The most the tools the provider bills per use beside the tokens (web search) can cost, minor credit units: held on top. */
  perUseCostMinor?: (model: Model) => number;
  /**
   * The per-use tools counted one by one (web searches: `count` offered at most, `unitMinor` each,
   * a search and its results): a request held in tranches holds one use at admission and each
   * further use as it is seen run. Absent: held all at once (perUseCostMinor).
   */
  perUseUnits?: (model: Model, body: B) => { count: number; unitMinor: number };
  /** Nothing is billed (a token count): no hold, and no check of usage recording capacity. */
  free?: boolean;
  /**
   * A dry run (`x-gateway-dry-run: true`): every stage runs, the credit check included (a hold is
   * placed and released at once, so a request the balance cannot cover is the same 402), and the
   * admission returns the estimate instead of a hold.
   */
  dryRun?: boolean;
  /**
   * The request is streamed from the provider: its output can be held in tranches (pipeline/tranches.ts)
   * when its worst case exceeds the prompt and one tranche, the hold extended as the stream goes.
   */
  tranches?: boolean;
  /**
   * A request whose client wants a whole answer, as its providers are sent it when its worst case
   * would be held in tranches: streamed, so the hold can be extended and the request stopped as a
   * stream's is, and the answer read whole from the stream (pipeline/chat.ts). Undefined (or
   * absent): it is sent as asked and held whole (a chat request for spoken output: the provider
   * streams audio only as raw PCM).
   */
  streamed?: (body: B) => B | undefined;
  /** Hold the maximum cost in a lease of its own (work that outlives the request: video jobs). */
  dedicatedHold?: boolean;
  /**
   * The request's agent session (its client's id, or its opening messages): where the model's cached
   * reads are cheaper and it has more than one deployment, the session's turns are planned on the
   * deployment that served it last while its provider's cache lives (docs/providers.md, "Cache-warm routing").
   */
  session?: (body: B) => SessionSource | undefined;
  /** Input guardrails: the request's text parts; a mask gives a masked copy of the body, which later stages get. */
  guard?: { stream: boolean; texts: (body: B) => GuardTexts<B> };
  /** Prompt texts, for the context-window pre-check (only called when that check is enabled). */
  promptTexts?: (body: B) => string[];
  /**
   * Completes the request from stored state (the earlier turns of `previous_response_id`), right
   * after rate limits, as a new body: the context pre-check, the guardrails and the hold then see all of it.
   */
  prepare?: (body: B) => Promise<B>;
  /** A check that needs the network (media URLs): after rate limits, before credit is held. */
  verify?: () => Promise<void>;
}

export interface Admission<C extends Capability, B> {
  /** The request as the attempts send it: completed by `prepare`, masked by the input guardrails (a new value when either changed it). */
  body: B;
  model: Model;
  /** The deployments to try, in order (never empty). */
  planned: Planned<C>[];
  /** The planned deployments with the request translated for each (empty for a route without `translate`). */
  routed: Routed[];
  reservation: Reservation;
  /** The most the request can cost and its parts (zero for a free request). */
  bound: Bound;
  /** A dry run's answer: the most the request can cost and how it was bounded. */
  estimate?: Estimate;
  /** Held in tranches: the reservation holds the prompt and the output tranches so far, not the whole bound. */
  tranche?: TrancheSpec;
  /**
   * The client wants a whole answer but the request is held in tranches: `routed` sends it streamed
   * (AdmissionRequest.streamed), and the attempts read each provider's answer whole from its stream.
   */
  collected?: boolean;
}

/** What a dry run answers (docs/billing.md): the hold the request would take and its parts. */
export interface Estimate {
  object: "estimate";
  model: string;
  route: string;
  /** The most the request can cost, minor credit units. */
  max_cost_minor: number;
  /**
   * What admission holds now, minor credit units: the whole bound, or for a stream held in tranches
   * its prompt and first output tranche (each further tranche is held as the answer grows).
   */
  hold_minor: number;
  /** Output tokens one tranche holds; absent when the request is held whole. */
  tranche_tokens?: number;
  /** The budgets the request is held under besides the credit (docs/billing.md, "Budgets"): each one's scope, cap and window. */
  budgets?: Array<{ scope: string; limit_minor: number; window: string }>;
  /** Whether the balance and the budget can hold `hold_minor` now: the real request would be admitted. */
  admitted: boolean;
  /** Why it would not be (the 402 the real request would get): its code and message. */
  refusal?: { code: string; message: string };
  /** How it was bounded: tokens at their dearest price, per-use tools, or the unit price. */
  lines: Array<{ item: string; quantity: number; unit_price_minor: number; per: string; cost_minor: number }>;
  /** The deployments the request would try, in order. */
  deployments: Array<{ provider: string; upstream_model: string }>;
}

const NOTHING_HELD: Reservation = { leaseId: "", amount: 0, settle: () => undefined };

/**
 * The admission stages every model route runs, in this order: catalog visibility and policy
 * (403/404/400), output limit (400), planning (503 when no deployment can serve the route: before
 * anything is held), rate limits (429), context-window pre-check (400), the guardrails' streaming
 * rule and input guardrails (400), network checks of the request (400), usage recording capacity
 * (503), credits and budget (402). Nothing here does I/O except the guardrail webhook, the media
 * checks and a credit-lease extension when the replica's local lease cannot cover the request.
 */
export async function admit<C extends Capability, B>(ctx: DataPlaneContext, l: Authenticated, parsed: B, req: AdmissionRequest<C, B>): Promise<Admission<C, B>> {
  const { key } = l;
  l.model = req.modelId;
  const model = stage(l, "resolve_model", () => {
    // The version whose prices the request is billed at (its usage event names it).
    l.catalogVersion = ctx.catalog.current.version;
    const m = resolveModel(key, ctx.catalog.current, ctx.catalog.trialPolicy, req.route, req.modelId);
    l.modelResolved = true;
    if (req.requestedOutput !== undefined && m.max_output_tokens > 0 && req.requestedOutput > m.max_output_tokens) {
      const field = req.outputParam ?? "max_tokens";
      // An agent's limit is a ceiling, not a need: the answer cannot be longer than the model
      // allows anyway (docs/agents.md, "Output limits"). An organization can ask for the 400.
      if (key.org_output_limit === "strict" || !req.clampOutput) {
        throw invalidParam(field, `'${field}' (${req.requestedOutput}) exceeds the output limit of '${m.id}' (${m.max_output_tokens}).`);
      }
      l.clamped = `${field}=${m.max_output_tokens}`;
    }
    return m;
  });
  if (l.clamped) {
    parsed = req.clampOutput!(parsed, model.max_output_tokens);
    req = { ...req, requestedOutput: model.max_output_tokens };
  }
  if (req.fit) parsed = stage(l, "fit", () => req.fit!(parsed, model));
  const { pins } = ctx;
  if (pins && req.session && pinsPay(model)) {
    const s = req.session(parsed);
    if (s) {
      const key = sessionKeyOf(l.key.org_id, model.id, s.source);
      l.session = { key, ttlMs: s.longCache ? LONG_CACHE_MS : SHORT_CACHE_MS, pinned: pins.get(key) };
    }
  }
  const planned = stage(l, "plan", () => plan(ctx, model, req.capability, l.session?.pinned));
  stage(l, "rate_limit", () => applyRateLimit(ctx, l));
  const { prepare, promptTexts, guard } = req;
  let body = prepare ? await stage(l, "prepare", () => prepare(parsed)) : parsed;
  const { contextChecker } = ctx;
  if (contextChecker && promptTexts) {
    stage(l, "context_check", () => contextChecker.check(model, model.deployments[0]?.upstream_model ?? "", promptTexts(body), req.requestedOutput));
  }
  if (guard) {
    refuseStreamIfNeeded(ctx, l, req.route, guard.stream);
    const ran = runStage(ctx, l, req.route, "input", () => guard.texts(body));
    const masked = ran instanceof Promise ? await ran : ran;
    if (masked) body = masked;
  }
  if (req.verify) await stage(l, "verify", req.verify);
  const { client } = req;
  let routed: Routed[] = [];
  let sentBytes = 0;
  const trancheTokens = ctx.config.holdTrancheTokens;
  // A whole answer whose worst case would be held in tranches is asked of the providers as a stream.
  const streamed =
    req.streamed && !req.tranches && !req.dedicatedHold && tranchesFit(model, { output: outputBoundOf(req, model), unitPriced: req.maxCostMinor !== undefined }, trancheTokens)
      ? req.streamed(body)
      : undefined;
  let collected = false;
  if (client) ({ routed, sentBytes, collected } = stage(l, "translate", () => translated(client, planned as Planned<Capability>[] as Planned<"chat">[], body, streamed, model)));
  if (req.free) return { body, model, planned, routed, reservation: NOTHING_HELD, bound: FREE, ...(req.dryRun ? { estimate: estimateOf(req, model, planned, FREE) } : {}) };
  refuseWhenSaturated(ctx, "paid requests");
  const bound = boundOf(req, model, body, l.guardrails.grownBytes, sentBytes);
  const uses = req.perUseUnits?.(model, body);
  const tranche: TrancheSpec | undefined = (req.tranches || collected) && !req.dedicatedHold && tranchesFit(model, bound, trancheTokens) ? trancheSpec(model, bound, trancheTokens, uses) : undefined;
  // Held in tranches: the prompt, the first output tranche and one use of the per-use tools (all of
  // them when the route cannot count them one by one); else the whole bound.
  const perUseHeld = tranche && uses ? Math.min(bound.perUse, tranche.useMinor) : bound.perUse;
  const holdMinor = tranche ? maxTokenCostMinor(bound.prompt, 0, model, bound.audio) + tranche.trancheMinor + perUseHeld : bound.total;
  if (req.dryRun) {
    // The credit check as the request would meet it, released at once: a hold the balance or the
    // budget cannot cover is the estimate with `admitted: false` and the 402's code and message.
    let refusal: GatewayError | undefined;
    const rules = spendRules(key, l.attribution);
    try {
      const held = ctx.leases.reserveLocal(key.org_id, holdMinor, rules.claims) ?? (await ctx.leases.reserve(key.org_id, holdMinor, rules.monthlyBudgetMinor, rules.claims, rules.balanceAlertsMinor));
      held.settle(0);
    } catch (err) {
      if (!(err instanceof GatewayError) || (err.code !== "insufficient_credits" && err.code !== "budget_exceeded")) throw err;
      refusal = err;
    }
    const estimate = estimateOf(req, model, planned, bound, holdMinor, tranche, refusal, rules.claims);
    return { body, model, planned, routed, reservation: NOTHING_HELD, bound, estimate };
  }
  const hold = holdCredits(ctx, l, holdMinor, req.dedicatedHold);
  // A reservation the local lease covers continues in this turn (no await, no extra promise).
  const reservation = hold instanceof Promise ? await hold : hold;
  return { body, model, planned, routed, reservation, bound, ...(tranche ? { tranche } : {}), ...(collected ? { collected } : {}) };
}

/**
 * The request translated for the planned deployments and the largest body sent (sentRequests):
 * `streamed`, its streamed twin for a client that wants a whole answer, when every provider kind
 * planned can answer it from its stream (`collected`); else the request as the client sent it.
 */
function translated<B>(client: ClientOf<B>, planned: readonly Planned<"chat">[], body: B, streamed: B | undefined, model: Model): { routed: Routed[]; sentBytes: number; collected: boolean } {
  if (streamed !== undefined) {
    const sent = sentRequests(translateFor(client.api, planned, client.request(streamed, model)));
    if (sent.routed.every((r) => r.translation.collects)) return { ...sent, collected: true };
  }
  return { ...sentRequests(translateFor(client.api, planned, client.request(body, model))), collected: false };
}

/**
 * A call of a priced tool (an MCP `tools/call`) as admission sees it: a model route's stages where
 * they apply, the plan step's target the server and tool (refused when its definition is not
 * approved) and the bound its price.
 */
export interface CallAdmissionRequest<T, B> {
  route: ApiRoute;
  /** The plan step: the call's target, the name its record gives it, and its price in minor credit units (the bound). */
  plan: () => Promise<{ target: T; name: string; price: number }>;
  /** The call's texts for the input guardrails; a mask gives the masked copy, which is what is sent. */
  guard: (body: B) => GuardTexts<B>;
  /** What is paused while usage recording is backed up, for the 503's message. */
  what: string;
}

export interface CallAdmission<T, B> {
  target: T;
  /** What is sent: the call's arguments, masked by the input guardrails (a copy when a mask changed them). */
  body: B;
  /** Minor credit units: what the call is billed when it is sent, and what is held. */
  price: number;
  reservation: Reservation;
}

/**
 * The admission stages of a tool call, each a span when the request is traced, in a model route's
 * order: resolve and plan (the target, its price at the catalog version the record names), the
 * key's rate limits (429, and the x-ratelimit-* headers), the input guardrails (400), usage
 * recording capacity (503: every call is recorded, priced or not) and the price held (402).
 */
export async function admitCall<T, B>(ctx: DataPlaneContext, l: Authenticated, parsed: B, req: CallAdmissionRequest<T, B>): Promise<CallAdmission<T, B>> {
  l.catalogVersion = ctx.catalog.current.version;
  const { target, name, price } = await stage(l, "plan", req.plan);
  l.model = name;
  l.modelResolved = true;
  stage(l, "rate_limit", () => applyRateLimit(ctx, l));
  const ran = runStage(ctx, l, req.route, "input", () => req.guard(parsed));
  const body = (ran instanceof Promise ? await ran : ran) ?? parsed;
  refuseWhenSaturated(ctx, req.what);
  const hold = price > 0 ? holdCredits(ctx, l, price) : NOTHING_HELD;
  return { target, body, price, reservation: hold instanceof Promise ? await hold : hold };
}

/**
 * The hold of a request's most it can cost (402 when the balance or the monthly budget cannot
 * cover it), in the span `gateway.credits.hold`: from the replica's local lease when it covers it
 * (no round trip), else by extending it at the ledger; `dedicated`, leases of its own for the credit
 * and each budget (work that outlives the request). Model routes and MCP tool calls hold through it.
 */
export function holdCredits(ctx: DataPlaneContext, l: Authenticated, amount: number, dedicated = false): Reservation | Promise<Reservation> {
  const { key } = l;
  const rules = spendRules(key, l.attribution);
  return stage(l, "credits.hold", () =>
    dedicated
      ? ctx.leases.dedicated.hold(key.org_id, amount, rules.monthlyBudgetMinor, rules.balanceAlertsMinor, rules.claims)
      : (ctx.leases.reserveLocal(key.org_id, amount, rules.claims) ?? ctx.leases.reserve(key.org_id, amount, rules.monthlyBudgetMinor, rules.claims, rules.balanceAlertsMinor)),
  );
}

/**
 * The upstream requests of the routed deployments, built now (each translation keeps the request
 * it built for a deployment, so the attempt sends that one), and the largest body among them, in
 * bytes: one build per provider kind, the other deployments of a kind differing only by their
 * upstream model's name (per deployment for a kind whose body depends on more: Gemini's). A kind whose request cannot be built (a field its wire format has no
 * place for, a schema past its budget) is left out; when none is left, its 400 is the answer.
 */
export function sentRequests(routed: Routed[]): { routed: Routed[]; sentBytes: number } {
  const firsts = new Map<Translation | UpstreamTarget, { bytes: number; model: number } | GatewayError>();
  let sentBytes = 0;
  let refused: GatewayError | undefined;
  const kept: Routed[] = [];
  for (const r of routed) {
    const modelBytes = Buffer.byteLength(r.target.deployment.upstream_model);
    const key = PROVIDERS[r.target.provider.kind].bodyPerDeployment ? r.target : r.translation;
    let first = firsts.get(key);
    if (first === undefined) {
      try {
        const body = r.translation.request(r.target).body;
        first = { bytes: body === undefined ? 0 : Buffer.byteLength(body), model: modelBytes };
      } catch (err) {
        if (!(err instanceof GatewayError)) throw err;
        first = err;
      }
      firsts.set(key, first);
    }
    if (first instanceof GatewayError) {
      refused ??= first;
      continue;
    }
    kept.push(r);
    sentBytes = Math.max(sentBytes, first.bytes + Math.max(0, modelBytes - first.model));
  }
  if (kept.length === 0) throw refused ?? new GatewayError("model_unavailable", "No provider could serve the request.");
  return { routed: kept, sentBytes };
}

/** The most a request can cost (minor credit units) and its parts: the prompt and output token bounds, or a unit price, and per-use tools. */
export interface Bound {
  /** Prompt tokens at most (0 on routes priced by unit). */
  prompt: number;
  /** Output tokens at most, every choice. */
  output: number;
  perUse: number;
  total: number;
  /** Priced by unit (images, video): total is the unit price, not tokens. */
  unitPriced?: boolean;
  /** Audio sent or asked for: its tokens held at the audio prices. */
  audio?: AudioUse;
  /** Of the prompt, what its images count at most (the catalog's maximum per image). */
  images?: number;
}

const FREE: Bound = { prompt: 0, output: 0, perUse: 0, total: 0 };

/** Output tokens at most, every choice: the limit asked for (or the model's) × `n`. */
const outputBoundOf = <C extends Capability, B>(req: AdmissionRequest<C, B>, model: Model): number => (req.requestedOutput ?? model.max_output_tokens) * (req.choices ?? 1);

/**
 * The request's bound, taken after the input guardrails: what their masks added to the prompt
 * counts too (a token per byte, within the context window).
 */
function boundOf<C extends Capability, B>(req: AdmissionRequest<C, B>, model: Model, body: B, grownBytes = 0, sentBytes = 0): Bound {
  const output = outputBoundOf(req, model);
  const perUse = req.perUseCostMinor?.(model) ?? 0;
  if (req.maxCostMinor) return { prompt: 0, output, perUse, total: req.maxCostMinor(model, body) + perUse, unitPriced: true };
  // What the masks added is in the translated requests already; the client's body bound gets it on top.
  const asked = Math.max(req.promptTokensBound(model, body) + grownBytes, sentBytes > 0 ? req.promptTokensBound(model, body, sentBytes) : 0) + (req.offersTools ? (model.tool_prompt_tokens ?? 0) : 0);
  const prompt = model.context_window > 0 ? Math.min(asked, model.context_window) : asked;
  const audio = req.audio?.(body);
  const images = req.imageTokens?.(model, body) ?? 0;
  return { prompt, output, perUse, total: maxTokenCostMinor(prompt, output, model, audio) + perUse, ...(audio ? { audio } : {}), ...(images > 0 ? { images } : {}) };
}

function estimateOf<C extends Capability, B>(
  req: AdmissionRequest<C, B>,
  model: Model,
  planned: Planned<C>[],
  bound: Bound,
  holdMinor = bound.total,
  tranche?: TrancheSpec,
  refusal?: GatewayError,
  claims: readonly BudgetClaim[] = [],
): Estimate {
  const lines: Estimate["lines"] = [];
  const { perUse, total } = bound;
  if (req.maxCostMinor) lines.push({ item: req.route, quantity: 1, unit_price_minor: total - perUse, per: "request", cost_minor: total - perUse });
  else {
    const p = tokenPrices(pricesFor(model, bound.prompt));
    const tokens = (item: string, quantity: number, price: number) => ({ item, quantity, unit_price_minor: price, per: "1M tokens", cost_minor: Math.ceil((quantity * price) / 1_000_000) });
    const audio = bound.audio ?? NO_AUDIO;
    lines.push(tokens("input_tokens", bound.prompt, dearestInput(p, audio)));
    if (bound.output > 0) lines.push(tokens("output_tokens", bound.output, dearestOutput(p, audio)));
  }
  if (perUse > 0) lines.push({ item: "server_tools", quantity: 1, unit_price_minor: perUse, per: "request", cost_minor: perUse });
  return {
    object: "estimate",
    model: model.id,
    route: req.route,
    max_cost_minor: total,
    hold_minor: holdMinor,
    ...(tranche ? { tranche_tokens: tranche.tokens } : {}),
    ...(claims.length > 0 ? { budgets: claims.map((c) => ({ scope: c.scope, limit_minor: c.limitMinor, window: c.window })) } : {}),
    admitted: refusal === undefined,
    ...(refusal ? { refusal: { code: refusal.code, message: refusal.message } } : {}),
    lines,
    deployments: planned.map((p) => ({ provider: p.target.provider.code, upstream_model: p.target.deployment.upstream_model })),
  };
}

/**
 * No request whose record could not be kept is made: while the spool is full (NATS away), paid work
 * is refused with a 503 and `retry_after_s` (`what`: what is paused, for the message).
 */
export function refuseWhenSaturated(ctx: DataPlaneContext, what: string): void {
  if (ctx.publisher.saturated) throw new GatewayError("service_unavailable", `Usage recording is backed up; ${what} are paused. Retry shortly.`, { retry_after_s: 5 });
}

/** The key's rate limits (429 when over); their state goes out in the x-ratelimit-* headers. */
export function applyRateLimit(ctx: DataPlaneContext, l: Authenticated): void {
  const { key } = l;
  const limits = ctx.rateLimiter.admit(key.key_id, key.rpm_limit, key.tpm_limit);
  if (limits) l.rateLimit = limits;
}
