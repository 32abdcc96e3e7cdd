import { execFile, execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import OpenAI from "openai";
import pg from "pg";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { LEDGER_JOURNAL_SUBJECT, LEDGER_STREAM } from "@gateway/events";
import { eventually, within } from "@gateway/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DRAIN_METRIC_FAMILIES } from "../../apps/data-plane/src/usage/drain.js";
import { firing } from "../support/alerts.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * The runbook "Postgres restored to a point in time" (docs/operations.md, "Recovery"), rehearsed:
 * usage is billed, the ledger's schema is dumped (the point T), more usage is billed, Postgres goes
 * back to T; `gatewayctl ledger check` finds the restored books consistent but short of what was
 * served, `gatewayctl ledger replay --since T` bills what the stream holds from T on, once, and
 * the books hold again with every request billed exactly once.
 */
const root = resolve(import.meta.dirname, "../..");
const PG_BIN = "/usr/lib/postgresql/15/bin";
const run = promisify(execFile);
let stack: Stack;
let dir: string;
const startedAt = Date.now();

beforeAll(async () => {
  stack = await startStack("recovery");
  dir = mkdtempSync(join(tmpdir(), "gw-recovery-"));
});
afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** gatewayctl as an operator runs it; resolves to its exit code and output. */
async function ctl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, GATEWAY_ADMIN_TOKEN: stack.adminToken, GATEWAY_CONTROL_PLANE_ADDR: `127.0.0.1:${stack.control.grpcPort}`, GATEWAY_LEDGER_ADDR: `127.0.0.1:${stack.ledger().grpcPort}` };
  return run(process.execPath, [join(root, "apps/control-plane/dist/cli/gatewayctl.js"), ...args], { env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

it("Postgres restored to a point in time: the replay bills what the stream holds since, each request once, and the books hold", async () => {
  const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
  const org = stack.demo.orgId;
  const served: string[] = [];
  const serve = async (n: number, tag: string) => {
    for (let i = 0; i < n; i++) {
      const { response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: `${tag} ${i}` }] }).withResponse();
      served.push(response.headers.get("x-gateway-trace-id")!);
    }
    // Every one applied before going on.
    for (const id of served) await stack.ledgerClient.GetUsage({ request_id: id, org_id: org, wait_ms: 5_000 });
  };
  await serve(4, "before the backup");

  // The point in time: the ledger's schema as a backup taken now holds it.
  const url = stack.ledger().ctx.config.databaseUrl;
  const T = Date.now();
  execFileSync(join(PG_BIN, "pg_dump"), ["--format=custom", "--schema=ledger", `--file=${join(dir, "ledger.dump")}`, url]);
  await new Promise((r) => setTimeout(r, 50));
  await serve(5, "after the backup");
  const billed = await stack.ledgerClient.GetCredits({ org_id: org });

  // Postgres goes back to T: the ledger stops, its schema is replaced by the backup, it starts again.
  await stack.stopLedger();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query("DROP SCHEMA ledger CASCADE");
  await c.end();
  execFileSync(join(PG_BIN, "pg_restore"), ["--dbname", url, join(dir, "ledger.dump")]);
  await stack.startLedger();

  // Consistent, but short: the five requests after T are not in the restored books.
  const restored = await stack.ledgerClient.GetCredits({ org_id: org });
  expect(restored.spent_minor).toBeLessThan(billed.spent_minor);
  expect(await ctl("ledger", "check")).toMatchObject({ code: 0 });

  const replay = await ctl("ledger", "replay", "--since", new Date(T).toISOString(), "--json");
  expect(replay.code).toBe(0);
  const r = JSON.parse(replay.stdout) as { applied: number; duplicates: number; set_aside: number; events: number };
  expect(r.applied).toBe(5);
  expect(r.set_aside).toBe(0);
  const after = await stack.ledgerClient.GetCredits({ org_id: org });
  expect(after.spent_minor).toBe(billed.spent_minor);
  expect(after.balance_minor).toBe(billed.balance_minor);
  for (const id of served) expect((await stack.ledgerClient.GetUsage({ request_id: id, org_id: org, wait_ms: 0 })).request_id).toBe(id);
  const check = await ctl("ledger", "check", "--json");
  expect(check.code).toBe(0);
  expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, violations: [] });

  // Run again (an operator who is not sure it ran): nothing more is billed.
  const again = JSON.parse((await ctl("ledger", "replay", "--since", new Date(T).toISOString(), "--json")).stdout) as { applied: number; duplicates: number };
  expect(again.applied).toBe(0);
  expect(again.duplicates).toBeGreaterThanOrEqual(5);
  expect((await stack.ledgerClient.GetCredits({ org_id: org })).spent_minor).toBe(billed.spent_minor);
}, 120_000);

