import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg } from "../support/orgs.ts";

/**
 * A replica whose usage spool is full refuses paid work with a 503 rather than answer what it could
 * not bill; once NATS is back the spool drains, every spooled answer is billed once, and paid
 * requests are answered again.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack("spool_full", { dataPlaneEnv: { DATA_PLANE_SPOOL_MAX_EVENTS: "3" } });
});
afterAll(async () => {
  await stack?.stop();
});

it("answers 503 with Retry-After once the spool is full, sends nothing upstream, and recovers when NATS is back", async () => {
  const org = await createOrg(stack, { balanceMinor: 1_000_000 });
  await stack.admin.EnableMcpServers({ org: org.orgId, servers: ["demo-tools"] });
  const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
  // The key and lease are cached before NATS goes away.
  await eventually(() => client.chat.completions.create({ model: "gw-chat-mini", max_tokens: 8, messages: [{ role: "user", content: "warm up" }] }), 15_000, "gw-chat-mini visible");
  await stack.stopNats();
  const spooled: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { response } = await client.chat.completions.create({ model: "gw-chat-mini", max_tokens: 8, messages: [{ role: "user", content: `spooled ${i}` }] }).withResponse();
    spooled.push(response.headers.get("x-request-id")!);
  }
  expect(stack.dataPlanes[0]!.ctx.publisher.spooled).toBe(3);

  const modelCalls = () => stack.fake.requests.filter((r) => r.path !== "/mcp").length;
  const before = modelCalls();
  const refused = await fetch(`${stack.baseUrl()}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.secret}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gw-chat-mini", max_tokens: 8, messages: [{ role: "user", content: "one too many" }] }),
  });
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("5");
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("service_unavailable");
  // A tool call through the MCP gateway is refused the same way: its record could not be kept either.
  const mcp = new Client({ name: "spool-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(stack.baseUrl().replace(/\/v1$/, "/mcp")), { requestInit: { headers: { authorization: `Bearer ${org.secret}` } } }));
  await expect(mcp.callTool({ name: "demo-tools__echo", arguments: { text: "not now" } })).rejects.toMatchObject({ code: -32010, data: { code: "service_unavailable" } });
  await mcp.close();
  expect(modelCalls()).toBe(before);
  expect(stack.fake.requests.some((r) => r.path === "/mcp" && (r.body as { method?: string } | undefined)?.method === "tools/call")).toBe(false);
  expect(stack.dataPlanes[0]!.ctx.publisher.spooled).toBe(3);

  await stack.startNats();
  const rows = await eventually(
    async () => {
      const r = await sql<{ request_id: string }>`SELECT request_id FROM ledger.usage_records WHERE request_id = ANY(${spooled})`.execute(stack.ledger().db);
      return r.rows.length === spooled.length ? r.rows : undefined;
    },
    20_000,
    "spooled usage applied",
  );
  expect(rows.map((r) => r.request_id).sort()).toEqual([...spooled].sort());
  const again = await eventually(
    async () => {
      const r = await client.chat.completions.create({ model: "gw-chat-mini", max_tokens: 8, messages: [{ role: "user", content: "after recovery" }] }).catch(() => undefined);
      return r;
    },
    20_000,
    "paid requests answered again",
  );
  expect(again.choices[0]!.message.content).toContain("after recovery");
});

it("records guardrail denials only while nothing is spooled: a caller repeating a denied request while NATS is away cannot fill the spool and turn paid work away", async () => {
  const org = await createOrg(stack, { balanceMinor: 1_000_000 });
  await stack.admin.SetGuardrails({ org: org.orgId, document: "rules:\n  - plugin: keywords\n    config: { words: [forbidden] }\n" });
  const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
  const deny = () => client.chat.completions.create({ model: "gw-chat-mini", max_tokens: 8, messages: [{ role: "user", content: "forbidden words" }] }).catch((e: unknown) => e);
  // The rule in force, the key and lease cached, while NATS is up (that denial is recorded).
  await eventually(async () => ((await deny()) instanceof OpenAI.BadRequestError ? true : undefined), 15_000, "the rule in force");
  await eventually(() => client.chat.completions.create({ model: "gw-chat-mini", max_tokens: 8, messages: [{ role: "user", content: "warm up" }] }), 15_000, "paid requests answered");
  await stack.stopNats();
  try {
    // One paid answer spooled: NATS is away.
    await client.chat.completions.create({ model: "gw-chat-mini", max_tokens: 8, messages: [{ role: "user", content: "spooled" }] });
    expect(stack.dataPlanes[0]!.ctx.publisher.spooled).toBe(1);
    for (let i = 0; i < 5; i++) {
      const e = await deny();
      expect(e).toBeInstanceOf(OpenAI.BadRequestError);
      expect((e as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("guardrail_denied");
    }
    expect(stack.dataPlanes[0]!.ctx.publisher.spooled).toBe(1);
    // The spool's room is still the paid work's.
    await client.chat.completions.create({ model: "gw-chat-mini", max_tokens: 8, messages: [{ role: "user", content: "still answered" }] });
    expect(stack.dataPlanes[0]!.ctx.publisher.spooled).toBe(2);
  } finally {
    await stack.startNats();
  }
});

it("a key revoked while NATS is away (its revocation event lost) is refused once NATS is back, long before its cache lifetime ends", async () => {
  const org = await createOrg(stack, { balanceMinor: 1_000_000 });
  // A replica that would otherwise trust a cached key for ten minutes.
  const dp = await stack.addDataPlane({ DATA_PLANE_KEY_CACHE_TTL_MS: "600000" });
  const models = () => fetch(`${dp.url}/v1/models`, { headers: { authorization: `Bearer ${org.secret}` } });
  expect((await models()).status).toBe(200);
  await stack.stopNats();
  try {
    await stack.admin.RevokeKey({ key_id: org.keyId });
    // The change event could not be published: the replica still serves its cached key meanwhile.
    expect((await models()).status).toBe(200);
  } finally {
    await stack.startNats();
  }
  // Reconnected, the replica knows it may have missed changes: every cached key is checked again.
  const refused = await eventually(async () => ((await models()).status === 401 ? true : undefined), 15_000, "the revoked key refused after NATS is back");
  expect(refused).toBe(true);
});
