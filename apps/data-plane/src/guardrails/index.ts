import type { Response } from "express";
import { GatewayError } from "@gateway/errors";
import { compileRules, headerValue, mergeOutcomes, type CompiledGuardrails, type GuardrailRule, type RuleOutcome, type StageResult, type TextSegment } from "@gateway/guardrails";
import type { KeyContext } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { locals, type GuardState } from "../http/request-context.js";
import { stage as traced } from "../http/tracing.js";

export const GUARDRAILS_HEADER = "x-gateway-guardrails";

/**
 * Compiled rules per org, its current version only (a new version replaces the old compilation
 * rather than sitting beside it); bounded, oldest org out first. Keys of one org share one.
 */
const compiledByOrg = new Map<string, { version: number; rules: CompiledGuardrails }>();
const MAX_ORGS = 10_000;
const byKey = new WeakMap<KeyContext, CompiledGuardrails | null>();

/** The key's organization's rules, compiled once; undefined when it has none (the common case, O(1)). */
export function guardrailsFor(key: KeyContext): CompiledGuardrails | undefined {
  if (!key.guardrails_json) return undefined;
  const cached = byKey.get(key);
  if (cached !== undefined) return cached ?? undefined;
  let g = compiledByOrg.get(key.org_id);
  if (g?.version !== key.guardrails_version) {
    try {
      g = { version: key.guardrails_version, rules: compileRules(JSON.parse(key.guardrails_json) as GuardrailRule[]) };
    } catch {
      // Validated on write; a document this build cannot compile fails closed below.
      byKey.set(key, null);
      throw new GatewayError("service_unavailable", "Your organization's guardrail rules cannot be applied by this gateway; requests are refused until they are fixed.");
    }
    compiledByOrg.delete(key.org_id);
    compiledByOrg.set(key.org_id, g);
    if (compiledByOrg.size > MAX_ORGS) compiledByOrg.delete(compiledByOrg.keys().next().value!);
  }
  byKey.set(key, g.rules);
  return g.rules;
}

/** A request's text parts with a way to write masked text back into the body sent upstream. */
export interface GuardTexts {
  segments: TextSegment[];
  /** Writes segment i's (masked) text back. */
  write(i: number, text: string): void;
}

/** Collects text segments; `add` remembers how to write each one back. */
export class TextCollector implements GuardTexts {
  readonly segments: TextSegment[] = [];
  private readonly writers: Array<(t: string) => void> = [];
  add(text: unknown, write: (t: string) => void): void {
    if (typeof text !== "string" || text.length === 0) return;
    this.segments.push({ text });
    this.writers.push(write);
  }
  write(i: number, text: string): void {
    this.writers[i]!(text);
  }
}

/** The request's guardrail outcomes so far, kept with the rest of its state (http/request-context.ts). */
function state(res: Response): GuardState {
  const l = locals(res);
  return (l.guardrails ??= {});
}

/** Outcomes so far, one per rule (input and output merged), for the usage record; [] without rules. */
export function guardrailOutcomes(res: Response): RuleOutcome[] {
  const s = locals(res).guardrails;
  if (!s?.input && !s?.output) return [];
  return s.input ? mergeOutcomes(s.input, s.output) : s.output!;
}

function publishHeader(res: Response): void {
  if (!res.headersSent) res.setHeader(GUARDRAILS_HEADER, headerValue(guardrailOutcomes(res)));
}

function count(ctx: DataPlaneContext, outcomes: RuleOutcome[]): void {
  for (const o of outcomes) if (o.outcome !== "skipped") ctx.metrics.guardrailOutcomes.inc({ plugin: o.plugin, outcome: o.outcome });
}