it("ledger check fails (exit 1) and names the account when the books do not hold", async () => {
  const url = stack.ledger().ctx.config.databaseUrl;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  // A balance changed behind the ledger's back.
  await c.query("UPDATE ledger.accounts SET balance_minor = balance_minor + 1 WHERE org_id = $1", [stack.demo.orgId]);
  try {
    const check = await ctl("ledger", "check");
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`violation\tbalance ${stack.demo.orgId}`);
    expect(check.stderr).toMatch(/the books do not hold: \d+ violation/);
  } finally {
    await c.query("UPDATE ledger.accounts SET balance_minor = balance_minor - 1 WHERE org_id = $1", [stack.demo.orgId]);
    await c.end();
  }
});

it("the LEDGER stream lost: republish sends every journal posting and top-up since again, and the billing team's stream holds each", async () => {
  const url = stack.ledger().ctx.config.databaseUrl;
  const top = await stack.ledgerClient.TopUp({ org_id: stack.demo.orgId, amount_minor: 4_321, idempotency_key: `recovery-${startedAt}` });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const unpublished = async () => (await db.query("SELECT count(*)::int AS n FROM ledger.journal_entries WHERE published_at IS NULL")).rows[0].n as number;
  await eventually(async () => ((await unpublished()) === 0 ? true : undefined), 15_000, "the journal published");

  // The stream is gone (an operator's mistake, a cluster rebuilt); the ledger makes it again, empty.
  const nc = await stack.natsAs("admin");
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(LEDGER_STREAM);
  await stack.stopLedger();
  await stack.startLedger();
  expect((await jsm.streams.info(LEDGER_STREAM)).state.messages).toBe(0);

  const r = await ctl("ledger", "republish", "--since", new Date(startedAt).toISOString(), "--json");
  expect(r.code).toBe(0);
  const queued = JSON.parse(r.stdout) as { journal_transactions: number; top_ups: number };
  const want = (await db.query("SELECT DISTINCT txn_id FROM ledger.journal_entries WHERE created_at >= $1", [new Date(startedAt)])).rows.map((x) => x.txn_id as string).sort();
  expect(queued.journal_transactions).toBe(want.length);
  expect(queued.top_ups).toBeGreaterThanOrEqual(1);
  await eventually(async () => ((await unpublished()) === 0 ? true : undefined), 15_000, "the journal published again");
  await db.end();

  // Read back as the billing team reads it: every transaction since, once.
  const consumer = await jetstream(nc).consumers.get(LEDGER_STREAM, { filter_subjects: LEDGER_JOURNAL_SUBJECT });
  const seen: string[] = [];
  const info = await jsm.streams.info(LEDGER_STREAM, { subjects_filter: LEDGER_JOURNAL_SUBJECT });
  const total = info.state.subjects?.[LEDGER_JOURNAL_SUBJECT] ?? 0;
  for (let i = 0; i < total; i++) {
    const m = await consumer.next({ expires: 5_000 });
    if (!m) break;
    seen.push((m.json() as { txn_id: string }).txn_id);
  }
  expect(seen.filter((t) => want.includes(t)).sort()).toEqual(want);
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen).toContain(top.top_up_id);
  await nc.close();
});

