/**
 * How long a change takes to reach the data-plane, and usage to flow again after NATS comes back:
 * the figures the docs give as "about a second", measured instead of asserted in tests (the tests
 * wait on the condition with a hang bound). The whole gateway in this process (tests/support/stack.ts)
 * on loopback; each trial polls the data-plane every 5 ms from the moment the change was committed.
 *
 *   make build && node bench/propagation.ts [trials=20]
 *
 * - revocation: RevokeKey returned → the revoked key's next request answers 401 (the key was cached);
 * - catalog: ApplyCatalog (a new model) and EnableModels returned → the model is listed for the org;
 * - NATS recovery: nats-server back (5 requests spooled while it was away) → the data-plane's spool is empty.
 */
import { startPostgres } from "@gateway/testing";
import { startStack } from "../tests/support/stack.ts";
import { pct, sleep } from "../scripts/lib/bench.ts";
import { step } from "./ledger-common.ts";

const TRIALS = Number(process.argv[2] ?? 20);
const POLL_MS = 5;

step("starting the stack");
const pg = await startPostgres();
process.env.TEST_PG_URL = pg.url;
const stack = await startStack("bench_propagation", { natsViolationsExpected: true });
const base = stack.baseUrl();
const dp = stack.dataPlanes[0]!;

/** Polls `check` every POLL_MS until it holds; ms from `from` (performance.now()). Gives up after 30 s. */
async function until(from: number, check: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await check()) return performance.now() - from;
    if (performance.now() - from > 30_000) throw new Error("not propagated within 30 s");
    await sleep(POLL_MS);
  }
}
const status = async (path: string, key: string) => (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } })).status;
const summary = (name: string, xs: number[]) => ({ name, trials: xs.length, p50_ms: Math.round(pct(xs, 50)), p99_ms: Math.round(pct(xs, 99)), max_ms: Math.round(Math.max(...xs)) });

const revocation: number[] = [];
step(`revocation, ${TRIALS} trials`);
for (let i = 0; i < TRIALS; i++) {
  const created = await stack.admin.CreateKey({ org: stack.demo.orgId, routes: [], models: [], name: `prop-${i}` });
  const secret = created.secret;
  if ((await status("/models", secret)) !== 200) throw new Error("a new key was refused");
  await stack.admin.RevokeKey({ key_id: created.key!.id });
  revocation.push(await until(performance.now(), async () => (await status("/models", secret)) === 401));
}

const catalog: number[] = [];
step(`catalog changes, ${TRIALS} trials`);
for (let i = 0; i < TRIALS; i++) {
  const id = `gw-prop-${i}`;
  const model = {
    id,
    routes: ["chat"],
    context_window: 8_000,
    max_output_tokens: 1_000,
    input_price_minor_per_mtok: 150_000,
    output_price_minor_per_mtok: 600_000,
    deployments: [{ provider: "fake", upstream_model: "fake-chat" }],
  };
  await stack.admin.ApplyCatalog({ document_json: JSON.stringify({ models: [model] }) });
  await stack.admin.EnableModels({ org: stack.demo.orgId, models: [id] });
  const from = performance.now();
  catalog.push(
    await until(from, async () => {
      const r = await fetch(`${base}/models`, { headers: { authorization: `Bearer ${stack.demo.secret}` } });
      return ((await r.json()) as { data: { id: string }[] }).data.some((m) => m.id === id);
    }),
  );
}

const nats: number[] = [];
const natsTrials = Math.max(3, Math.round(TRIALS / 4));
step(`NATS recovery, ${natsTrials} trials`);
for (let i = 0; i < natsTrials; i++) {
  await stack.stopNats();
  for (let j = 0; j < 5; j++) {
    const r = await fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.demo.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "spooled" }] }),
    });
    if (r.status !== 200) throw new Error(`a request while NATS was away answered ${r.status}`);
  }
  if (dp.ctx.publisher.spooled === 0) throw new Error("nothing was spooled while NATS was away");
  await stack.startNats();
  nats.push(await until(performance.now(), async () => dp.ctx.publisher.spooled === 0));
}

const results = [summary("revocation", revocation), summary("catalog", catalog), summary("nats_recovery", nats)];
for (const r of results) console.log(`${r.name}: p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, max ${r.max_ms} ms over ${r.trials} trials`);
console.log(JSON.stringify({ bench: "propagation", results }));
await stack.stop();
await pg.stop();
process.exit(0);
