/**
 * A tool schema that expands past Gemini's schema budget, against a running gateway (issue 36,
 * docs/billing.md "The hold covers what is sent"): a 2 KB chat body whose tool parameters have 19
 * levels of definitions each using the next twice (2^19 copies once inlined) sent to `gw-gemini`,
 * `attackers` at a time, while another client reads `GET /v1/models` every few milliseconds. Before
 * the budget, each such body blocked the data-plane's event loop for ~3 s (every organization's
 * request waited) and sent megabytes upstream; now it is refused with a 400. Reports the refusal's
 * latency and the other client's, p50/p99/max. Bounded: N attack requests.
 *
 *   make build && node bench/schema-attack.ts [requests=200] [attackers=4]
 */
import { gitCommit, pct } from "../scripts/lib/bench.ts";
import { startBenchStack } from "./bench-stack.ts";
import { step } from "./ledger-common.ts";

const N = Number(process.argv[2] ?? 200);
const ATTACKERS = Number(process.argv[3] ?? 4);

const { dpPort, secret } = await startBenchStack("schema_attack");
const base = `http://127.0.0.1:${dpPort}/v1`;
const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };

const $defs: Record<string, unknown> = {};
for (let i = 0; i < 19; i++) $defs[`d${i}`] = { type: "object", properties: { a: { $ref: `#/$defs/d${i + 1}` }, b: { $ref: `#/$defs/d${i + 1}` } } };
$defs.d19 = { type: "string" };
const attack = JSON.stringify({
  model: "gw-gemini",
  messages: [{ role: "user", content: "call it" }],
  tools: [{ type: "function", function: { name: "deep", parameters: { type: "object", properties: { root: { $ref: "#/$defs/d0" } }, $defs } } }],
});

// The demo key and catalog reach the data-plane.
for (let i = 0; i < 100; i++) {
  const r = await fetch(`${base}/models`, { headers });
  if (r.status === 200 && ((await r.json()) as { data: Array<{ id: string }> }).data.some((m) => m.id === "gw-gemini")) break;
  await new Promise((r) => setTimeout(r, 100));
}

step("measuring");
const attackTimes: number[] = [];
const statuses = new Map<number, number>();
let sent = 0;
let done = false;
const attacker = async () => {
  while (sent < N) {
    sent++;
    const t = performance.now();
    const r = await fetch(`${base}/chat/completions`, { method: "POST", headers, body: attack });
    await r.arrayBuffer();
    attackTimes.push(performance.now() - t);
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  }
};
const modelTimes: number[] = [];
const reader = async () => {
  while (!done) {
    const t = performance.now();
    const r = await fetch(`${base}/models`, { headers });
    await r.arrayBuffer();
    modelTimes.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 5));
  }
};
const reading = reader();
await Promise.all(Array.from({ length: ATTACKERS }, attacker));
done = true;
await reading;
attackTimes.sort((a, b) => a - b);
modelTimes.sort((a, b) => a - b);

const row = (name: string, t: number[]) =>
  `  ${name.padEnd(34)} p50 ${pct(t, 50).toFixed(2).padStart(7)} ms  p99 ${pct(t, 99).toFixed(2).padStart(7)} ms  max ${t[t.length - 1]!.toFixed(2).padStart(7)} ms  (${t.length})`;
console.log(`A 19-level $ref tool schema to gw-gemini, ${N} requests ${ATTACKERS} at a time (commit ${gitCommit()}), answers: ${JSON.stringify(Object.fromEntries(statuses))}`);
console.log(row("the attack's answer", attackTimes));
console.log(row("another client's GET /v1/models", modelTimes));
console.log(
  JSON.stringify({
    bench: "schema-attack",
    commit: gitCommit(),
    n: N,
    attackers: ATTACKERS,
    statuses: Object.fromEntries(statuses),
    attack_p50_ms: pct(attackTimes, 50),
    attack_p99_ms: pct(attackTimes, 99),
    models_p50_ms: pct(modelTimes, 50),
    models_p99_ms: pct(modelTimes, 99),
    models_max_ms: modelTimes[modelTimes.length - 1],
  }),
);
process.exit(0);