it("a stranded spool: the drain publishes what a replica scaled away left on its volume, each request billed once", async () => {
  const dp = await stack.addDataPlane({ DATA_PLANE_SHUTDOWN_REPLAY_MS: "100" });
  const client = new OpenAI({ baseURL: `${dp.url}/v1`, apiKey: stack.demo.secret, maxRetries: 0, timeout: 15_000 });
  const org = stack.demo.orgId;
  await within("NATS stopped", stack.stopNats());
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const { response } = await client.chat.completions.create({ model: "gw-chat-mini", max_tokens: 8, messages: [{ role: "user", content: `stranded ${i}` }] }).withResponse();
    ids.push(response.headers.get("x-request-id")!);
  }
  expect(dp.ctx.publisher.spooled).toBe(4);
  // The replica is scaled away while NATS is down: its usage stays on its volume.
  await within("the replica stopped", dp.stop());
  await within("NATS started again", stack.startNats());
  const before = await stack.ledgerClient.GetCredits({ org_id: org });

  // The monitoring's Pushgateway (an external component): what the drain pushes, by path.
  const pushed: { path: string; body: string }[] = [];
  const gateway = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      pushed.push({ path: `${req.method} ${req.url}`, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => gateway.listen(0, "127.0.0.1", r));
  const port = (gateway.address() as { port: number }).port;

  // The drain Job: the data-plane's image on that volume.
  const env = {
    DATA_PLANE_DRAIN_PUSHGATEWAY_URL: `http://127.0.0.1:${port}/`,
    ...process.env,
    ...stack.dataPlaneCallerEnv,
    DATA_PLANE_NATS_URL: stack.nats.url,
    DATA_PLANE_SPOOL_DIR: dp.ctx.config.spoolDir,
    DATA_PLANE_REPLICA_ID: "drain-job",
    DATA_PLANE_LOG_LEVEL: "info",
  };
  // Bounded, and its log kept: a drain that does not finish says what it waited for.
  const drain = () =>
    run(process.execPath, [join(root, "apps/data-plane/dist/main.js"), "drain-spool"], { env, timeout: 25_000 }).then(
      (r) => JSON.parse(r.stdout.split("\n").findLast((l) => l.includes('"usage spool drained"'))!) as { found: number; left: number },
      (err: { message: string; stdout?: string }) => {
        throw new Error(`the drain failed (${err.message.split("\n")[0]}): ${String(err.stdout ?? "").slice(-2_000)}`);
      },
    );
  expect(await drain()).toMatchObject({ found: 4, left: 0, pushed: true });
  // Reported as metrics, where GatewaySpoolDrainIncomplete reads them.
  expect(pushed.map((p) => p.path)).toEqual(["PUT /metrics/job/gateway_spool_drain/replica/drain-job"]);
  expect(pushed[0]!.body).toMatch(/^gateway_spool_drain_events\{state="found"[^}]*\} 4$/m);
  expect(pushed[0]!.body).toMatch(/^gateway_spool_drain_events\{state="left"[^}]*\} 0$/m);
  expect(pushed[0]!.body).toMatch(/^gateway_usage_events_total\{result="replayed"[^}]*\} 4$/m);
  expect([...new Set([...pushed[0]!.body.matchAll(/^# TYPE (\w+) /gm)].map((m) => m[1]))].sort()).toEqual([...DRAIN_METRIC_FAMILIES].sort());
  expect(firing("GatewaySpoolDrainIncomplete", pushed[0]!.body)).toEqual([]);
  expect(firing("GatewaySpoolDrainIncomplete", pushed[0]!.body.replace(/^(gateway_spool_drain_events\{state="left"[^}]*\}) 0$/m, "$1 2"))).toEqual([""]);
  gateway.close();
  const records = await Promise.all(ids.map((id) => stack.ledgerClient.GetUsage({ request_id: id, org_id: org, wait_ms: 10_000 })));
  const cost = records.reduce((s, r) => s + r.cost_minor, 0);
  expect(cost).toBeGreaterThan(0);
  expect((await stack.ledgerClient.GetCredits({ org_id: org })).spent_minor - before.spent_minor).toBe(cost);
  // Run again: nothing left, nothing billed twice.
  expect(await drain()).toMatchObject({ found: 0, left: 0 });
  expect((await stack.ledgerClient.GetCredits({ org_id: org })).spent_minor - before.spent_minor).toBe(cost);
  expect(await ctl("ledger", "check")).toMatchObject({ code: 0 });
}, 60_000);
