import { GatewayError } from "@gateway/errors";
import { compileRules, headerValue, mergeOutcomes, type CompiledGuardrails, type GuardrailRule, type RuleOutcome, type StageResult, type TextSegment } from "@gateway/guardrails";
import type { KeyContext } from "@gateway/proto";
import type { RequestContext } from "../http/request-context.js";
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

/**
 * A request's or answer's text parts, and how to build a copy of it with some of them replaced
 * (masked): the value read is never changed, later stages get the copy.
 */
export interface GuardTexts<T> {
  segments: TextSegment[];
  /** A copy of the value with each segment that changed since it was read replaced; the value itself when none did. */
  rebuild(): T;
}

type Path = ReadonlyArray<string | number>;

/** Collects the string leaves of a value by their paths; `rebuild` copies only the containers on the paths of changed ones. */
export class TextCollector<T> implements GuardTexts<T> {
  readonly segments: TextSegment[] = [];
  private readonly read: string[] = [];
  private readonly paths: Path[] = [];
  constructor(private readonly root: T) {}
  add(text: unknown, ...path: Path): void {
    if (typeof text !== "string" || text.length === 0) return;
    this.segments.push({ text });
    this.read.push(text);
    this.paths.push(path);
  }
  rebuild(): T {
    let out: unknown = this.root;
    const fresh = new Set<unknown>();
    const set = (node: unknown, path: Path, at: number, value: string): unknown => {
      if (at === path.length) return value;
      const copy = (fresh.has(node) ? node : Array.isArray(node) ? node.slice() : { ...(node as object) }) as Record<string | number, unknown>;
      fresh.add(copy);
      copy[path[at]!] = set(copy[path[at]!], path, at + 1, value);
      return copy;
    };
    for (let i = 0; i < this.segments.length; i++) {
      const text = this.segments[i]!.text;
      if (text !== this.read[i]) out = set(out, this.paths[i]!, 0, text);
    }
    return out as T;
  }
  /** The same texts, rebuilt into something else (the route's request around the body they were read from). */
  map<U>(f: (rebuilt: T) => U): GuardTexts<U> {
    return { segments: this.segments, rebuild: () => f(this.rebuild()) };
  }
}

/** Outcomes so far, one per rule (input and output merged), for the usage record; [] without rules. */
export function guardrailOutcomes(rq: RequestContext): RuleOutcome[] {
  const s = rq.guardrails;
  if (!s.input && !s.output) return [];
  return s.input ? mergeOutcomes(s.input, s.output) : s.output!;
}

/** What the guardrail stages need of the data-plane's context: the outcomes metric (a narrow type, so guardrails import no context). */
export interface GuardrailsContext {
  metrics: { guardrailOutcomes: { inc(labels: { plugin: string; outcome: string }): void } };
}

/**
 * The x-gateway-guardrails value (http/headers.ts writes it): the outcomes so far; when no rule ran
 * yet (an earlier 4xx of a model route), every rule of the organization `skipped`. Undefined for an
 * organization without rules.
 */
export function guardrailsHeader(rq: RequestContext, unchecked: boolean): string | undefined {
  const s = rq.guardrails;
  if (s.input || s.output) return headerValue(guardrailOutcomes(rq));
  if (!unchecked || !rq.key) return undefined;
  try {
    const g = guardrailsFor(rq.key);
    return g?.rules.map((r) => `${r.plugin}:skipped`).join(",");
  } catch {
    // rules that cannot compile: the error at hand is the answer
    return undefined;
  }
}

function count(ctx: GuardrailsContext, outcomes: RuleOutcome[]): void {
  for (const o of outcomes) if (o.outcome !== "skipped") ctx.metrics.guardrailOutcomes.inc({ plugin: o.plugin, outcome: o.outcome });
}

