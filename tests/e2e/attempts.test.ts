import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { providerUsage } from "../support/provider-usage.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg, post, type TestOrg } from "../support/orgs.ts";
import type { AnyBody, UsageBody } from "../support/api.ts";

/**
 * Every upstream attempt is recorded once with who pays for it (docs/billing.md, "Attempts and
 * who pays"), tried as an operator and a caller would: a retried request, a request whose provider
 * took longer than the caller's timeout, what GET /v1/usage shows, what the export carries, and the
 * operator's cost report. Prices are the demo catalog's: gw-chat-mini at 150,000 / 600,000 minor
 * per million input / output tokens, and its `fake` deployment costing the operator 100,000 /
 * 400,000.
 */
const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
let stack: Stack;
let org: TestOrg;
let openai: OpenAI;
const startedAt = Date.now();

beforeAll(async () => {
  stack = await startStack("attempts", { dataPlaneEnv: { DATA_PLANE_RETRY_BASE_MS: "20" } });
  org = await createOrg(stack, { balanceMinor: 5_000_000, models: ["gw-chat-mini"] });
  openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
  // The new org's models reach the data-plane's cache.
  await eventually(async () => ((await post(stack.baseUrl(), org.secret, "/chat/completions", "{}")).status === 400 ? true : undefined), 15_000, "org visible");
});
afterAll(async () => {
  await stack?.stop();
});

