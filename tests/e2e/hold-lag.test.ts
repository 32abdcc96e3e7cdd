import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { eventually, freePort, waitForPort } from "@gateway/testing";
import { FAKE_UPSTREAM_API_KEY } from "../../scripts/lib/demo-catalog.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg } from "../support/orgs.ts";

/**
 * The hold rule end to end: the ledger applies nothing for several lease lifetimes (its consumer
 * is stopped; it still grants and sweeps leases) while two replicas serve one organization
 * concurrently, and one of them is SIGKILLed so its lease expires with consumed credit in it. The
 * holds must stay until the usage they covered is applied, so the organization can never be
 * admitted beyond its balance.
 */
let stack: Stack;
let killed: ChildProcess | undefined;
// The data-plane stops reserving from a lease 1 s before it expires: 2.5 s leaves 1.5 s of use.
const LEASE_TTL_MS = 2_500;

beforeAll(async () => {
  stack = await startStack("hold_lag", {
    dataPlanes: 1,
    dataPlaneEnv: { DATA_PLANE_LEASE_TTL_MS: String(LEASE_TTL_MS), DATA_PLANE_LEASE_CHUNK_MINOR: "40" },
    ledgerEnv: { LEDGER_LEASE_MAX_TTL_MS: String(LEASE_TTL_MS), LEDGER_USAGE_ARRIVAL_MS: "300", LEDGER_SETTLE_SKEW_MS: "100", LEDGER_SWEEP_INTERVAL_MS: "100" },
  });
});
afterAll(async () => {
  killed?.kill("SIGKILL");
  await stack?.stop();
});

/** A data-plane replica in its own process, so it can be killed without a goodbye. */
async function spawnReplica(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [resolve(import.meta.dirname, "../../apps/data-plane/dist/main.js")], {
    env: {
      ...process.env,
      DATA_PLANE_PORT: String(port),
      DATA_PLANE_CONTROL_PLANE_ADDR: `127.0.0.1:${stack.control.grpcPort}`,
      DATA_PLANE_LEDGER_ADDR: `127.0.0.1:${stack.ledger().grpcPort}`,
      ...stack.dataPlaneCallerEnv,
      DATA_PLANE_NATS_URL: stack.nats.url,
      DATA_PLANE_LOG_LEVEL: "silent",
      DATA_PLANE_REPLICA_ID: "dp-hold-lag-victim",
      DATA_PLANE_SPOOL_DIR: mkdtempSync(join(tmpdir(), "gw-victim-")),
      DATA_PLANE_LEASE_TTL_MS: String(LEASE_TTL_MS),
      DATA_PLANE_LEASE_CHUNK_MINOR: "40",
      DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
    },
    stdio: "ignore",
  });
  await waitForPort(port, 20_000);
  return { child, baseUrl: `http://127.0.0.1:${port}/v1` };
}

it("keeps holds while the ledger lags for many lease lifetimes: two replicas never spend beyond the balance, and every answer is billed once", async () => {
  const balance = 400;
  const org = await createOrg(stack, { balanceMinor: balance });
  // The ledger keeps serving leases and sweeping, but applies no usage: it lags without bound.
  await stack.stopLedger();
  await stack.startLedger({ LEDGER_CONSUME: "false" });

  const victim = await spawnReplica();
  killed = victim.child;
  const clients = [stack.baseUrl(0), victim.baseUrl].map((baseURL) => new OpenAI({ baseURL, apiKey: org.secret, maxRetries: 0 }));
  const answered: string[] = [];
  const refusals = new Map<number, number>();
  let victimDead = false;
  let victimAnswers = 0;
  const kill = () => {
    victimDead = true;
    victim.child.kill("SIGKILL");
  };
  const until = Date.now() + 3 * LEASE_TTL_MS;
  const worker = async (w: number) => {
    while (Date.now() < until) {
      const onVictim = w % 2 === 1;
      if (onVictim && victimDead) return;
      try {
        const { response } = await clients[w % 2]!.chat.completions.create({
          model: "gw-chat-mini",
          max_tokens: 8,
          messages: [{ role: "user", content: `worker ${w} asks for a few words` }],
        }).withResponse();
        answered.push(response.headers.get("x-request-id")!);
        // The victim serves a few requests, then dies holding an open lease with consumed credit in it.
        if (onVictim && ++victimAnswers === 5) kill();
      } catch (err) {
        // A request cut by the kill was never answered: it has nothing to bill.
        if (onVictim && victimDead) return;
        const status = (err as { status?: number }).status ?? 0;
        refusals.set(status, (refusals.get(status) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
  expect(answered.length).toBeGreaterThan(5);
  // Credit ran out at the balance, not beyond: refusals are 402s (never a free pass, never a 500).
  expect([...refusals.keys()].every((s) => s === 402)).toBe(true);
  expect(refusals.get(402) ?? 0).toBeGreaterThan(0);
  // Nothing applied yet, and the expired leases still hold what they covered.
  const lagging = await stack.ledgerClient.GetCredits({ org_id: org.orgId });
  expect(lagging.spent_minor).toBe(0);
  const holds = (await stack.ledgerClient.ListHolds({ org_id: org.orgId })).leases;
  // The killed replica's lease expired (and was swept) with credit it consumed still held.
  const victims = holds.filter((l) => l.holder === "dp-hold-lag-victim" && l.status === "expired");
  expect(victims.reduce((s, l) => s + l.remaining_minor, 0)).toBeGreaterThan(0);

  // Reading an answered request's usage now says it is on its way, not that it does not exist.
  const pending = await fetch(`${stack.baseUrl(0)}/usage/${answered[0]}`, { headers: { authorization: `Bearer ${org.secret}` } });
  expect(pending.status).toBe(503);
  expect(pending.headers.get("retry-after")).toBe("1");
  expect(((await pending.json()) as { error: { code: string } }).error.code).toBe("usage_pending");

  // The consumer returns; everything answered is applied once, then the leftover holds are freed.
  await stack.stopLedger();
  await stack.startLedger();
  const rows = await eventually(
    async () => {
      const r = await sql<{ request_id: string; cost_minor: number }>`SELECT request_id, cost_minor FROM ledger.usage_records WHERE org_id = ${org.orgId} AND error_code IS NULL`.execute(
        stack.ledger().db,
      );
      return answered.every((id) => r.rows.some((row) => row.request_id === id)) ? r.rows : undefined;
    },
    15_000,
    "every answered request applied",
  );
  // Every answer billed once; beyond them only requests the kill cut after their usage was
  // published (the provider charged for those), at most one per victim worker.
  const billed = new Set(rows.map((r) => r.request_id));
  expect(billed.size).toBe(rows.length);
  expect(answered.filter((id) => !billed.has(id))).toEqual([]);
  expect(rows.length - answered.length).toBeLessThanOrEqual(4);
  const spent = rows.reduce((s, r) => s + r.cost_minor, 0);
  const settled = await eventually(
    async () => {
      const c = await stack.ledgerClient.GetCredits({ org_id: org.orgId });
      return c.held_minor === 0 ? c : undefined;
    },
    15_000,
    "holds released after the consumer caught up",
  );
  expect(settled.spent_minor).toBe(spent);
  expect(settled.balance_minor).toBe(balance - spent);
  // The documented margin is zero here: the fake provider never charges more than the hold.
  expect(settled.balance_minor).toBeGreaterThanOrEqual(0);
  const record = await fetch(`${stack.baseUrl(0)}/usage/${answered[0]}`, { headers: { authorization: `Bearer ${org.secret}` } });
  expect(record.status).toBe(200);
});