function finish(ctx: DataPlaneContext, res: Response, stage: "input" | "output", texts: GuardTexts, before: string[], r: StageResult): void {
  const s = state(res);
  s[stage] = r.outcomes;
  count(ctx, r.outcomes);
  publishHeader(res);
  if (r.denied) throw new GatewayError("guardrail_denied", r.denied.message);
  for (let i = 0; i < texts.segments.length; i++) {
    const after = texts.segments[i]!.text;
    if (after === before[i]) continue;
    texts.write(i, after);
    // A mask longer than what it hides grows the prompt after the body was measured: the hold adds it.
    if (stage === "input") s.grownBytes = (s.grownBytes ?? 0) + Math.max(0, Buffer.byteLength(after) - Buffer.byteLength(before[i]!));
  }
}

/**
 * Runs a stage's rules over the texts: sets x-gateway-guardrails, counts outcomes, throws 400
 * guardrail_denied on a denial, writes masked text back. Synchronous (no await) unless a webhook
 * rule applies; does nothing for organizations without rules.
 */
export function runStage(ctx: DataPlaneContext, res: Response, route: string, stage: "input" | "output", texts: () => GuardTexts): void | Promise<void> {
  const g = guardrailsFor(locals(res).key!);
  if (!g) return;
  if (!g.appliesTo(route, stage)) {
    const s = state(res);
    if (!s[stage]) s[stage] = g.rules.map((r) => (r.name ? { plugin: r.plugin, name: r.name, outcome: "skipped" as const } : { plugin: r.plugin, outcome: "skipped" as const }));
    publishHeader(res);
    return;
  }
  return traced(res, `guardrails.${stage}`, () => {
    const t = texts();
    const before = t.segments.map((s) => s.text);
    const r = g.run(t.segments, { route, stage });
    if (r instanceof Promise) return r.then((done) => finish(ctx, res, stage, t, before, done));
    finish(ctx, res, stage, t, before, r);
  });
}

/** Before any rule ran (an earlier 4xx): every rule `skipped`, so the header is still present. */
export function markUnchecked(res: Response): void {
  if (res.headersSent || res.getHeader(GUARDRAILS_HEADER) !== undefined) return;
  const g = guardrailsFor(locals(res).key!);
  if (!g) return;
  res.setHeader(GUARDRAILS_HEADER, g.rules.map((r) => `${r.plugin}:skipped`).join(","));
}

/** The spec's streaming rule: refuse a stream when an output rule needs the whole answer. */
export function refuseStreamIfNeeded(ctx: DataPlaneContext, res: Response, route: string, stream: boolean): void {
  if (!stream) return;
  const g = guardrailsFor(locals(res).key!);
  if (!g || !g.blocksStreaming(route)) return;
  const blocking = (r: GuardrailRule) => (r.stage === "output" || r.stage === "both") && (r.routes.length === 0 || r.routes.includes(route)) && r.streaming === "refuse" && r.action !== "log";
  const outcomes: RuleOutcome[] = g.rules.map((r) => ({ plugin: r.plugin, ...(r.name ? { name: r.name } : {}), outcome: blocking(r) ? "denied" : "skipped" }));
  state(res).input = outcomes;
  count(ctx, outcomes);
  publishHeader(res);
  const names = g.rules.filter(blocking).map((r) => (r.name ? `'${r.name}' (${r.plugin})` : `'${r.plugin}'`));
  throw new GatewayError(
    "guardrail_requires_non_streaming",
    `Your organization's output guardrail ${names.join(", ")} checks the whole answer: send this request without stream, or ask your admin to set the rule's streaming mode to window.`,
    { param: "stream" },
  );
}

/** The window-mode checker for a stream's output, recording its outcomes for the usage record. */
export function streamOutputChecker(res: Response, route: string): ((delta: string) => string | undefined) | undefined {
  const g = guardrailsFor(locals(res).key!);
  const c = g?.streamChecker(route);
  if (!c) return undefined;
  const s = state(res);
  return (delta: string) => {
    const r = c.feed(delta);
    s.output = c.outcomes();
    return r.denied?.message;
  };
}
