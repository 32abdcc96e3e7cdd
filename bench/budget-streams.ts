/**
 * Budgets under load (docs/billing.md, "Budgets"): `streams` chat streams at once, alternating over
 * two data-plane replicas and `users` end users (x-gateway-end-user), under a key budget and a
 * default end-user budget small enough that most streams outgrow them. Each stream is a long answer
 * (`words` words, one every `chunk_delay_ms`), held in tranches of `tranche` tokens.
 *
 *   make build && node bench/budget-streams.ts [streams=200] [users=4] [words=400] [chunk_delay_ms=2] [tranche=256]
 *
 * Reports: how many streams were served whole, cut by a budget mid-answer, or refused at admission;
 * each budget's spend against its cap and the margin (one tranche at the model's output price per
 * stream cut: docs/billing.md, "Holds in tranches"); whether every answer was billed once (the sum
 * of the records equals the organization's spend and the key's window); the time. Ends with a
 * one-line JSON summary. Bounded: a fixed number of streams on loopback; it kills only what it started.
 */
import { Agent, request } from "undici";
import { adminService, bearer, createClient, ledgerService } from "@gateway/proto";
import { startBenchStack } from "./bench-stack.ts";
import { step } from "./ledger-common.ts";

const STREAMS = Number(process.argv[2] ?? 200);
const USERS = Number(process.argv[3] ?? 4);
const WORDS = Number(process.argv[4] ?? 400);
const CHUNK_DELAY_MS = Number(process.argv[5] ?? 2);
const TRANCHE = Number(process.argv[6] ?? 256);
const MODEL = "gw-chat-mini";

const stack = await startBenchStack("budget_streams", { DATA_PLANE_HOLD_TRANCHE_TOKENS: String(TRANCHE), DATA_PLANE_HOLD_TRANCHE_CHECK_MS: "50" }, 2);
const options = { timeoutMs: 10_000, metadata: bearer(stack.adminToken) };
const admin = createClient(adminService(), stack.controlAddr, options);
const ledger = createClient(ledgerService(), stack.ledgerAddr, options);

const catalog = JSON.parse((await admin.GetCatalogDocument({})).document_json) as { models: Array<{ id: string; output_price_minor_per_mtok: number }> };
const outputPerMtok = catalog.models.find((m) => m.id === MODEL)!.output_price_minor_per_mtok;
const margin = Math.ceil((TRANCHE * outputPerMtok) / 1_000_000);
// One answer costs about WORDS output tokens; the budgets let a third of the streams finish.
const perAnswer = Math.ceil((WORDS * outputPerMtok) / 1_000_000);
const keyLimit = Math.ceil((perAnswer * STREAMS) / 3);
const userLimit = Math.ceil(keyLimit / USERS / 1.5);
await admin.SetKeyBudget({ key_id: stack.keyId, limit_minor: keyLimit, window: "day" });
await admin.SetOrgBudgets({ org: stack.orgId, end_user_source: "header", end_user_limit_minor: userLimit, end_user_window: "day" });
await new Promise((r) => setTimeout(r, 1_500)); // the change events reach both replicas' key caches

step(`${STREAMS} streams over 2 replicas, ${USERS} end users; key budget ${keyLimit}, each end user ${userLimit}, margin ${margin} per cut stream`);
const agent = new Agent({ connections: STREAMS * 2, keepAliveTimeout: 60_000 });
const started = performance.now();
const outcomes = await Promise.all(
  Array.from({ length: STREAMS }, async (_, i) => {
    const port = stack.dpPorts[i % 2]!;
    const r = await request(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      dispatcher: agent,
      headers: { authorization: `Bearer ${stack.secret}`, "content-type": "application/json", "x-gateway-end-user": `user-${i % USERS}` },
      body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: "user", content: `[[fake:words=${WORDS},chunk_delay=${CHUNK_DELAY_MS}]] go` }] }),
    });
    const id = String(r.headers["x-gateway-trace-id"] ?? "");
    const text = await r.body.text();
    if (r.statusCode !== 200) return { kind: `refused:${(JSON.parse(text) as { error: { code: string } }).error.code}`, id };
    const err = /data: (\{"error":.*\})/.exec(text);
    return { kind: err ? `cut:${(JSON.parse(err[1]!) as { error: { code: string } }).error.code}` : "served", id };
  }),
);
const seconds = (performance.now() - started) / 1000;
const counts: Record<string, number> = {};
for (const o of outcomes) counts[o.kind] = (counts[o.kind] ?? 0) + 1;
const billedIds = outcomes.filter((o) => !o.kind.startsWith("refused")).map((o) => o.id);

step("waiting for every answer's record");
let recordsMinor = 0;
for (const id of billedIds) {
  const rec = await ledger.GetUsage({ org_id: stack.orgId, request_id: id, wait_ms: 10_000 });
  recordsMinor += rec.cost_minor;
}
const deadline = Date.now() + 30_000;
let windows: Record<string, { spent_minor: number; limit_minor: number }> = {};
let spent = 0;
for (;;) {
  spent = (await ledger.GetCredits({ org_id: stack.orgId })).spent_minor;
  windows = Object.fromEntries((await ledger.ListBudgets({ org_id: stack.orgId, scope: "" })).windows.map((w) => [w.scope, w]));
  if (windows[`key:${stack.keyId}`]?.spent_minor === spent || Date.now() > deadline) break;
  await new Promise((r) => setTimeout(r, 200));
}
const cut = Object.entries(counts)
  .filter(([k]) => k.startsWith("cut:"))
  .reduce((n, [, v]) => n + v, 0);
const keySpent = windows[`key:${stack.keyId}`]?.spent_minor ?? 0;
const users = Array.from({ length: USERS }, (_, u) => windows[`user:user-${u}`]?.spent_minor ?? 0);
const summary = {
  streams: STREAMS,
  outcomes: counts,
  seconds: Number(seconds.toFixed(2)),
  key: { limit: keyLimit, spent: keySpent, over: Math.max(0, keySpent - keyLimit) },
  end_users: { limit: userLimit, spent: users, over_max: Math.max(0, ...users.map((s) => s - userLimit)) },
  margin_per_cut_stream: margin,
  within_margin: keySpent <= keyLimit + cut * margin && users.every((s) => s <= userLimit + cut * margin),
  billed_once: recordsMinor === spent && keySpent === spent && users.reduce((a, b) => a + b, 0) === spent,
  records_minor: recordsMinor,
  org_spent_minor: spent,
};
for (const [k, v] of Object.entries(summary)) step(`${k}: ${JSON.stringify(v)}`);
console.log(JSON.stringify(summary));
await agent.close();
admin.close();
ledger.close();
process.exit(0);