/** Records a stage's outcomes, throws on a denial, and answers the masked copy when a mask changed a text (undefined when none did). */
function finish<T>(ctx: GuardrailsContext, rq: RequestContext, stage: "input" | "output", texts: GuardTexts<T>, before: string[], r: StageResult): T | undefined {
  const s = rq.guardrails;
  s[stage] = r.outcomes;
  count(ctx, r.outcomes);
  if (r.denied) throw new GatewayError("guardrail_denied", r.denied.message);
  let grown = 0;
  let changed = false;
  for (let i = 0; i < texts.segments.length; i++) {
    const after = texts.segments[i]!.text;
    if (after === before[i]) continue;
    changed = true;
    // A mask longer than what it hides grows the prompt after the body was measured: the hold adds it.
    grown += Math.max(0, Buffer.byteLength(after) - Buffer.byteLength(before[i]!));
  }
  if (!changed) return undefined;
  if (stage === "input") s.grownBytes = (s.grownBytes ?? 0) + grown;
  return texts.rebuild();
}

/**
 * Runs a stage's rules over the texts: records and counts outcomes, throws 400
 * guardrail_denied on a denial, and answers a masked copy of what the texts were read from when a
 * mask changed one (undefined otherwise: use the value as it is). Synchronous (no await) unless a
 * webhook rule applies; does nothing for organizations without rules.
 */
export function runStage<T>(ctx: GuardrailsContext, rq: RequestContext, route: string, stage: "input" | "output", texts: () => GuardTexts<T>): T | undefined | Promise<T | undefined> {
  const g = guardrailsFor(rq.key!);
  if (!g) return undefined;
  if (!g.appliesTo(route, stage)) {
    const s = rq.guardrails;
    if (!s[stage]) s[stage] = g.rules.map((r) => (r.name ? { plugin: r.plugin, name: r.name, outcome: "skipped" as const } : { plugin: r.plugin, outcome: "skipped" as const }));
    return undefined;
  }
  return traced(rq, `guardrails.${stage}`, () => {
    const t = texts();
    const before = t.segments.map((s) => s.text);
    const r = g.run(t.segments, { route, stage });
    if (r instanceof Promise) return r.then((done) => finish(ctx, rq, stage, t, before, done));
    return finish(ctx, rq, stage, t, before, r);
  });
}

/** The spec's streaming rule: refuse a stream when an output rule needs the whole answer. */
export function refuseStreamIfNeeded(ctx: GuardrailsContext, rq: RequestContext, route: string, stream: boolean): void {
  if (!stream) return;
  const g = guardrailsFor(rq.key!);
  if (!g || !g.blocksStreaming(route)) return;
  const blocking = (r: GuardrailRule) => (r.stage === "output" || r.stage === "both") && (r.routes.length === 0 || r.routes.includes(route)) && r.streaming === "refuse" && r.action !== "log";
  const outcomes: RuleOutcome[] = g.rules.map((r) => ({ plugin: r.plugin, ...(r.name ? { name: r.name } : {}), outcome: blocking(r) ? "denied" : "skipped" }));
  rq.guardrails.input = outcomes;
  count(ctx, outcomes);
  const names = g.rules.filter(blocking).map((r) => (r.name ? `'${r.name}' (${r.plugin})` : `'${r.plugin}'`));
  throw new GatewayError(
    "guardrail_requires_non_streaming",
    `Your organization's output guardrail ${names.join(", ")} checks the whole answer: send this request without stream, or ask your admin to set the rule's streaming mode to window.`,
    { param: "stream" },
  );
}

/** The window-mode checker for a stream's output, recording its outcomes for the usage record. */
export function streamOutputChecker(rq: RequestContext, route: string): ((delta: string) => string | undefined) | undefined {
  const g = guardrailsFor(rq.key!);
  const c = g?.streamChecker(route);
  if (!c) return undefined;
  const s = rq.guardrails;
  return (delta: string) => {
    const r = c.feed(delta);
    s.output = c.outcomes();
    return r.denied?.message;
  };
}
