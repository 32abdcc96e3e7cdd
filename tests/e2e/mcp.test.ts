import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * The MCP gateway through the official MCP TypeScript SDK client (docs/mcp.md): a `sk-gateway-` key
 * as the bearer token, the demo catalog's `demo-tools` server (the fake upstream's MCP server, built
 * with the same SDK) enabled for the organization. Tools the catalog does not list are neither
 * listed nor callable, and a refused call never reaches the upstream; a session begun on one
 * data-plane replica goes on on the other; upstream failures are JSON-RPC errors within the deadline.
 */
let stack: Stack;
let org: TestOrg;

beforeAll(async () => {
  stack = await startStack("mcp", {
    dataPlanes: 2,
    dataPlaneEnv: {
      DATA_PLANE_MCP_TIMEOUT_MS: "1500",
      DATA_PLANE_MCP_MAX_RESULT_BYTES: "100000",
      DATA_PLANE_MCP_TOOLS_TTL_MS: "200",
      // One organization's own credential for the stateful server (the catalog's org_credential_refs).
      DATA_PLANE_PROVIDER_KEY_TENANT_B_MCP: "tenant-b-secret",
    },
  });
  org = await createOrg(stack, { balanceMinor: 1_000_000 });
  await stack.admin.EnableMcpServers({ org: org.orgId, servers: ["demo-tools"] });
});

afterAll(async () => {
  await stack?.stop();
});

/** An MCP client of the official SDK on `path` of replica `replica`, with `secret` as its bearer token. */
async function connect(secret: string, path = "/mcp", replica = 0): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "gateway-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(stack.baseUrl(replica).replace(/\/v1$/, path)), { requestInit: { headers: { authorization: `Bearer ${secret}` } } });
  await client.connect(transport);
  return { client, transport };
}

const upstreamCalls = () => stack.fake.requests.filter((r) => r.path === "/mcp" && (r.body as { method?: string } | undefined)?.method === "tools/call");
/** An organization's usage records of the last ten minutes, once there is one. */
const recordsOf = (orgId: string, what: string) =>
  eventually(
    async () => {
      const r = await stack.ledgerClient.ListUsage({ org_id: orgId, key_id: "", model: "", route: "", status: 0, from_ms: Date.now() - 600_000, to_ms: Date.now() + 1_000, limit: 10, cursor: "" });
      // Billed records (a call refused before routing leaves a refusal record: docs/billing.md).
      const billed = r.records.filter((x) => !x.error_code);
      return billed.length ? billed : undefined;
    },
    15_000,
    what,
  );
const text = (r: unknown) => ((r as { content: Array<{ text: string }> }).content[0]?.text ?? "") as string;