async function usageOf(id: string): Promise<UsageBody> {
  const r = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${org.secret}` } });
  expect(r.status).toBe(200);
  return (await r.json()) as UsageBody;
}

async function balance(): Promise<number> {
  const r = await fetch(`${stack.baseUrl()}/credits`, { headers: { authorization: `Bearer ${org.secret}` } });
  return ((await r.json()) as AnyBody).balance_minor as number;
}

async function ctl(...args: string[]): Promise<string> {
  const r = await run(join(root, "bin/gatewayctl"), args, {
    env: { ...process.env, GATEWAY_ADMIN_TOKEN: stack.adminToken, GATEWAY_CONTROL_PLANE_ADDR: `127.0.0.1:${stack.control.grpcPort}`, GATEWAY_LEDGER_ADDR: `127.0.0.1:${stack.ledger().grpcPort}` },
  });
  return r.stdout;
}

const tokens = (input: number, output: number, inPrice: number, outPrice: number) => Math.ceil((input * inPrice + output * outPrice) / 1_000_000);

/** Filled by the tests before the export's: each request's id → what it cost the caller and the operator, and its attempts. */
const sent = new Map<string, { billed: number; providerCost: number; absorbed: number; attempts: number; outcome: string; input: number; output: number; tier: string }>();
const total = (field: "billed" | "providerCost" | "absorbed") => [...sent.values()].reduce((n, r) => n + r[field], 0);

describe("attempt records", () => {
  it("a request retried after a provider failure lists both attempts: the failure at nothing, the answer billed to the caller", async () => {
    const { data, response } = await openai.chat.completions
      .create({ model: "gw-chat-mini", messages: [{ role: "user", content: "twice [[fake:flaky=attempts-retry:1,status=500,tier=flex]]" }] })
      .withResponse();
    expect(response.headers.get("x-gateway-retry-count")).toBe("1");
    const record = await usageOf(response.headers.get("x-request-id")!);
    // Priced from what the provider itself reported for the attempt that answered.
    const p = providerUsage(stack.fake, "twice [[fake:flaky=attempts-retry:1");
    expect(data.usage!.prompt_tokens).toBe(p.input);
    const billed = tokens(p.input, p.output, 150_000, 600_000);
    expect(record.cost_credits_minor).toBe(billed);
    expect(record.status).toBe(200);
    expect(record.attempts).toEqual([
      {
        attempt: 1,
        provider: "fake",
        upstream_model: "fake-chat",
        status: 500,
        outcome: "failed",
        input_tokens: 0,
        output_tokens: 0,
        estimated: false,
        cost_minor: 0,
        payer: "none",
        duration_ms: expect.any(Number),
      },
      {
        attempt: 2,
        provider: "fake",
        upstream_model: "fake-chat",
        status: 200,
        outcome: "served",
        input_tokens: p.input,
        output_tokens: p.output,
        estimated: false,
        cost_minor: billed,
        payer: "caller",
        duration_ms: expect.any(Number),
        // The provider's whole split and its service tier (docs/billing.md, "Reconciliation").
        cached_input_tokens: 0,
        cache_creation_input_tokens: 0,
        reasoning_tokens: 0,
        service_tier: "flex",
      },
    ]);
    // What the operator pays the provider is not the caller's to see.
    expect(JSON.stringify(record)).not.toContain("provider_cost");
    sent.set(response.headers.get("x-request-id")!, {
      billed,
      providerCost: tokens(p.input, p.output, 100_000, 400_000),
      absorbed: 0,
      attempts: 2,
      outcome: "served",
      input: p.input,
      output: p.output,
      tier: "flex",
    });
  });

  it("a request served at once lists its one attempt, billed to the caller", async () => {
    const { data, response } = await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "once" }] }).withResponse();
    const record = await usageOf(response.headers.get("x-request-id")!);
    const p = providerUsage(stack.fake, '"once"');
    const billed = tokens(p.input, p.output, 150_000, 600_000);
    expect(record.attempts).toEqual([
      {
        attempt: 1,
        provider: "fake",
        upstream_model: "fake-chat",
        status: 200,
        outcome: "served",
        input_tokens: data.usage!.prompt_tokens,
        output_tokens: data.usage!.completion_tokens,
        estimated: false,
        cost_minor: billed,
        payer: "caller",
        duration_ms: expect.any(Number),
        cached_input_tokens: 0,
        cache_creation_input_tokens: 0,
        reasoning_tokens: 0,
      },
    ]);
    sent.set(response.headers.get("x-request-id")!, {
      billed,
      providerCost: tokens(data.usage!.prompt_tokens, data.usage!.completion_tokens, 100_000, 400_000),
      absorbed: 0,
      attempts: 1,
      outcome: "served",
      input: data.usage!.prompt_tokens,
      output: data.usage!.completion_tokens,
      tier: "",
    });
  });

  it("a provider slower than the caller's timeout: one attempt, a 504, nothing billed, its worst case absorbed by the operator", async () => {
    const body = JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "slow [[fake:delay=2500]]" }] });
    // The hold this request takes, from a dry run: the worst one attempt can cost.
    const dry = await post(stack.baseUrl(), org.secret, "/chat/completions", body, { "x-gateway-dry-run": "true" });
    expect(dry.status).toBe(200);
    const hold = dry.body.max_cost_minor as number;
    const promptBound = (dry.body.lines as AnyBody[]).find((l) => l.item === "input_tokens").quantity as number;
    const sentBefore = stack.fake.requests.filter((q) => JSON.stringify(q.body).includes("slow [[fake:delay=2500]]")).length;
    const before = await balance();

    const r = await post(stack.baseUrl(), org.secret, "/chat/completions", body, { "x-gateway-timeout-ms": "1000" });
    expect(r.status).toBe(504);
    expect(r.body.error.code).toBe("upstream_timeout");
    // One attempt only: a second would let the provider bill past the hold.
    expect(stack.fake.requests.filter((q) => JSON.stringify(q.body).includes("slow [[fake:delay=2500]]")).length - sentBefore).toBe(1);

    const record = await usageOf(r.headers.get("x-request-id")!);
    expect(record).toMatchObject({ status: 504, cost_credits_minor: 0, usage: { input_tokens: 0, output_tokens: 0 } });
    expect(record.attempts).toEqual([
      {
        attempt: 1,
        provider: "fake",
        upstream_model: "fake-chat",
        status: 0,
        outcome: "timeout",
        input_tokens: promptBound,
        output_tokens: 4_096,
        estimated: true,
        cost_minor: hold,
        payer: "operator",
        duration_ms: expect.any(Number),
      },
    ]);
    expect(await balance()).toBe(before);
    const absorbed = tokens(promptBound, 4_096, 100_000, 400_000);
    sent.set(r.headers.get("x-request-id")!, { billed: 0, providerCost: absorbed, absorbed, attempts: 1, outcome: "timeout", input: promptBound, output: 4_096, tier: "" });
  });

  it("the export carries every attempt with the provider's cost; the cost report shows absorbed cost per provider and day and margin per org", async () => {
    const from = new Date(startedAt - 1_000).toISOString();
    const to = new Date(Date.now() + 1_000).toISOString();
    const lines = (await ctl("usage", "export", "--org", org.orgId, "--from", from, "--to", to, "--format", "jsonl")).trim().split("\n");
    // The export keeps refusal records too (error_code set, cost 0): the billed rows are the requests sent.
    const rows = lines.map((l) => JSON.parse(l) as AnyBody).filter((r) => !r.error_code);
    // Each row matched to its request by id (not by its place in the export).
    expect(sent.size).toBe(3);
    expect(rows.map((r) => r.request_id).sort()).toEqual([...sent.keys()].sort());
    for (const row of rows) {
      const want = sent.get(row.request_id)!;
      expect(row).toMatchObject({ cost_minor: want.billed, provider_cost_minor: want.providerCost });
      expect(row.attempts).toHaveLength(want.attempts);
      expect(row.attempts.at(-1)).toMatchObject({ outcome: want.outcome, payer: want.absorbed > 0 ? "operator" : "caller", provider_cost_minor: want.providerCost });
    }

    const report = JSON.parse(await ctl("usage", "costs", "--from", from, "--to", to, "--json")) as AnyBody;
    const mine = (report.orgs as AnyBody[]).find((o) => o.org_id === org.orgId);
    expect(mine).toEqual({
      org_id: org.orgId,
      requests: 3,
      billed_minor: total("billed"),
      provider_cost_minor: total("providerCost"),
      absorbed_minor: total("absorbed"),
      margin_minor: total("billed") - total("providerCost"),
    });
    const today = new Date().toISOString().slice(0, 10);
    const fake = (report.providers as AnyBody[]).find((p) => p.provider === "fake" && p.day === today);
    // Other suites' requests do not reach this stack: the fake provider's row is this org's.
    expect(fake).toEqual({ day: today, provider: "fake", attempts: 4, unserved: 2, provider_cost_minor: total("providerCost"), absorbed_minor: total("absorbed") });

    // The same requests in the ledger's rollups, as the console's charts read them: the refused ones
    // count as requests too (at no cost: docs/billing.md, "Refusal records").
    const refused = lines.length - rows.length;
    const spend = JSON.parse(await ctl("usage", "spend", "--org", org.orgId, "--from", from, "--to", to, "--by", "hour", "--json")) as AnyBody;
    expect((spend.points as AnyBody[]).reduce((n: number, p: AnyBody) => n + p.requests, 0)).toBe(3 + refused);
    expect((spend.points as AnyBody[]).reduce((n: number, p: AnyBody) => n + p.cost_minor, 0)).toBe(total("billed"));

    // Per token class (docs/billing.md, "Reconciliation"): every attempt's tokens at the deployment's cost price for the class, exact.
    const byClass = JSON.parse(await ctl("usage", "costs", "--from", from, "--to", to, "--by-class", "--json")) as AnyBody;
    const classes = (byClass.classes as AnyBody[]).filter((l) => l.provider === "fake" && l.day === today);
    for (const tier of ["", "flex"]) {
      const mine = [...sent.values()].filter((x) => x.tier === tier);
      const input = mine.reduce((n, x) => n + x.input, 0);
      const output = mine.reduce((n, x) => n + x.output, 0);
      expect(classes.filter((l) => l.service_tier === tier).map((l) => [l.upstream_model, l.token_class, l.tokens, l.unit_price_minor, l.provider_cost_exact_minor])).toEqual([
        ["fake-chat", "input_tokens", input, 100_000, String((input * 100_000) / 1_000_000)],
        ["fake-chat", "output_tokens", output, 400_000, String((output * 400_000) / 1_000_000)],
      ]);
    }
    // The served attempt's tier is the record's too.
    expect(rows.find((r) => sent.get(r.request_id)!.tier === "flex")).toMatchObject({ service_tier: "flex" });

    const metrics = await (await fetch(`http://127.0.0.1:${stack.ledger().opsPort}/metrics`)).text();
    expect(metrics).toContain(`ledger_attempt_provider_cost_minor_total{provider="fake",payer="operator",service="ledger"} ${total("absorbed")}`);
    expect(metrics).toContain(`ledger_upstream_attempts_total{provider="fake",outcome="timeout",service="ledger"} 1`);
  });
});
