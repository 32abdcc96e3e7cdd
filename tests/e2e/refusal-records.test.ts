import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleServer } from "@gateway/console";
import { eventually } from "@gateway/testing";
import type { AnyBody } from "../support/api.ts";
import { consoleServiceEnv, consoleUser, startConsoleFor } from "../support/console.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * Refusal records (docs/billing.md, "Refusal records"): a request of a known key refused before
 * routing — an unknown model, a bad body — is answered with the spec's error as before, and leaves
 * a record of cost 0 with its error code, so its trace id leads somewhere (GET /v1/usage/{id});
 * nothing is billed or held. Records are rate-limited per key (the rest counted, not recorded) and
 * never spooled: with NATS away the refusal is answered the same, nothing reaches the spool. The
 * console's charts count them: requests and errors by model, a model the gateway had not resolved
 * under one label.
 */
let stack: Stack;
let console_: ConsoleServer;

beforeAll(async () => {
  // A small bucket so the per-key limit shows with a handful of requests.
  stack = await startStack("refusal-records", {
    dataPlaneEnv: { DATA_PLANE_REFUSAL_RECORDS_PER_S: "1", DATA_PLANE_REFUSAL_RECORDS_BURST: "3" },
    serviceEnv: consoleServiceEnv,
  });
  console_ = await startConsoleFor(stack);
});

afterAll(async () => {
  await console_?.close();
  await stack?.stop();
});

const get = async (org: TestOrg, path: string): Promise<{ status: number; body: AnyBody }> => {
  const r = await fetch(`${stack.baseUrl()}${path}`, { headers: { authorization: `Bearer ${org.secret}` } });
  return { status: r.status, body: (await r.json()) as AnyBody };
};

/** The data-plane's count of refusal records by result. */
async function refusalCount(result: "published" | "rate_limited" | "dropped"): Promise<number> {
  const text = await (await fetch(`${stack.dataPlanes[0]!.url}/metrics`)).text();
  const m = new RegExp(`^gateway_refusal_records_total\\{[^}]*result="${result}"[^}]*\\} (\\d+)`, "m").exec(text);
  return m ? Number(m[1]) : 0;
}

/** The API error a call threw, with its trace id. */
async function refusedWith(call: Promise<unknown>): Promise<{ status: number; code: string; traceId: string }> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  const e = err as { status: number; error: AnyBody; requestID: string };
  const body = e.error?.error ?? e.error;
  return { status: e.status, code: body.code as string, traceId: e.requestID };
}

