import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg } from "../support/orgs.ts";

/**
 * The hold rule with usage in the spool: while NATS is away a replica spools what it serves, and a
 * lease that goes idle meanwhile is renewed, not released, so the ledger cannot settle its hold
 * before those events reach it; once NATS is back, everything is billed once and the holds settle.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack("hold_spool", {
    dataPlaneEnv: { DATA_PLANE_LEASE_TTL_MS: "3000", DATA_PLANE_LEASE_IDLE_MS: "200", DATA_PLANE_LEASE_CHUNK_MINOR: "500" },
    ledgerEnv: { LEDGER_LEASE_MAX_TTL_MS: "3000", LEDGER_USAGE_ARRIVAL_MS: "300", LEDGER_SETTLE_SKEW_MS: "100", LEDGER_SWEEP_INTERVAL_MS: "100" },
  });
});
afterAll(async () => {
  await stack?.stop();
});

it("keeps an idle lease with spooled usage alive through a NATS outage, then bills every answer once", async () => {
  const balance = 5_000;
  const org = await createOrg(stack, { balanceMinor: balance });
  const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
  await stack.stopNats();
  const answered: string[] = [];
  for (let i = 0; i < 5; i++) {
    const { response } = await client.chat.completions.create({ model: "gw-chat-mini", max_tokens: 8, messages: [{ role: "user", content: `spooled request ${i}` }] }).withResponse();
    answered.push(response.headers.get("x-request-id")!);
  }
  expect(stack.dataPlanes[0]!.ctx.publisher.spooled).toBe(5);
  // Idle far beyond DATA_PLANE_LEASE_IDLE_MS and the lease TTL: renewed, never released.
  await new Promise((r) => setTimeout(r, 4_000));
  const holds = (await stack.ledgerClient.ListHolds({ org_id: org.orgId })).leases;
  expect(holds).toHaveLength(1);
  expect(holds[0]).toMatchObject({ status: "open", applied_minor: 0 });
  expect((await stack.ledgerClient.GetCredits({ org_id: org.orgId })).held_minor).toBe(holds[0]!.granted_minor);

  await stack.startNats();
  const rows = await eventually(
    async () => {
      const r = await sql<{ request_id: string; cost_minor: number }>`SELECT request_id, cost_minor FROM ledger.usage_records WHERE org_id = ${org.orgId}`.execute(stack.ledger().db);
      return r.rows.length >= answered.length ? r.rows : undefined;
    },
    20_000,
    "spooled usage applied",
  );
  expect(rows.map((r) => r.request_id).sort()).toEqual([...answered].sort());
  const spent = rows.reduce((s, r) => s + r.cost_minor, 0);
  const settled = await eventually(
    async () => {
      const c = await stack.ledgerClient.GetCredits({ org_id: org.orgId });
      return c.held_minor === 0 ? c : undefined;
    },
    20_000,
    "lease released and settled after the spool was published",
  );
  expect(settled).toMatchObject({ spent_minor: spent, balance_minor: balance - spent });
});
