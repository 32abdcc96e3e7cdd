/**
 * Guardrail cost benchmark: CPU time of one input-stage run over a 4 KB prompt with five rules (pii
 * mask, regex deny, keywords log, length deny, regex mask), against the same prompt with no rules.
 * In-process and bounded (fixed iteration count); prints one JSON line.
 *
 *   make build && node apps/data-plane/bench/guardrails.ts [iterations=20000]
 */
import { compileRules, parseRulesDocument, type TextSegment } from "@gateway/guardrails";

const N = Number(process.argv[2] ?? 20_000);

const RULES = `rules:
  - plugin: pii
    action: mask
  - plugin: regex
    config: { patterns: ['(?i)api[_-]?key\\s*[:=]\\s*[a-z0-9]{32}', 'BEGIN (RSA|EC) PRIVATE KEY'] }
  - plugin: keywords
    action: log
    config: { words: [confidential, internal only, do not distribute, password, secret] }
  - plugin: length
    config: { max_chars: 100000 }
  - plugin: regex
    action: mask
    config: { patterns: ['ord-[0-9]{6}'] }
`;

const sentence = "The quarterly planning meeting covered hiring, the roadmap for the data platform, and how the support rota will work over the holidays. ";
let prompt = "";
while (prompt.length < 4096 - 200) prompt += sentence;
prompt += " Contact jane.doe@example.com or pay with 4111 1111 1111 1111; reference ord-123456. Thanks, ops@example.org";
prompt = prompt.slice(0, 4096);

const compiled = compileRules(parseRulesDocument(RULES));
const empty = compileRules([]);

function measure(fn: () => void): { mean_us: number; p50_us: number; p99_us: number } {
  for (let i = 0; i < Math.min(2_000, N); i++) fn(); // warm-up (JIT)
  const samples = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const t = process.hrtime.bigint();
    fn();
    samples[i] = Number(process.hrtime.bigint() - t) / 1_000;
  }
  const sorted = Array.from(samples).sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / N;
  const at = (q: number) => sorted[Math.min(N - 1, Math.floor(q * N))]!;
  return { mean_us: Math.round(mean * 10) / 10, p50_us: Math.round(at(0.5) * 10) / 10, p99_us: Math.round(at(0.99) * 10) / 10 };
}

const run = (g: typeof compiled) => () => {
  const segs: TextSegment[] = [{ text: prompt }];
  const r = g.run(segs, { route: "chat", stage: "input" });
  if (r instanceof Promise) throw new Error("no webhook rule here: the run must be synchronous");
};

const check: TextSegment[] = [{ text: prompt }];
const outcome = compiled.run(check, { route: "chat", stage: "input" });
if (outcome instanceof Promise) throw new Error("unexpected async run");

console.log(
  JSON.stringify({
    bench: "guardrails",
    prompt_bytes: Buffer.byteLength(prompt),
    rules: compiled.rules.length,
    iterations: N,
    outcomes: outcome.outcomes.map((o) => `${o.plugin}:${o.outcome}`).join(","),
    five_rules: measure(run(compiled)),
    no_rules: measure(run(empty)),
  }),
);