describe("a request refused before routing", () => {
  it("an unknown model (openai) and a bad body (anthropic) get the spec's errors, and each trace id opens a record of cost 0 with its code; nothing is billed", async () => {
    const org = await createOrg(stack, { balanceMinor: 3_000_000 });
    const before = await get(org, "/credits");
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: org.secret, maxRetries: 0 });

    const unknown = await refusedWith(openai.chat.completions.create({ model: "gw-no-such-model", messages: [{ role: "user", content: "hi" }] }));
    expect(unknown).toMatchObject({ status: 404, code: "model_not_found" });
    // A body the Messages API refuses: no messages to answer.
    const bad = await refusedWith(anthropic.messages.create({ model: "gw-chat-mini", max_tokens: 16, messages: "not a list" as unknown as Anthropic.MessageParam[] }));
    expect(bad).toMatchObject({ status: 400, code: "invalid_request" });

    const record = (await get(org, `/usage/${unknown.traceId}`)).body;
    expect(record).toMatchObject({
      object: "usage",
      request_id: unknown.traceId,
      model: "gw-no-such-model",
      route: "chat",
      status: 404,
      cost_credits_minor: 0,
      provider: "",
      attempts: [],
      refusal: { code: "model_not_found" },
    });
    expect(record.refusal.message).toContain("gw-no-such-model");
    expect((await get(org, `/usage/${bad.traceId}`)).body).toMatchObject({ route: "messages", model: "gw-chat-mini", status: 400, cost_credits_minor: 0, refusal: { code: "invalid_request" } });

    // Nothing billed or held, and the books hold (the refusal records are in the rollups, in no posting or feed).
    expect((await get(org, "/credits")).body).toEqual(before.body);
    const books = await stack.ledgerClient.CheckBooks({});
    expect(books.violations).toEqual([]);
    const held = await stack.ledgerClient.GetCredits({ org_id: org.orgId });
    expect(held.held_minor).toBe(0);
  });

  it("the console's requests and errors by model count them: a model admission resolved by its name, an unknown one or a body refused before it under one label", async () => {
    // No credit: a known model is refused at the credit gate, after it was resolved.
    const org = await createOrg(stack, { balanceMinor: 0 });
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: org.secret, maxRetries: 0 });
    expect(await refusedWith(openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "hi" }] }))).toMatchObject({ status: 402 });
    expect(await refusedWith(openai.chat.completions.create({ model: "gw-typo", messages: [{ role: "user", content: "hi" }] }))).toMatchObject({ status: 404 });
    expect(await refusedWith(anthropic.messages.create({ model: "gw-chat-mini", max_tokens: 16, messages: "not a list" as unknown as Anthropic.MessageParam[] }))).toMatchObject({ status: 400 });

    const user = consoleUser(stack, console_);
    const { cookie } = await user.signIn(org.orgId, "viewer");
    const byModel = await eventually(
      async () => {
        const points = (await user.get("/api/overview?days=1", cookie)).body.points as AnyBody[];
        const sums: Record<string, { requests: number; errors: number }> = {};
        for (const p of points) {
          const s = (sums[p.group] ??= { requests: 0, errors: 0 });
          s.requests += p.requests;
          s.errors += p.errors;
        }
        return Object.values(sums).reduce((n, s) => n + s.requests, 0) >= 3 ? sums : undefined;
      },
      10_000,
      "the refusals in the rollups",
    );
    expect(byModel).toEqual({ "gw-chat-mini": { requests: 1, errors: 1 }, "(unknown model)": { requests: 2, errors: 2 } });
    // The label is no model to filter the request log by: the records keep the names sent.
    const options = (await user.get("/api/log-options", cookie)).body;
    expect(options.models).toContain("gw-chat-mini");
    expect(options.models).not.toContain("(unknown model)");
    expect((await stack.ledgerClient.CheckBooks({})).violations).toEqual([]);
  });

  it("records at most the key's burst and rate; the rest are answered alike and counted as rate_limited", async () => {
    const org = await createOrg(stack, { balanceMinor: 1_000_000 });
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const limitedBefore = await refusalCount("rate_limited");
    const ids: string[] = [];
    const started = performance.now();
    for (let i = 0; i < 8; i++) {
      const r = await refusedWith(openai.embeddings.create({ model: `gw-missing-${i}`, input: "x" }));
      expect(r).toMatchObject({ status: 404, code: "model_not_found" });
      ids.push(r.traceId);
    }
    // A burst of 3, and one more refilled for each second the 8 took.
    const recordable = 3 + Math.ceil((performance.now() - started) / 1_000);
    expect((await refusalCount("rate_limited")) - limitedBefore).toBeGreaterThanOrEqual(8 - recordable);
    const found = await eventually(
      async () => {
        const page = await stack.ledgerClient.ListUsage({ org_id: org.orgId, key_id: "", model: "", route: "", status: 0, from_ms: 0, to_ms: 0, limit: 50, cursor: "" });
        return page.records.length >= 3 ? page.records : undefined;
      },
      10_000,
      "the recorded refusals",
    );
    expect(found.length).toBeLessThanOrEqual(recordable);
    expect(found.every((r) => r.error_code === "model_not_found" && r.cost_minor === 0 && ids.includes(r.request_id))).toBe(true);
    // The first ones were recorded, in order of arrival.
    expect(found.map((r) => r.request_id)).toContain(ids[0]);
  });

  it("with NATS away, the refusal is answered unchanged and at once, never spooled, and counted as dropped", async () => {
    const org = await createOrg(stack, { balanceMinor: 1_000_000 });
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    // The key is known to the replica before NATS goes.
    await openai.models.list();
    const droppedBefore = await refusalCount("dropped");
    await stack.stopNats();
    try {
      const started = performance.now();
      const r = await refusedWith(openai.chat.completions.create({ model: "gw-gone-model", messages: [{ role: "user", content: "hi" }] }));
      expect(r).toMatchObject({ status: 404, code: "model_not_found" });
      // Not held back by the publish: it is not awaited.
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(stack.dataPlanes[0]!.ctx.publisher.spooled).toBe(0);
      await eventually(async () => ((await refusalCount("dropped")) > droppedBefore ? true : undefined), 10_000, "the refusal counted as dropped");
      expect(stack.dataPlanes[0]!.ctx.publisher.spooled).toBe(0);
    } finally {
      await stack.startNats();
    }
  });
});