describe("the MCP gateway", () => {
  it("initializes, lists only the catalog's tools of the servers the organization may use, and calls one", async () => {
    // The organization's key context reaches the replicas with the server enabled.
    const { client } = await eventually(() => connect(org.secret), 15_000, "connected");
    expect(client.getServerVersion()).toMatchObject({ name: "ai-gateway" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["demo-tools__big", "demo-tools__echo", "demo-tools__explode", "demo-tools__fail", "demo-tools__shifty", "demo-tools__slow_echo"]);
    expect(tools.find((t) => t.name === "demo-tools__echo")).toMatchObject({ description: "Echoes the text back.", inputSchema: { type: "object", properties: { text: { type: "string" } } } });
    const before = upstreamCalls().length;
    const echoed = await client.callTool({ name: "demo-tools__echo", arguments: { text: "hello through the gateway" } });
    expect(text(echoed)).toBe("hello through the gateway");
    expect(upstreamCalls().length).toBe(before + 1);
    // Recorded at zero (an unpriced tool), with what was called and how it went.
    const id = (echoed._meta as Record<string, string>)["gateway/request_id"];
    const record = await eventually(
      async () => {
        const r = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${org.secret}` } });
        return r.status === 200 ? ((await r.json()) as Record<string, unknown>) : undefined;
      },
      15_000,
      "the call's record",
    );
    expect(record).toMatchObject({ route: "mcp", model: "demo-tools/echo", status: 200, cost_credits_minor: 0 });
    expect((record.line_items as Array<{ attributes: Record<string, string> }>)[0]!.attributes).toMatchObject({ server: "demo-tools", tool: "echo", outcome: "ok" });
    expect(Number((record.line_items as Array<{ attributes: Record<string, string> }>)[0]!.attributes.result_bytes)).toBeGreaterThan(0);
    // The upstream got the server's own credential, never the caller's key.
    const sent = upstreamCalls().at(-1)!;
    expect(sent.headers.authorization).toBe("Bearer fake-upstream-local-key");
    await client.close();
  });

  it("serves one server at /mcp/{server} under its own tool names", async () => {
    const { client } = await connect(org.secret, "/mcp/demo-tools");
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("echo");
    expect(text(await client.callTool({ name: "echo", arguments: { text: "one server" } }))).toBe("one server");
    await client.close();
    const missing = await fetch(stack.baseUrl().replace(/\/v1$/, "/mcp/nope"), {
      method: "POST",
      headers: { authorization: `Bearer ${org.secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
    expect(missing.status).toBe(404);
  });

  it("refuses a tool the catalog does not offer by name, and nothing reaches the upstream", async () => {
    const { client } = await connect(org.secret);
    const before = upstreamCalls().length;
    for (const name of ["demo-tools__secret_admin", "other__echo", "echo"]) {
      await expect(client.callTool({ name, arguments: { action: "drop tables" } })).rejects.toThrow(`Unknown tool: ${name}`);
    }
    expect(upstreamCalls().length).toBe(before);
    await client.close();
  });

  it("a key's tool allowlist narrows what it lists and may call", async () => {
    const narrow = await stack.admin.CreateKey({ org: org.orgId, routes: ["mcp"], models: [], name: "echo only", mcp_tools: ["demo-tools/echo"] });
    expect(narrow.key?.mcp_tools).toEqual(["demo-tools/echo"]);
    await expect(stack.admin.CreateKey({ org: org.orgId, routes: [], models: [], name: "bad", mcp_tools: ["echo"] })).rejects.toMatchObject({ code: "invalid_request" });
    const { client } = await eventually(() => connect(narrow.secret), 15_000, "connected");
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["demo-tools__echo"]);
    const before = upstreamCalls().length;
    await expect(client.callTool({ name: "demo-tools__big", arguments: { bytes: 10 } })).rejects.toThrow("Unknown tool: demo-tools__big");
    expect(upstreamCalls().length).toBe(before);
    expect(text(await client.callTool({ name: "demo-tools__echo", arguments: { text: "allowed" } }))).toBe("allowed");
    await client.close();
  });

  it("runs the organization's guardrails on tool arguments (a denial sends nothing) and on results (masked, reported to the caller)", async () => {
    const guarded = await createOrg(stack, { balanceMinor: 1_000 });
    await stack.admin.EnableMcpServers({ org: guarded.orgId, servers: ["demo-tools"] });
    await stack.admin.SetGuardrails({
      org: guarded.orgId,
      document:
        "rules:\n  - plugin: pii\n    name: mask-results\n    action: mask\n    stage: output\n    routes: [mcp]\n  - plugin: keywords\n    name: no-launch-codes\n    stage: input\n    routes: [mcp]\n    config: { words: [launchcodes] }\n",
    });
    const { client } = await eventually(
      async () => {
        const c = await connect(guarded.secret);
        const r = await c.client.callTool({ name: "demo-tools__echo", arguments: { text: "write to ann@example.com" } });
        return text(r).includes("[EMAIL]") ? { ...c, first: r } : undefined;
      },
      15_000,
      "the rules in force",
    );
    const masked = await client.callTool({ name: "demo-tools__echo", arguments: { text: "or to bob@example.com" } });
    expect(text(masked)).toBe("or to [EMAIL]");
    expect(masked._meta).toMatchObject({ "gateway/guardrails": "pii:masked,keywords:pass" });
    // The upstream got the arguments as sent (only the output rule masks); the caller got the masked result.
    expect(JSON.stringify(upstreamCalls().at(-1)!.body)).toContain("bob@example.com");
    const id = (masked._meta as Record<string, string>)["gateway/request_id"];
    const record = await eventually(
      async () => {
        const r = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${guarded.secret}` } });
        return r.status === 200 ? ((await r.json()) as Record<string, unknown>) : undefined;
      },
      15_000,
      "the record",
    );
    expect(record.guardrails).toEqual([
      { plugin: "pii", name: "mask-results", outcome: "masked" },
      { plugin: "keywords", name: "no-launch-codes", outcome: "pass" },
    ]);

    const before = upstreamCalls().length;
    const denied = (await client.callTool({ name: "demo-tools__echo", arguments: { text: "the launchcodes are 1234" } }).catch((e: unknown) => e)) as { code: number; data: Record<string, string> };
    expect(denied).toMatchObject({ code: -32010, data: { code: "guardrail_denied", stage: "input", request_id: expect.stringMatching(/^req_/) } });
    expect(upstreamCalls().length).toBe(before);
    // The denial is recorded at zero, no server called, the refused arguments by their hash: the error names the record.
    const refused = await eventually(
      async () => {
        const r = await fetch(`${stack.baseUrl()}/usage/${denied.data.request_id}`, { headers: { authorization: `Bearer ${guarded.secret}` } });
        return r.status === 200 ? ((await r.json()) as Record<string, unknown>) : undefined;
      },
      15_000,
      "the denial's record",
    );
    expect(refused).toMatchObject({ route: "mcp", model: "demo-tools/echo", provider: "", status: 400, cost_credits_minor: 0 });
    expect(refused.line_items).toEqual([
      {
        item: "tool_call",
        quantity: 0,
        unit_price_minor: expect.any(Number),
        per: "call",
        attributes: {
          server: "demo-tools",
          tool: "echo",
          arguments_sha256: createHash("sha256")
            .update(JSON.stringify({ text: "the launchcodes are 1234" }))
            .digest("hex"),
          outcome: "guardrail_denied",
        },
      },
    ]);
    expect(refused.guardrails).toEqual([
      { plugin: "pii", name: "mask-results", outcome: "skipped" },
      { plugin: "keywords", name: "no-launch-codes", outcome: "denied" },
    ]);
    await client.close();
  });

  it("negotiates every protocol version the official SDK speaks (an unknown one gets the newest), each with a session any replica takes", async () => {
    const init = (version: string, replica = 0) =>
      fetch(stack.baseUrl(replica).replace(/\/v1$/, "/mcp"), {
        method: "POST",
        headers: { authorization: `Bearer ${org.secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
      });
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "1999-01-01"]) {
      const r = await init(version);
      expect(r.status).toBe(200);
      const body = (await r.json()) as { result: { protocolVersion: string } };
      expect(body.result.protocolVersion).toBe(version === "1999-01-01" ? "2025-11-25" : version);
      const session = r.headers.get("mcp-session-id")!;
      // The session's next request, on the other replica, with the negotiated version's header.
      const list = await fetch(stack.baseUrl(1).replace(/\/v1$/, "/mcp"), {
        method: "POST",
        headers: {
          authorization: `Bearer ${org.secret}`,
          "mcp-session-id": session,
          "mcp-protocol-version": body.result.protocolVersion,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    }
    // A version header the gateway does not speak: 400, as the transport specifies.
    const refused = await fetch(stack.baseUrl().replace(/\/v1$/, "/mcp"), {
      method: "POST",
      headers: { authorization: `Bearer ${org.secret}`, "mcp-protocol-version": "2030-01-01", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("Unsupported MCP-Protocol-Version '2030-01-01'");
  });

  it("answers an upstream that speaks something other than MCP as a JSON-RPC error", async () => {
    await stack.applyCatalog({ mcp_servers: [{ name: "garbage-tools", url: `${stack.fake.url}/healthz`, tools: [{ name: "echo" }] }] });
    const o = await createOrg(stack, { balanceMinor: 1_000 });
    await stack.admin.EnableMcpServers({ org: o.orgId, servers: ["garbage-tools"] });
    const { client } = await eventually(() => connect(o.secret, "/mcp/garbage-tools"), 15_000, "connected");
    await expect(client.callTool({ name: "echo", arguments: { text: "x" } })).rejects.toMatchObject({ code: -32010, data: { code: expect.stringMatching(/^upstream_(error|timeout)$/) } });
    await client.close();
  });

  it("an organization without the server sees no tools; no key or a bad key is a 401 with the gateway's error", async () => {
    const other = await createOrg(stack, { balanceMinor: 1_000 });
    const { client } = await eventually(() => connect(other.secret), 15_000, "connected");
    expect((await client.listTools()).tools).toEqual([]);
    await expect(client.callTool({ name: "demo-tools__echo", arguments: { text: "x" } })).rejects.toThrow("Unknown tool: demo-tools__echo");
    await client.close();
    for (const headers of [{}, { authorization: "Bearer sk-gateway-notakey" }]) {
      const r = await fetch(stack.baseUrl().replace(/\/v1$/, "/mcp"), {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(r.status).toBe(401);
      expect(((await r.json()) as { error: { code: string } }).error.code).toMatch(/^(missing|invalid)_api_key$/);
    }
    // A key scoped to other routes may not use the MCP gateway.
    const scoped = await stack.admin.CreateKey({ org: org.orgId, routes: ["chat"], models: [], name: "chat only" });
    await expect(connect(scoped.secret)).rejects.toThrow(/403|route_not_allowed|MCP gateway/);
  });

  it("goes on with a session on another replica, without sticky sessions", async () => {
    const { client, transport } = await connect(org.secret, "/mcp", 0);
    const session = transport.sessionId;
    expect(session).toMatch(/^mcps_/);
    // The same session, its next requests sent to the other replica.
    const other = new Client({ name: "gateway-test", version: "1.0.0" });
    const moved = new StreamableHTTPClientTransport(new URL(stack.baseUrl(1).replace(/\/v1$/, "/mcp")), { sessionId: session, requestInit: { headers: { authorization: `Bearer ${org.secret}` } } });
    await other.connect(moved);
    expect(text(await other.callTool({ name: "demo-tools__echo", arguments: { text: "on replica 1" } }))).toBe("on replica 1");
    expect(text(await client.callTool({ name: "demo-tools__echo", arguments: { text: "back on replica 0" } }))).toBe("back on replica 0");
    // Another key cannot use this session.
    const stranger = await createOrg(stack, { balanceMinor: 1_000 });
    const r = await fetch(stack.baseUrl(1).replace(/\/v1$/, "/mcp"), {
      method: "POST",
      headers: { authorization: `Bearer ${stranger.secret}`, "mcp-session-id": session!, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
    });
    expect(r.status).toBe(404);
    await client.close();
    await other.close();
  });

  it("holds and bills a priced call exactly once in the ledger, records every call, and refuses with 402 what the balance cannot cover", async () => {
    // A priced server over the same upstream: echo at 0.3 credits a call.
    await stack.applyCatalog({ mcp_servers: [{ name: "paid-tools", url: `${stack.fake.url}/mcp`, credential_ref: "FAKE_UPSTREAM_API_KEY", tools: [{ name: "echo", price_minor: 300_000 }] }] });
    const payer = await createOrg(stack, { balanceMinor: 5_000_000 });
    await stack.admin.EnableMcpServers({ org: payer.orgId, servers: ["paid-tools"] });
    const { client } = await eventually(
      async () => {
        const c = await connect(payer.secret, "/mcp/paid-tools");
        return (await c.client.listTools()).tools.length ? c : undefined;
      },
      15_000,
      "the priced server visible",
    );
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await client.callTool({ name: "echo", arguments: { text: `paid ${i}` } });
      expect(text(r)).toBe(`paid ${i}`);
      expect(r._meta).toMatchObject({ "gateway/cost_minor": 300_000 });
      ids.push((r._meta as Record<string, string>)["gateway/request_id"]!);
    }
    await client.close();
    // An organization whose balance cannot cover one call: refused before anything reaches the upstream.
    const poor = await createOrg(stack, { balanceMinor: 200_000 });
    await stack.admin.EnableMcpServers({ org: poor.orgId, servers: ["paid-tools"] });
    const refused = await eventually(
      async () => {
        const c = await connect(poor.secret, "/mcp/paid-tools");
        return (await c.client.listTools()).tools.length ? c : undefined;
      },
      15_000,
      "the priced server visible",
    );
    const before = upstreamCalls().length;
    // HTTP 402 with the gateway's error object, as on every route (the SDK's error carries the status as its code).
    await expect(refused.client.callTool({ name: "echo", arguments: { text: "cannot pay" } })).rejects.toMatchObject({ code: 402, message: expect.stringContaining('"code":"insufficient_credits"') });
    expect(upstreamCalls().length).toBe(before);
    await refused.client.close();

    for (const id of ids) {
      const record = await eventually(
        async () => {
          const r = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${payer.secret}` } });
          return r.status === 200 ? ((await r.json()) as Record<string, unknown>) : undefined;
        },
        15_000,
        "the call's usage record",
      );
      expect(record).toMatchObject({ route: "mcp", model: "paid-tools/echo", status: 200, cost_credits_minor: 300_000 });
      expect((record.line_items as Array<Record<string, unknown>>)[0]).toMatchObject({
        item: "tool_call",
        quantity: 1,
        unit_price_minor: 300_000,
        per: "call",
        attributes: { server: "paid-tools", tool: "echo", outcome: "ok", arguments_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      });
    }
    const credits = await stack.ledgerClient.GetCredits({ org_id: payer.orgId });
    expect(credits).toMatchObject({ balance_minor: 4_100_000, spent_minor: 900_000 });
    expect((await stack.ledgerClient.GetCredits({ org_id: poor.orgId })).spent_minor).toBe(0);
  });

  it("limits a key's tool calls per minute (429)", async () => {
    const limited = await createOrg(stack, { balanceMinor: 1_000, rpm: 2 });
    await stack.admin.EnableMcpServers({ org: limited.orgId, servers: ["demo-tools"] });
    const { client } = await eventually(
      async () => {
        const c = await connect(limited.secret);
        return (await c.client.listTools()).tools.length ? c : undefined;
      },
      15_000,
      "the server visible",
    );
    // Each answer carries the key's rate-limit state, as model routes' answers do.
    const first = await fetch(stack.baseUrl().replace(/\/v1$/, "/mcp"), {
      method: "POST",
      headers: { authorization: `Bearer ${limited.secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "demo-tools__echo", arguments: { text: "1" } } }),
    });
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit-requests")).toBe("2");
    expect(first.headers.get("x-ratelimit-remaining-requests")).toBe("1");
    await client.callTool({ name: "demo-tools__echo", arguments: { text: "2" } });
    await expect(client.callTool({ name: "demo-tools__echo", arguments: { text: "3" } })).rejects.toMatchObject({ code: 429, message: expect.stringContaining('"code":"rate_limit_exceeded"') });
    await client.close();
  });

  it("a batch refused part-way (the key's rate limit) still answers the calls it made and billed; the refused one gets the refusal as its JSON-RPC error", async () => {
    await stack.applyCatalog({ mcp_servers: [{ name: "paid-tools", url: `${stack.fake.url}/mcp`, credential_ref: "FAKE_UPSTREAM_API_KEY", tools: [{ name: "echo", price_minor: 300_000 }] }] });
    const limited = await createOrg(stack, { balanceMinor: 5_000_000, rpm: 2 });
    await stack.admin.EnableMcpServers({ org: limited.orgId, servers: ["paid-tools"] });
    await eventually(
      async () => {
        const c = await connect(limited.secret, "/mcp/paid-tools");
        const n = (await c.client.listTools()).tools.length;
        await c.client.close();
        return n ? true : undefined;
      },
      15_000,
      "the priced server visible",
    );
    const before = upstreamCalls().length;
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text: `batch ${id}` } } });
    const r = await fetch(stack.baseUrl().replace(/\/v1$/, "/mcp/paid-tools"), {
      method: "POST",
      headers: { authorization: `Bearer ${limited.secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify([call(1), call(2), call(3)]),
    });
    expect(r.status).toBe(200);
    const answers = (await r.json()) as Array<{ id: number; result?: { content: Array<{ text: string }>; _meta: Record<string, unknown> }; error?: { code: number; data: Record<string, unknown> } }>;
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(answers.slice(0, 2).map((a) => a.result?.content[0]?.text)).toEqual(["batch 1", "batch 2"]);
    expect(answers.slice(0, 2).map((a) => a.result?._meta["gateway/cost_minor"])).toEqual([300_000, 300_000]);
    expect(answers[2]!.error).toMatchObject({ code: -32010, data: { code: "rate_limit_exceeded" } });
    expect(upstreamCalls().length).toBe(before + 2);
    // Billed exactly the two answered calls.
    await eventually(async () => ((await stack.ledgerClient.GetCredits({ org_id: limited.orgId })).spent_minor === 600_000 ? true : undefined), 15_000, "two calls billed");
  });

  it("a caller that leaves during a priced call: the call runs to its answer and is billed (record 499); the batch's later calls are not made", async () => {
    await stack.applyCatalog({
      mcp_servers: [
        {
          name: "paid-tools",
          url: `${stack.fake.url}/mcp`,
          credential_ref: "FAKE_UPSTREAM_API_KEY",
          tools: [
            { name: "echo", price_minor: 300_000 },
            { name: "slow_echo", price_minor: 500_000 },
          ],
        },
      ],
    });
    const leaver = await createOrg(stack, { balanceMinor: 5_000_000 });
    await stack.admin.EnableMcpServers({ org: leaver.orgId, servers: ["paid-tools"] });
    await eventually(
      async () => {
        const c = await connect(leaver.secret, "/mcp/paid-tools");
        const names = (await c.client.listTools()).tools.map((t) => t.name);
        await c.client.close();
        return names.includes("slow_echo") ? true : undefined;
      },
      15_000,
      "the priced slow tool visible",
    );
    const before = upstreamCalls().length;
    const left = new AbortController();
    const sent = fetch(stack.baseUrl().replace(/\/v1$/, "/mcp/paid-tools"), {
      method: "POST",
      headers: { authorization: `Bearer ${leaver.secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow_echo", arguments: { text: "sent anyway", delay_ms: 1_000 } } },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "never called" } } },
      ]),
      signal: left.signal,
    }).catch(() => undefined);
    await eventually(async () => (upstreamCalls().length > before ? true : undefined), 5_000, "the slow call made");
    left.abort();
    await sent;
    const records = await recordsOf(leaver.orgId, "the slow call's record");
    expect(records.map((r) => ({ model: r.model, status: r.status, cost: r.cost_minor }))).toEqual([{ model: "paid-tools/slow_echo", status: 499, cost: 500_000 }]);
    expect(
      upstreamCalls()
        .slice(before)
        .map((c) => (c.body as { params: { name: string } }).params.name),
    ).toEqual(["slow_echo"]);
    expect((await stack.ledgerClient.GetCredits({ org_id: leaver.orgId })).spent_minor).toBe(500_000);
  });

  it("keeps each organization's upstream session apart: on a stateful server one organization never reads what another stored", async () => {
    const tenantA = await createOrg(stack, { balanceMinor: 1_000_000 });
    const tenantB = await createOrg(stack, { balanceMinor: 1_000_000 });
    await stack.applyCatalog({
      mcp_servers: [
        {
          name: "memory",
          url: `${stack.fake.url}/mcp-stateful`,
          credential_ref: "FAKE_UPSTREAM_API_KEY",
          identity_header: "x-gateway-org",
          org_credential_refs: { [tenantB.orgId]: "TENANT_B_MCP" },
          tools: [{ name: "remember" }, { name: "recall" }],
        },
      ],
    });
    for (const t of [tenantA, tenantB]) await stack.admin.EnableMcpServers({ org: t.orgId, servers: ["memory"] });
    const clientOf = (secret: string) =>
      eventually(
        async () => {
          const c = await connect(secret, "/mcp/memory");
          if ((await c.client.listTools()).tools.length === 2) return c.client;
          await c.client.close();
          return undefined;
        },
        15_000,
        "the stateful server's tools",
      );
    const a = await clientOf(tenantA.secret);
    const b = await clientOf(tenantB.secret);
    expect(text(await a.callTool({ name: "remember", arguments: { note: "org A's launch date" } }))).toBe("remembered 1");
    // The other organization's session holds nothing of it, on either replica.
    expect(JSON.parse(text(await b.callTool({ name: "recall", arguments: {} })))).toEqual([]);
    const b2 = (await connect(tenantB.secret, "/mcp/memory", 1)).client;
    expect(JSON.parse(text(await b2.callTool({ name: "recall", arguments: {} })))).toEqual([]);
    expect(JSON.parse(text(await a.callTool({ name: "recall", arguments: {} })))).toEqual(["org A's launch date"]);
    // Each organization's session carried its own identity and the credential the catalog gives it.
    const sent = stack.fake.requests.filter((r) => r.path === "/mcp-stateful" && (r.body as { method?: string } | undefined)?.method === "tools/call");
    const byOrg = new Map(sent.map((r) => [r.headers["x-gateway-org"], r.headers.authorization]));
    expect(byOrg.get(tenantA.orgId)).toMatch(/^Bearer /);
    expect(byOrg.get(tenantB.orgId)).toBe("Bearer tenant-b-secret");
    expect(new Set(sent.map((r) => r.headers["mcp-session-id"])).size).toBeGreaterThanOrEqual(3);
    for (const c of [a, b, b2]) await c.close();
  });

  it("sent means billed: a priced call the server got but did not answer in time is billed its price; one that never reached a server costs nothing", async () => {
    await stack.applyCatalog({
      mcp_servers: [
        { name: "paid-tools", url: `${stack.fake.url}/mcp`, credential_ref: "FAKE_UPSTREAM_API_KEY", tools: [{ name: "slow_echo", price_minor: 500_000 }] },
        { name: "paid-gone", url: "http://127.0.0.1:9/mcp", tools: [{ name: "echo", price_minor: 700_000 }] },
      ],
    });
    const payer = await createOrg(stack, { balanceMinor: 5_000_000 });
    await stack.admin.EnableMcpServers({ org: payer.orgId, servers: ["paid-tools", "paid-gone"] });
    const client = await eventually(
      async () => {
        const c = await connect(payer.secret, "/mcp/paid-tools");
        const names = (await c.client.listTools()).tools.map((t) => t.name);
        if (names.includes("slow_echo")) return c.client;
        await c.client.close();
        return undefined;
      },
      15_000,
      "the priced slow tool visible",
    );
    const before = upstreamCalls().length;
    // The server gets the call and would answer after 5 s; the gateway's deadline (1.5 s) ends it first.
    await expect(client.callTool({ name: "slow_echo", arguments: { text: "acted anyway", delay_ms: 5_000 } })).rejects.toMatchObject({
      code: -32010,
      data: { code: "upstream_timeout", request_id: expect.any(String) },
    });
    expect(upstreamCalls().length).toBe(before + 1);
    await client.close();
    // A server that cannot be reached: nothing was sent, nothing is due.
    const gone = await connect(payer.secret, "/mcp/paid-gone");
    await expect(gone.client.callTool({ name: "echo", arguments: { text: "anyone?" } })).rejects.toThrow(/unreachable/);
    await gone.client.close();
    const records = await recordsOf(payer.orgId, "the timed-out call's record");
    const outcome = (r: { line_items_json: string }) => (JSON.parse(r.line_items_json) as Array<{ attributes: { outcome: string } }>)[0]?.attributes.outcome;
    // The unreachable server's call was refused before anything was held or sent: no record, nothing billed.
    expect(records.map((r) => ({ model: r.model, status: r.status, cost: r.cost_minor, outcome: outcome(r) }))).toEqual([
      { model: "paid-tools/slow_echo", status: 504, cost: 500_000, outcome: "timeout" },
    ]);
    expect((await stack.ledgerClient.GetCredits({ org_id: payer.orgId })).spent_minor).toBe(500_000);
  });

  it("answers upstream failures as JSON-RPC errors within the deadline: a tool error, a slow tool, a result too large", async () => {
    const { client } = await connect(org.secret);
    const failed = await client.callTool({ name: "demo-tools__fail", arguments: { reason: "disk full" } });
    expect(failed).toMatchObject({ isError: true });
    expect(text(failed)).toContain("disk full");
    // The gateway's deadline answered, not the tool (it would have answered "late" after 5 s).
    await expect(client.callTool({ name: "demo-tools__slow_echo", arguments: { text: "late", delay_ms: 5_000 } })).rejects.toThrow(/did not answer within 1500 ms/);
    await expect(client.callTool({ name: "demo-tools__big", arguments: { bytes: 200_000 } })).rejects.toThrow(/more than the gateway relays \(100000\)/);
    // The gateway's connection to the upstream recovers after the timeout.
    expect(text(await client.callTool({ name: "demo-tools__echo", arguments: { text: "still here" } }))).toBe("still here");
    await client.close();
  });

  it("pins each tool's definition: a changed one is held — callers keep the approved definition, calls are refused — until an operator approves it", async () => {
    const { client } = await connect(org.secret);
    const shifty = async () => (await client.listTools()).tools.find((t) => t.name === "demo-tools__shifty");
    expect((await shifty())?.description).toBe("Adds two numbers.");
    // The first definition seen is pinned (trust on first use).
    await eventually(async () => ((await stack.admin.ListMcpToolPins({ server: "demo-tools" })).pins.some((p) => p.tool === "shifty") ? true : undefined), 15_000, "pinned");
    expect(text(await client.callTool({ name: "demo-tools__shifty", arguments: { a: 2, b: 3 } }))).toBe("5");

    // The upstream now describes the tool otherwise (a prompt injection, say).
    await fetch(`${stack.fake.url}/_fake/mcp/shift`, { method: "POST" });
    // Within the tool list's lifetime (200 ms here) the gateway learns of the change.
    await eventually(
      async () => {
        const err = await client.callTool({ name: "demo-tools__shifty", arguments: { a: 1, b: 1 } }).catch((e: unknown) => e);
        return err instanceof Error && err.message.includes("waits for an operator's approval") ? true : undefined;
      },
      15_000,
      "the changed tool refused",
    );
    const before = upstreamCalls().length;
    await expect(client.callTool({ name: "demo-tools__shifty", arguments: { a: 1, b: 2 } })).rejects.toMatchObject({ code: -32010, data: { code: "tool_definition_changed" } });
    expect(upstreamCalls().length).toBe(before);
    expect((await shifty())?.description).toBe("Adds two numbers.");
    const pending = await eventually(
      async () => (await stack.admin.ListMcpToolPins({ server: "demo-tools" })).pins.find((p) => (p.tool === "shifty" && p.pending_digest !== "" ? p : undefined)),
      15_000,
      "the change pending",
    );
    expect(JSON.parse(pending.pending_definition_json).description).toContain("IGNORE PREVIOUS INSTRUCTIONS");
    // Counted by the replica that met the change (the one serving this client).
    const metrics = await (await fetch(stack.baseUrl(0).replace(/\/v1$/, "/metrics"))).text();
    expect(metrics).toMatch(/gateway_mcp_tool_definition_changed_total\{server="demo-tools",tool="shifty"[^}]*\} 1\b/);

    // An operator reads it and approves it: the new definition is served and calls resume.
    await stack.admin.ApproveMcpTool({ server: "demo-tools", tool: "shifty" });
    await eventually(async () => ((await shifty())?.description?.startsWith("IGNORE") ? true : undefined), 15_000, "the approved definition served");
    expect(text(await client.callTool({ name: "demo-tools__shifty", arguments: { a: 20, b: 22 } }))).toBe("42");
    await client.close();
  });

  it("answers an upstream that is down as a JSON-RPC error, and lists the other servers' tools", async () => {
    await stack.applyCatalog({ mcp_servers: [{ name: "gone-tools", url: "http://127.0.0.1:9/mcp", tools: [{ name: "echo" }] }] });
    await stack.admin.EnableMcpServers({ org: org.orgId, servers: ["gone-tools"] });
    const { client } = await eventually(
      async () => {
        const c = await connect(org.secret);
        // The organization's key context now names both servers.
        const r = await c.client.callTool({ name: "gone-tools__echo", arguments: { text: "anyone?" } }).catch((e: unknown) => e);
        return r instanceof Error && r.message.includes("unreachable") ? c : undefined;
      },
      15_000,
      "the outage answered",
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("demo-tools__echo");
    const single = await connect(org.secret, "/mcp/gone-tools");
    await expect(single.client.listTools()).rejects.toThrow(/unreachable/);
    await single.client.close();
    // A server at an internal address is never reached, as media URLs (only loopback, by the development switch).
    await stack.applyCatalog({ mcp_servers: [{ name: "internal-tools", url: "https://10.1.2.3/mcp", tools: [{ name: "echo" }] }] });
    await stack.admin.EnableMcpServers({ org: org.orgId, servers: ["internal-tools"] });
    await eventually(
      async () => {
        const r = await client.callTool({ name: "internal-tools__echo", arguments: { text: "x" } }).catch((e: unknown) => e);
        return r instanceof Error && r.message.includes("its URL is not allowed") && r.message.includes("not an IP address") ? true : undefined;
      },
      15_000,
      "the internal address refused",
    );
    await client.close();
  });
});
