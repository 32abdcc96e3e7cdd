import { afterAll, beforeAll, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { chatBody, createOrg, post } from "../support/orgs.ts";

let stack: Stack;
beforeAll(async () => {
  // Two replicas with small lease chunks, so both hold credit for the org at once.
  stack = await startStack("credit_guarantee", { dataPlanes: 2, dataPlaneEnv: { DATA_PLANE_LEASE_CHUNK_MINOR: "60" } });
});
afterAll(async () => {
  await stack?.stop();
});

it("never spends more than the balance under 200 concurrent requests on two replicas, and bills every success exactly once", async () => {
  const prompt = "please answer this question about credit limits with many words in it to make the request cost something";
  const body = chatBody(prompt, { max_tokens: 8 });
  // Max cost of one request: the body at one token per byte plus max_tokens, at gw-chat-mini prices.
  const maxCost = Math.ceil((Buffer.byteLength(body) * 150_000 + 8 * 600_000) / 1_000_000);
  const balance = maxCost * 10;
  const org = await createOrg(stack, { balanceMinor: balance });

  const results = await Promise.all(Array.from({ length: 200 }, (_, i) => post(stack.baseUrl(i % 2), org.secret, "/chat/completions", body)));
  const ok = results.filter((r) => r.status === 200);
  const refused = results.filter((r) => r.status !== 200);
  expect(ok.length).toBeGreaterThanOrEqual(10);
  for (const r of refused) {
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe("insufficient_credits");
    expect(r.body.error.action).toBe("top_up");
    expect(r.headers.get("x-gateway-trace-id")).toMatch(/^req_/);
  }

  const ids = ok.map((r) => r.headers.get("x-gateway-trace-id")!);
  const records = await eventually(
    async () => {
      const rows = await sql<{ request_id: string; cost_minor: number }>`SELECT request_id, cost_minor FROM ledger.usage_records WHERE org_id = ${org.orgId} AND error_code IS NULL`.execute(
        stack.ledger().db,
      );
      return rows.rows.length >= ids.length ? rows.rows : undefined;
    },
    10_000,
    "usage records of every success",
  );
  // Exactly one billed record per 2xx, and none for a refusal (a 402 leaves a refusal record of cost 0 at most: docs/billing.md).
  expect(records.map((r) => r.request_id).sort()).toEqual([...ids].sort());
  const spent = records.reduce((s, r) => s + r.cost_minor, 0);
  const credits = await stack.ledgerClient.GetCredits({ org_id: org.orgId });
  expect(spent).toBeLessThanOrEqual(balance);
  expect(credits.spent_minor).toBe(spent);
  expect(credits.balance_minor).toBe(balance - spent);
  expect(credits.balance_minor).toBeGreaterThanOrEqual(0);
});
