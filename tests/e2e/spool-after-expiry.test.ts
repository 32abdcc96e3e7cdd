import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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
 * The case the hold rule exists for, end to end (docs/billing.md, "The margin"): a replica answers
 * while NATS is away (its usage goes to its spool, fsync'd), is SIGKILLed, and its lease expires.
 * While the ledger cannot read the usage stream its hold stays; once it can, the hold is released
 * and the organization spends its whole balance on another replica. A successor started on the
 * dead replica's spool folder replays the spooled usage: every answer is billed exactly once, and
 * the balance goes below zero by no more than what was spooled — the documented, bounded margin,
 * never lost usage.
 */
let stack: Stack;
const children: ChildProcess[] = [];
const dirs: string[] = [];
const LEASE_TTL_MS = 3_000;

beforeAll(async () => {
  stack = await startStack("spool_after_expiry", {
    ledgerEnv: { LEDGER_LEASE_MAX_TTL_MS: String(LEASE_TTL_MS), LEDGER_USAGE_ARRIVAL_MS: "300", LEDGER_SETTLE_SKEW_MS: "100", LEDGER_SWEEP_INTERVAL_MS: "100" },
  });
});
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await stack?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A data-plane replica in its own process (so it can die without a goodbye), on the given spool folder. */
async function replica(id: string, spool: string): Promise<{ child: ChildProcess; baseUrl: string }> {
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
      DATA_PLANE_REPLICA_ID: id,
      DATA_PLANE_SPOOL_DIR: spool,
      DATA_PLANE_LEASE_TTL_MS: String(LEASE_TTL_MS),
      DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
    },
    stdio: "ignore",
  });
  children.push(child);
  await waitForPort(port, 20_000);
  return { child, baseUrl: `http://127.0.0.1:${port}/v1` };
}

/** Usage events waiting in a spool folder (one JSON line each; the dead-letter file is not the spool). */
const spooledLines = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl") && !f.startsWith("dead-letter"))
    .reduce((n, f) => n + readFileSync(join(dir, f), "utf8").split("\n").filter(Boolean).length, 0);

interface Row {
  request_id: string;
  cost_minor: number;
}
const records = async (orgId: string) => (await sql<Row>`SELECT request_id, cost_minor FROM ledger.usage_records WHERE org_id = ${orgId} AND error_code IS NULL`.execute(stack.ledger().db)).rows;

it("a dead replica's spooled usage, replayed after its lease expired and was released, is billed once; the overspend is bounded by what was spooled", async () => {
  const balance = 5_000;
  const org = await createOrg(stack, { balanceMinor: balance });
  const spool = mkdtempSync(join(tmpdir(), "gw-spool-victim-"));
  dirs.push(spool);
  const victim = await replica("dp-spool-victim", spool);
  const onVictim = new OpenAI({ baseURL: victim.baseUrl, apiKey: org.secret, maxRetries: 0 });

  // NATS away: the victim answers three requests of 1,000 output tokens each; their usage is spooled.
  await stack.stopNats();
  const spooled: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { response } = await onVictim.chat.completions.create({ model: "gw-chat-mini", max_tokens: 1_000, messages: [{ role: "user", content: `[[fake:words=1000]] spooled ${i}` }] }).withResponse();
    spooled.push(response.headers.get("x-request-id")!);
  }
  expect(spooledLines(spool)).toBe(3);
  victim.child.kill("SIGKILL");

  // Its lease expires while the ledger cannot read the usage stream: the hold stays.
  const victimLease = (await stack.ledgerClient.ListHolds({ org_id: org.orgId })).leases.find((l) => l.holder.includes("dp-spool-victim"))!;
  expect(victimLease).toBeDefined();
  await eventually(async () => (Date.now() > victimLease.expires_at_ms + 500 ? true : undefined), LEASE_TTL_MS * 3, "the victim's lease past its expiry");
  expect((await stack.ledgerClient.GetCredits({ org_id: org.orgId })).held_minor).toBeGreaterThanOrEqual(victimLease.granted_minor);

  // NATS back, the spool still unread (its replica is dead): once the ledger has read past the
  // expiry, the hold is released and the whole balance can be spent elsewhere.
  await stack.startNats();
  await eventually(async () => ((await stack.ledgerClient.GetCredits({ org_id: org.orgId })).held_minor === 0 ? true : undefined), 20_000, "the expired lease released");
  const other = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
  const spentElsewhere: string[] = [];
  for (let i = 0; i < 10; i++) {
    const r = await other.chat.completions
      .create({ model: "gw-chat-mini", max_tokens: 2_000, messages: [{ role: "user", content: `[[fake:words=2000]] elsewhere ${i}` }] })
      .withResponse()
      .catch((e: unknown) => e);
    if (r instanceof OpenAI.APIError) {
      expect(r.status).toBe(402);
      break;
    }
    spentElsewhere.push((r as { response: Response }).response.headers.get("x-request-id")!);
  }
  expect(spentElsewhere.length).toBeGreaterThan(0);

  // A successor on the dead replica's spool folder replays it: each spooled answer billed once.
  await replica("dp-spool-successor", spool);
  const rows = await eventually(
    async () => {
      const r = await records(org.orgId);
      return spooled.every((id) => r.some((x) => x.request_id === id)) && r.length === spooled.length + spentElsewhere.length ? r : undefined;
    },
    30_000,
    "the spooled usage replayed and applied",
  );
  expect(new Set(rows.map((r) => r.request_id)).size).toBe(rows.length);
  await eventually(async () => (spooledLines(spool) === 0 ? true : undefined), 20_000, "the spool emptied");

  // 1,000 output tokens at 600,000 minor per million: 600 each, plus a few prompt tokens.
  const spooledCost = rows.filter((r) => spooled.includes(r.request_id)).reduce((s, r) => s + r.cost_minor, 0);
  expect(spooledCost).toBeGreaterThanOrEqual(3 * 600);
  const spent = rows.reduce((s, r) => s + r.cost_minor, 0);
  const c = await stack.ledgerClient.GetCredits({ org_id: org.orgId });
  expect(c).toMatchObject({ spent_minor: spent, balance_minor: balance - spent });
  // The margin: below zero by at most what the dead replica had spooled, never more.
  expect(c.balance_minor).toBeLessThan(0);
  expect(-c.balance_minor).toBeLessThanOrEqual(spooledCost);
});
