import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { providerUsage } from "../support/provider-usage.ts";
import { startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack("ledger_outage");
});
afterAll(async () => {
  await stack?.stop();
});

it("serves requests while the ledger is down and bills every one exactly once when it returns", async () => {
  const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
  // Warm up: the replica takes a credit lease, so it can admit requests without the ledger.
  const warm = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "warm up" }] }).withResponse();
  await stack.ledgerClient.GetUsage({ request_id: warm.response.headers.get("x-gateway-trace-id")!, org_id: stack.demo.orgId, wait_ms: 3_000 });
  const before = await stack.ledgerClient.GetCredits({ org_id: stack.demo.orgId });

  await stack.stopLedger();
  const N = 12;
  const ids: string[] = [];
  let expected = 0;
  for (let i = 0; i < N; i++) {
    const { response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: `request number ${i}. ${"word ".repeat(i)}` }] }).withResponse();
    ids.push(response.headers.get("x-gateway-trace-id")!);
    // The catalog's prices times what the provider itself reported for this request.
    const p = providerUsage(stack.fake, `request number ${i}.`);
    expected += Math.ceil((p.input * 150_000 + p.output * 600_000) / 1_000_000);
  }
  // Usage records cannot be read while the ledger is away: a clear 503, not a bare 404.
  const away = await fetch(`${stack.baseUrl()}/usage/${ids[0]}`, { headers: { authorization: `Bearer ${stack.demo.secret}` } });
  expect(away.status).toBe(503);
  expect(away.headers.get("retry-after")).toBe("1");
  expect(((await away.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "service_unavailable", message: "Billing is temporarily unavailable; please retry." });
  await stack.startLedger();

  const records = await eventually(
    async () => {
      const found = await Promise.all(ids.map((id) => stack.ledgerClient.GetUsage({ request_id: id, org_id: stack.demo.orgId, wait_ms: 0 }).catch(() => undefined)));
      return found.every(Boolean) ? found : undefined;
    },
    15_000,
    "all usage records applied",
  );
  expect(records).toHaveLength(N);
  expect(records.reduce((s, r) => s + r!.cost_minor, 0)).toBe(expected);
  const after = await stack.ledgerClient.GetCredits({ org_id: stack.demo.orgId });
  expect(before.balance_minor - after.balance_minor).toBe(expected);
  expect(after.spent_minor - before.spent_minor).toBe(expected);
});
