import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { eventually } from "@gateway/testing";
import { countTokens, stripMarkers } from "@gateway/fake-upstream";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";

/**
 * Partial work is billed honestly: the per-attempt timeout bounds waiting, not a stream's length;
 * a provider that reports no counts is estimated (never 0), tool arguments count; a non-streaming
 * request whose client left is billed what the provider did.
 */
let stack: Stack;
let o: TestOrg;
let client: OpenAI;

beforeAll(async () => {
  stack = await startStack("partial_billing");
  o = await createOrg(stack, { balanceMinor: 10_000_000 });
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: o.secret, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
});

interface Row {
  request_id: string;
  status: number;
  estimated: boolean;
  input_tokens: number;
  output_tokens: number;
  cost_minor: number;
}
const record = (id: string) =>
  eventually(
    async () => (await sql<Row>`SELECT request_id, status, estimated, input_tokens, output_tokens, cost_minor FROM ledger.usage_records WHERE request_id = ${id}`.execute(stack.ledger().db)).rows[0],
    10_000,
    `usage of ${id}`,
  );

it("streams for longer than the per-attempt timeout when chunks keep coming, and bills the provider's usage", async () => {
  const stream = await client.chat.completions
    .create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "[[fake:words=12,chunk_delay=200]] go" }] }, { headers: { "x-gateway-timeout-ms": "1000" } })
    .withResponse();
  const started = Date.now();
  let text = "";
  let finish: string | null = null;
  for await (const chunk of stream.data) {
    text += chunk.choices[0]?.delta.content ?? "";
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  expect(Date.now() - started).toBeGreaterThan(1_500);
  expect(text.split(" ")).toHaveLength(12);
  expect(finish).toBe("stop");
  const r = await record(stream.response.headers.get("x-request-id")!);
  expect(r).toMatchObject({ status: 200, estimated: false, output_tokens: 12 });
});

it("cuts a stream whose provider goes quiet for longer than the timeout, and bills what was delivered", async () => {
  const stream = await client.chat.completions
    .create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "[[fake:words=6,chunk_delay=1500]] go" }] }, { headers: { "x-gateway-timeout-ms": "1000" } })
    .withResponse();
  let failed: unknown;
  try {
    for await (const _chunk of stream.data) {
      // reading until the gateway's error event
    }
  } catch (err) {
    failed = err;
  }
  expect(String(failed)).toMatch(/did not answer|timeout/i);
  const r = await record(stream.response.headers.get("x-request-id")!);
  expect(r.cost_minor).toBeGreaterThan(0);
  expect(r.input_tokens).toBeGreaterThan(0);
});

it("estimates a provider's empty usage instead of billing 0", async () => {
  const res = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "[[fake:emptyusage]] tell me something" }] }).withResponse();
  const r = await record(res.response.headers.get("x-request-id")!);
  expect(r).toMatchObject({ estimated: true });
  expect(r.input_tokens).toBeGreaterThan(0);
  expect(r.output_tokens).toBeGreaterThan(0);
  expect(r.cost_minor).toBeGreaterThan(0);
});

it("counts streamed tool-call arguments when the provider reports no usage", async () => {
  const stream = await client.chat.completions
    .create({
      model: "gw-chat-mini",
      stream: true,
      tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object", properties: { text: { type: "string" } } } } }],
      messages: [{ role: "user", content: "[[fake:nousage]] look up the weather in a faraway town please" }],
    })
    .withResponse();
  let args = "";
  for await (const chunk of stream.data) args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? "";
  expect(args.length).toBeGreaterThan(20);
  const r = await record(stream.response.headers.get("x-request-id")!);
  expect(r.estimated).toBe(true);
  expect(r.output_tokens).toBeGreaterThanOrEqual(Math.ceil(args.length / 4));
});

it("bills a non-streaming request whose client went away for what the provider did", async () => {
  const fresh = await createOrg(stack, { balanceMinor: 1_000_000 });
  const abort = new AbortController();
  const prompt = `[[fake:delay=800]] a slow answer please ${fresh.orgId}`;
  const pending = new OpenAI({ baseURL: stack.baseUrl(), apiKey: fresh.secret, maxRetries: 0 }).chat.completions.create(
    { model: "gw-chat-mini", messages: [{ role: "user", content: prompt }] },
    { signal: abort.signal },
  );
  // The client leaves once the provider has the request (not after a guess at how long that takes).
  await eventually(() => (stack.fake.requests.some((q) => JSON.stringify(q.body).includes(fresh.orgId)) ? true : undefined), 10_000, "the provider received the request");
  abort.abort();
  await expect(pending).rejects.toThrow();
  const r = await eventually(
    async () =>
      (await sql<Row>`SELECT request_id, status, estimated, input_tokens, output_tokens, cost_minor FROM ledger.usage_records WHERE org_id = ${fresh.orgId}`.execute(stack.ledger().db)).rows[0],
    10_000,
    "usage of the abandoned request",
  );
  // 499: the client closed the request; the provider's own usage is billed.
  expect(r).toMatchObject({ status: 499, estimated: false });
  expect(r.cost_minor).toBeGreaterThan(0);
  const c = await stack.ledgerClient.GetCredits({ org_id: fresh.orgId });
  expect(c.balance_minor).toBe(1_000_000 - r.cost_minor);
});

it("a stream that ends before its usage bills the input the provider already reported (Anthropic's message_start), not an estimate from the body", async () => {
  const demo = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
  // The provider breaks off after two words: no message_delta, so no final usage.
  const prompt = `[[fake:cut=2]] ${"please count every one of these words ".repeat(8)}`;
  const stream = await demo.chat.completions.create({ model: "gw-claude", stream: true, messages: [{ role: "user", content: prompt }] }).withResponse();
  let failed: unknown;
  try {
    for await (const _chunk of stream.data) {
      // reading until the gateway's error event
    }
  } catch (err) {
    failed = err;
  }
  expect(failed).toBeDefined();
  const r = await record(stream.response.headers.get("x-request-id")!);
  // The fake's message_start counts every prompt word: 48 (the body is ~400 bytes, which estimated ~100).
  expect(r).toMatchObject({ status: 200, estimated: true, input_tokens: countTokens(stripMarkers(prompt)) });
  expect(r.output_tokens).toBeGreaterThan(0);
});
