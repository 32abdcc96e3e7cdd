import { RE2JS } from "re2js";
import { detectorsFor, findPii, maskPii } from "./pii.js";
import { requiredLiteral } from "./literal.js";
import { GuardrailConfigError, type GuardrailRule, type Outcome, type PiiType, type Stage } from "./rules.js";

/** One text part of a request or response; masking rewrites `text` in place. */
export interface TextSegment {
  text: string;
}

export interface RuleOutcome {
  plugin: string;
  name?: string;
  outcome: Outcome;
}

export interface StageResult {
  /** One per rule, in rule order (rules that do not apply here are `skipped`). */
  outcomes: RuleOutcome[];
  denied?: { plugin: string; name?: string; message: string };
}

export interface RunOptions {
  route: string;
  stage: Stage;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/** What a rule's matcher says about a text. */
interface Check {
  /** A short description of what was found (never the matched text), or undefined. */
  find(text: string): string | undefined;
  mask(text: string): { text: string; changed: boolean };
}

const REDACTED = "[REDACTED]";
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compileCheck(rule: GuardrailRule): Check | undefined {
  switch (rule.plugin) {
    case "pii": {
      const ds = detectorsFor(rule.config.types as PiiType[]);
      return { find: (t) => findPii(t, ds), mask: (t) => maskPii(t, ds) };
    }
    case "regex": {
      // Operators' patterns run on RE2 (linear time): no pattern can stall the gateway. One
      // compiled pattern each; `test` (no submatch tracking) decides, and only a text that
      // matches pays for the replacement pass.
      let res: RE2JS[];
      try {
        res = (rule.config.patterns as string[]).map((p) => RE2JS.compile(p));
      } catch (err) {
        throw new GuardrailConfigError(`invalid pattern: ${(err as Error).message}`);
      }
      // A literal each match must contain lets most texts skip RE2 (which is slow under (?i)).
      const literals = (rule.config.patterns as string[]).map(requiredLiteral);
      const matches = (i: number, t: string, lower: () => string): boolean => {
        const lit = literals[i];
        if (lit && !(lit.caseInsensitive ? lower() : t).includes(lit.text)) return false;
        return res[i]!.test(t);
      };
      const lowerOf = (t: string) => {
        let l: string | undefined;
        return () => (l ??= t.toLowerCase());
      };
      return {
        find: (t) => {
          const lower = lowerOf(t);
          return res.some((_, i) => matches(i, t, lower)) ? "pattern" : undefined;
        },
        mask: (t) => {
          let text = t;
          let changed = false;
          for (let i = 0; i < res.length; i++) {
            if (!matches(i, text, lowerOf(text))) continue;
            text = res[i]!.matcher(text).replaceAll(REDACTED);
            changed = true;
          }
          return { text, changed };
        },
      };
    }
    case "keywords": {
      const words = (rule.config.words as string[]).map(escapeRe).sort((a, b) => b.length - a.length);
      // One alternation of literal words between word boundaries: one pass for the whole list.
      const re = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${words.join("|")})(?![\\p{L}\\p{N}_])`, rule.config.case_sensitive ? "gu" : "giu");
      return {
        find: (t) => {
          re.lastIndex = 0;
          return re.test(t) ? "keyword" : undefined;
        },
        mask: (t) => {
          let changed = false;
          const text = t.replace(re, () => ((changed = true), REDACTED));
          return { text, changed };
        },
      };
    }
    default:
      return undefined;
  }
}

interface Compiled {
  rule: GuardrailRule;
  check: Check | undefined;
}

const applies = (rule: GuardrailRule, route: string, stage: Stage) => (rule.stage === "both" || rule.stage === stage) && (rule.routes.length === 0 || rule.routes.includes(route));

const label = (rule: GuardrailRule) => (rule.name ? `'${rule.name}' (${rule.plugin})` : `'${rule.plugin}'`);

/** Significance of outcomes when one rule ran at two stages (for one header entry per rule). */
const RANK: Record<Outcome, number> = { skipped: 0, pass: 1, logged: 2, error: 3, masked: 4, denied: 5 };
export function mergeOutcomes(a: RuleOutcome[], b: RuleOutcome[] | undefined): RuleOutcome[] {
  if (!b) return a;
  return a.map((x, i) => (b[i] && RANK[b[i]!.outcome] > RANK[x.outcome] ? b[i]! : x));
}

/** `plugin:outcome,…` for the x-gateway-guardrails header. */
export function headerValue(outcomes: RuleOutcome[]): string {
  return outcomes.map((o) => `${o.plugin}:${o.outcome}`).join(",");
}

/** Window-by-window checks of a streamed answer (rules with `streaming: window`, and log-only rules). */
export interface StreamChecker {
  /** Feeds the next piece of text; a violation means: end the stream with an error. */
  feed(delta: string): { denied?: { plugin: string; name?: string; message: string } };
  /** Outcomes so far, one per rule in rule order. */
  outcomes(): RuleOutcome[];
}

/** Characters of already-checked text re-checked with each new piece, so a match split across pieces is found. */
const OVERLAP = 512;

/** An organization's rules, compiled once (patterns, word lists) and run per request. */
export class CompiledGuardrails {
  private readonly compiled: Compiled[];

  constructor(readonly rules: readonly GuardrailRule[]) {
    this.compiled = rules.map((rule) => ({ rule, check: compileCheck(rule) }));
  }

  appliesTo(route: string, stage: Stage): boolean {
    return this.rules.some((r) => applies(r, route, stage));
  }

  /** True when an output rule for the route needs the whole answer (not log-only, not window mode). */
  blocksStreaming(route: string): boolean {
    return this.rules.some((r) => applies(r, route, "output") && r.streaming === "refuse" && r.action !== "log");
  }

  /**
   * Runs the stage's rules over the segments in rule order. Synchronous unless a webhook rule
   * applies. Deny stops at the first violation (later rules: skipped); mask rewrites the segments;
   * log records and changes nothing.
   */
  run(segments: TextSegment[], opts: RunOptions): StageResult | Promise<StageResult> {
    const outcomes: RuleOutcome[] = [];
    for (let i = 0; i < this.compiled.length; i++) {
      const { rule, check } = this.compiled[i]!;
      if (!applies(rule, opts.route, opts.stage)) {
        outcomes.push(this.outcome(rule, "skipped"));
        continue;
      }
      if (rule.plugin === "webhook") return this.runAsync(segments, opts, outcomes, i);
      const denied = this.runOne(rule, check, segments, opts.stage, outcomes);
      if (denied) return this.finishDenied(outcomes, i, denied);
    }
    return { outcomes };
  }

  private async runAsync(segments: TextSegment[], opts: RunOptions, outcomes: RuleOutcome[], from: number): Promise<StageResult> {
    for (let i = from; i < this.compiled.length; i++) {
      const { rule, check } = this.compiled[i]!;
      if (!applies(rule, opts.route, opts.stage)) {
        outcomes.push(this.outcome(rule, "skipped"));
        continue;
      }
      const denied = rule.plugin === "webhook" ? await this.webhook(rule, segments, opts, outcomes) : this.runOne(rule, check, segments, opts.stage, outcomes);
      if (denied) return this.finishDenied(outcomes, i, denied);
    }
    return { outcomes };
  }

  private finishDenied(outcomes: RuleOutcome[], at: number, denied: StageResult["denied"]): StageResult {
    for (let j = at + 1; j < this.compiled.length; j++) outcomes.push(this.outcome(this.compiled[j]!.rule, "skipped"));
    return { outcomes, denied };
  }

  private outcome(rule: GuardrailRule, outcome: Outcome): RuleOutcome {
    return rule.name ? { plugin: rule.plugin, name: rule.name, outcome } : { plugin: rule.plugin, outcome };
  }

  private deny(rule: GuardrailRule, stage: Stage, what: string): NonNullable<StageResult["denied"]> {
    const where = stage === "input" ? "Input" : "Output";
    return { plugin: rule.plugin, ...(rule.name ? { name: rule.name } : {}), message: `${where} blocked by guardrail ${label(rule)}: ${what}.` };
  }

  /** One synchronous rule; returns the denial when it denies. */
  private runOne(rule: GuardrailRule, check: Check | undefined, segments: TextSegment[], stage: Stage, outcomes: RuleOutcome[]): StageResult["denied"] {
    if (rule.plugin === "length") {
      let chars = 0;
      for (const s of segments) chars += s.text.length;
      const maxChars = rule.config.max_chars as number | undefined;
      const maxTokens = rule.config.max_tokens as number | undefined;
      const over =
        maxChars !== undefined && chars > maxChars
          ? `${chars} characters exceed ${maxChars}`
          : maxTokens !== undefined && Math.ceil(chars / 4) > maxTokens
            ? `about ${Math.ceil(chars / 4)} tokens exceed ${maxTokens}`
            : undefined;
      if (!over) return void outcomes.push(this.outcome(rule, "pass"));
      if (rule.action === "log") return void outcomes.push(this.outcome(rule, "logged"));
      outcomes.push(this.outcome(rule, "denied"));
      return this.deny(rule, stage, over);
    }
    if (!check) return void outcomes.push(this.outcome(rule, "pass"));
    if (rule.action === "mask") {
      let changed = false;
      for (const s of segments) {
        const m = check.mask(s.text);
        if (m.changed) {
          s.text = m.text;
          changed = true;
        }
      }
      return void outcomes.push(this.outcome(rule, changed ? "masked" : "pass"));
    }
    let found: string | undefined;
    for (const s of segments) {
      found = check.find(s.text);
      if (found) break;
    }
    if (!found) return void outcomes.push(this.outcome(rule, "pass"));
    if (rule.action === "log") return void outcomes.push(this.outcome(rule, "logged"));
    outcomes.push(this.outcome(rule, "denied"));
    return this.deny(rule, stage, rule.plugin === "pii" ? `contains a ${found}` : rule.plugin === "regex" ? "matches a blocked pattern" : "contains a blocked word");
  }

  /** Calls the operator's moderation endpoint; its failure follows the rule's failure mode. */
  private async webhook(rule: GuardrailRule, segments: TextSegment[], opts: RunOptions, outcomes: RuleOutcome[]): Promise<StageResult["denied"]> {
    const cfg = rule.config as { url: string; timeout_ms: number; headers: Record<string, string> };
    // One controller and one timer per call, both gone when the call ends. AbortSignal.timeout and
    // AbortSignal.any kept a timer and a composite signal per call alive until the timeout fired:
    // at load, tens of thousands of them (docs/operations.md, "Memory at saturation").
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(new DOMException("the moderation service did not answer in time", "TimeoutError")), cfg.timeout_ms);
    const outer = opts.signal;
    const follow = () => ac.abort(outer?.reason);
    if (outer?.aborted) follow();
    else outer?.addEventListener("abort", follow, { once: true });
    let answer: { action?: unknown; texts?: unknown; reason?: unknown } | undefined;
    try {
      const r = await (opts.fetch ?? fetch)(cfg.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...cfg.headers },
        body: JSON.stringify({ stage: opts.stage, route: opts.route, texts: segments.map((s) => s.text) }),
        signal: ac.signal,
      });
      if (r.ok) answer = (await r.json()) as typeof answer;
      else await r.body?.cancel();
    } catch {
      answer = undefined;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener("abort", follow);
    }
    const action = answer?.action;
    const texts = answer?.texts;
    const validMask = action === "mask" && Array.isArray(texts) && texts.length === segments.length && texts.every((t) => typeof t === "string");
    if (action !== "allow" && action !== "deny" && !validMask) {
      // Timeout, error status, invalid answer: fail closed denies, fail open records `error` and continues.
      if (rule.failure_mode === "open" || rule.action === "log") return void outcomes.push(this.outcome(rule, "error"));
      outcomes.push(this.outcome(rule, "denied"));
      return this.deny(rule, opts.stage, "the moderation service did not answer");
    }
    if (action === "allow") return void outcomes.push(this.outcome(rule, "pass"));
    if (rule.action === "log") return void outcomes.push(this.outcome(rule, "logged"));
    if (action === "mask") {
      (texts as string[]).forEach((t, i) => (segments[i]!.text = t));
      return void outcomes.push(this.outcome(rule, "masked"));
    }
    outcomes.push(this.outcome(rule, "denied"));
    const reason = typeof answer?.reason === "string" && answer.reason ? answer.reason.slice(0, 200) : "refused by the moderation service";
    return this.deny(rule, opts.stage, reason);
  }

  /**
   * Output checks for a stream: window-mode rules and log-only rules, over the accumulated text
   * (each new piece with OVERLAP characters before it). Other output rules make the route refuse
   * streams (blocksStreaming), so they never reach here.
   */
  streamChecker(route: string): StreamChecker | undefined {
    const active = this.compiled.filter(({ rule }) => applies(rule, route, "output") && (rule.streaming === "window" || rule.action === "log") && rule.plugin !== "webhook");
    if (active.length === 0) return undefined;
    const state = this.compiled.map(({ rule }) => this.outcome(rule, active.some((a) => a.rule === rule) ? "pass" : "skipped"));
    let acc = "";
    let chars = 0;
    return {
      feed: (delta: string) => {
        const window = acc.slice(-OVERLAP) + delta;
        acc = window.length > OVERLAP * 4 ? window.slice(-OVERLAP * 2) : window;
        chars += delta.length;
        for (const { rule, check } of active) {
          const i = this.compiled.findIndex((c) => c.rule === rule);
          if (state[i]!.outcome !== "pass") continue;
          let what: string | undefined;
          if (rule.plugin === "length") {
            const maxChars = rule.config.max_chars as number | undefined;
            const maxTokens = rule.config.max_tokens as number | undefined;
            if ((maxChars !== undefined && chars > maxChars) || (maxTokens !== undefined && Math.ceil(chars / 4) > maxTokens)) what = "the answer is too long";
          } else {
            const found = check?.find(window);
            if (found) what = rule.plugin === "pii" ? `contains a ${found}` : rule.plugin === "regex" ? "matches a blocked pattern" : "contains a blocked word";
          }
          if (!what) continue;
          if (rule.action === "log") {
            state[i] = this.outcome(rule, "logged");
            continue;
          }
          state[i] = this.outcome(rule, "denied");
          return { denied: this.deny(rule, "output", what) };
        }
        return {};
      },
      outcomes: () => state.map((o) => ({ ...o })),
    };
  }
}

/** Compiles a validated rule list (throws GuardrailConfigError on a pattern RE2 refuses). */
export function compileRules(rules: readonly GuardrailRule[]): CompiledGuardrails {
  return new CompiledGuardrails(rules);
}
