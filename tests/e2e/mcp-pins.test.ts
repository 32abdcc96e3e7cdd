import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { mcpToolDefinition } from "@gateway/proto";
import { eventually } from "@gateway/testing";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * Pins over everything relayed (docs/mcp.md, "Pinned definitions"), through the official MCP SDK
 * client: the fake upstream's `pin_*` tools on a server of their own (`pin-tools`). What callers
 * are shown of a tool is the pinned object itself, `_meta` included; a definition over 64 KiB is
 * never served; a tool new since the server's first listing — a rename, a removal followed by
 * another tool — is neither listed nor called until an operator approves it (`gatewayctl mcp
 * approve` or the admin API); an upstream's `notifications/tools/list_changed` makes the gateway
 * read the list again at once.
 */
const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
let stack: Stack;
let org: TestOrg;

const SERVER = "pin-tools";
const TOOLS = ["pin_meta", "pin_old", "pin_new", "pin_gone", "pin_added", "pin_huge", "pin_notify"];

beforeAll(async () => {
  stack = await startStack("mcp_pins", { dataPlaneEnv: { DATA_PLANE_MCP_TOOLS_TTL_MS: "200" } });
  await fakePins({ huge: true });
  await stack.applyCatalog({ mcp_servers: [{ name: SERVER, url: `${stack.fake.url}/mcp`, credential_ref: "FAKE_UPSTREAM_API_KEY", tools: TOOLS.map((name) => ({ name })) }] });
  org = await createOrg(stack, { balanceMinor: 1_000_000 });
  await stack.admin.EnableMcpServers({ org: org.orgId, servers: [SERVER] });
});

afterAll(async () => {
  await stack?.stop();
});

/** What the fake upstream's `pin_*` tools serve from now on (packages/fake-upstream/src/mcp.ts). */
async function fakePins(pins: { meta?: string; renamed?: boolean; replaced?: boolean; huge?: boolean }): Promise<void> {
  const r = await fetch(`${stack.fake.url}/_fake/mcp/pins`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(pins) });
  expect(r.status).toBe(200);
}

async function connect(replica = 0): Promise<Client> {
  const client = new Client({ name: "pins-test", version: "1.0.0" });
  const url = new URL(stack.baseUrl(replica).replace(/\/v1$/, "/mcp"));
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${org.secret}` } } }));
  return client;
}

async function ctl(...args: string[]): Promise<string> {
  const env = {
    ...process.env,
    GATEWAY_ADMIN_TOKEN: stack.adminToken,
    GATEWAY_CONTROL_PLANE_ADDR: `127.0.0.1:${stack.control.grpcPort}`,
    GATEWAY_LEDGER_ADDR: `127.0.0.1:${stack.ledger().grpcPort}`,
  };
  return (await run(join(root, "bin/gatewayctl"), args, { env })).stdout;
}

const listed = async (client: Client) => (await client.listTools()).tools.filter((t) => t.name.startsWith(`${SERVER}__`));
const names = async (client: Client) => (await listed(client)).map((t) => t.name.slice(SERVER.length + 2)).sort();
const tool = async (client: Client, name: string) => (await listed(client)).find((t) => t.name === `${SERVER}__${name}`);
const call = (client: Client, name: string) => client.callTool({ name: `${SERVER}__${name}`, arguments: {} });
const text = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0]?.text;
/** The calls of `name` the upstream received. */
const sentUpstream = (name: string) => stack.fake.requests.filter((r) => r.path === "/mcp" && (r.body as { method?: string; params?: { name?: string } } | undefined)?.params?.name === name).length;
const pins = async () => (await stack.admin.ListMcpToolPins({ server: SERVER })).pins;
const pin = async (name: string) => (await pins()).find((p) => p.tool === name);
/** The refusal of a call of `name`, once it is refused with `code`. */
const refused = (client: Client, name: string, code: string) =>
  eventually(
    async () => {
      const err = await call(client, name).then(
        () => undefined,
        (e: unknown) => e,
      );
      return (err as { data?: { code?: string } } | undefined)?.data?.code === code ? err : undefined;
    },
    15_000,
    `${name} refused with ${code}`,
  );
const metric = async (name: string) => (await (await fetch(stack.baseUrl(0).replace(/\/v1$/, "/metrics"))).text()).split("\n").filter((l) => l.startsWith(name));

describe("pinned MCP tool definitions", () => {
  it("pins the server's tools at its first use, relays exactly the pinned objects, and never serves a definition over 64 KiB", async () => {
    const client = await eventually(() => connect(), 15_000, "connected");
    expect(await names(client)).toEqual(["pin_gone", "pin_meta", "pin_notify", "pin_old"]);
    // The first listing is pinned in one report (trust on first use, once per server); the 70 KB definition is not.
    await eventually(async () => ((await pins()).length === 4 ? true : undefined), 15_000, "pinned");
    expect((await pins()).map((p) => [p.tool, p.approved_by, p.pending_digest])).toEqual([
      ["pin_gone", "first use", ""],
      ["pin_meta", "first use", ""],
      ["pin_notify", "first use", ""],
      ["pin_old", "first use", ""],
    ]);
    // What a caller is shown is the pinned object, field for field, `_meta` included.
    const meta = await tool(client, "pin_meta");
    expect(meta?._meta).toEqual({ "example.com/hint": "v1" });
    const { name: _name, ...shown } = meta!;
    expect(shown).toEqual(JSON.parse((await pin("pin_meta"))!.definition_json));
    expect(text(await call(client, "pin_meta"))).toBe("sunny");

    // The oversize tool: not listed, its calls refused with a precise error, nothing sent, counted.
    const err = await refused(client, "pin_huge", "tool_definition_too_large");
    expect(err).toMatchObject({ code: -32010, message: expect.stringContaining("larger than the gateway serves (65536 bytes of JSON)") });
    expect(sentUpstream("pin_huge")).toBe(0);
    expect(await metric("gateway_mcp_tool_definition_too_large_total")).toEqual([expect.stringMatching(/\{server="pin-tools",tool="pin_huge"[^}]*\} 1$/)]);
    await client.close();
  });

  it("holds a changed _meta: callers keep the pinned one, calls are refused until an operator approves the definition they read", async () => {
    const client = await connect();
    await fakePins({ meta: "v2" });
    await refused(client, "pin_meta", "tool_definition_changed");
    const before = sentUpstream("pin_meta");
    await expect(call(client, "pin_meta")).rejects.toMatchObject({ code: -32010, data: { code: "tool_definition_changed" } });
    expect(sentUpstream("pin_meta")).toBe(before);
    expect((await tool(client, "pin_meta"))?._meta).toEqual({ "example.com/hint": "v1" });
    const pending = await eventually(async () => ((await pin("pin_meta"))?.pending_digest ? pin("pin_meta") : undefined), 15_000, "the change pending");
    expect(JSON.parse(pending!.pending_definition_json)._meta).toEqual({ "example.com/hint": "v2" });

    // An approval names the definition the operator read: not another one.
    await expect(stack.admin.ApproveMcpTool({ server: SERVER, tool: "pin_meta", digest: "0123456789ab" })).rejects.toMatchObject({ code: "not_found" });
    await stack.admin.ApproveMcpTool({ server: SERVER, tool: "pin_meta", digest: pending!.pending_digest.slice(0, 12) });
    await eventually(async () => ((await tool(client, "pin_meta"))?._meta?.["example.com/hint"] === "v2" ? true : undefined), 15_000, "the approved _meta served");
    expect(text(await call(client, "pin_meta"))).toBe("sunny");
    await client.close();
  });

  it("holds a renamed tool as a new one: not listed, calls refused, until approved with gatewayctl mcp approve", async () => {
    const client = await connect();
    await fakePins({ renamed: true });
    // Within the tool list's lifetime the old name is gone, and the new one is not listed.
    await eventually(async () => ((await names(client)).includes("pin_old") ? undefined : true), 15_000, "the rename seen");
    expect(await names(client)).toEqual(["pin_gone", "pin_meta", "pin_notify"]);
    const err = await refused(client, "pin_new", "tool_definition_unapproved");
    expect(err).toMatchObject({ code: -32010, message: expect.stringContaining("waits for an operator's approval") });
    expect(sentUpstream("pin_new")).toBe(0);
    await eventually(async () => ((await pin("pin_new"))?.pending_digest ? true : undefined), 15_000, "the new tool pending");

    // The operator's view: a NEW tool with no approved definition, its definition in full, then approved.
    const table = await ctl("mcp", "pins", SERVER);
    expect(table).toMatch(/pin-tools\tpin_new\t\(none approved\)\tNEW: [0-9a-f]{12} pending since /);
    const detail = await ctl("mcp", "pins", SERVER, "pin_new");
    expect(detail).toContain('"description": "Reads a file."');
    const digest = /NEW: ([0-9a-f]{12})/.exec(table)![1]!;
    expect(await ctl("mcp", "approve", SERVER, "pin_new", digest)).toContain(`${SERVER} pin_new: definition ${digest} approved`);

    await eventually(async () => ((await names(client)).includes("pin_new") ? true : undefined), 15_000, "the approved tool listed");
    expect((await tool(client, "pin_new"))?.description).toBe("Reads a file.");
    expect(text(await call(client, "pin_new"))).toBe("read");
    expect(await metric("gateway_mcp_tool_definition_changed_total")).toContainEqual(expect.stringMatching(/\{server="pin-tools",tool="pin_new"[^}]*\} 1$/));
    await client.close();
  });

  it("holds a tool that appears after another was removed until approved", async () => {
    const client = await connect();
    await fakePins({ replaced: true });
    await eventually(async () => ((await names(client)).includes("pin_gone") ? undefined : true), 15_000, "the removal seen");
    expect(await names(client)).toEqual(["pin_meta", "pin_new", "pin_notify"]);
    await refused(client, "pin_added", "tool_definition_unapproved");
    expect(sentUpstream("pin_added")).toBe(0);
    const pending = await eventually(async () => ((await pin("pin_added"))?.pending_digest ? pin("pin_added") : undefined), 15_000, "the new tool pending");
    expect(pending).toMatchObject({ digest: "", definition_json: "", approved_by: "" });
    expect(JSON.parse(pending!.pending_definition_json).description).toBe("Sends every file to the address given.");

    await stack.admin.ApproveMcpTool({ server: SERVER, tool: "pin_added", digest: "" });
    await eventually(async () => ((await names(client)).includes("pin_added") ? true : undefined), 15_000, "the approved tool listed");
    expect(text(await call(client, "pin_added"))).toBe("sent");
    await client.close();
  });

  it("pins on first use a tool the server listed at its first use when the catalog offers it later (not a new tool)", async () => {
    // `echo` was in the server's first listing (its baseline), not offered then.
    await stack.applyCatalog({
      mcp_servers: [{ name: SERVER, url: `${stack.fake.url}/mcp`, credential_ref: "FAKE_UPSTREAM_API_KEY", tools: [...TOOLS, "echo"].map((name) => ({ name })) }],
    });
    const client = await connect();
    await eventually(async () => ((await names(client)).includes("echo") ? true : undefined), 15_000, "echo listed");
    expect(text(await client.callTool({ name: `${SERVER}__echo`, arguments: { text: "baseline" } }))).toBe("baseline");
    await eventually(async () => ((await pin("echo"))?.approved_by === "first use" ? true : undefined), 15_000, "echo pinned on first use");
    await client.close();
  });

  it("upgrading: a pin of five fields is re-pinned with every field when only other fields were added; one whose five fields changed is held", async () => {
    // The definitions the fake upstream serves (the official SDK adds `execution` to each), and pins of five fields as before.
    const direct = new Client({ name: "pins-test", version: "1.0.0" });
    await direct.connect(new StreamableHTTPClientTransport(new URL(`${stack.fake.url}/mcp`), { requestInit: { headers: { authorization: "Bearer fake-upstream-local-key" } } }));
    const served = Object.fromEntries((await direct.listTools()).tools.map(({ name, ...d }) => [name, d as Record<string, unknown>]));
    await direct.close();
    expect(served.echo?.execution).toBeDefined();
    const fiveFields = (d: Record<string, unknown>) =>
      mcpToolDefinition({ title: d.title, description: d.description, inputSchema: d.inputSchema, outputSchema: d.outputSchema, annotations: d.annotations });
    const legacy = { name: "legacy-tools", url: `${stack.fake.url}/mcp`, credential_ref: "FAKE_UPSTREAM_API_KEY", tools: [{ name: "echo" }, { name: "shifty" }] };
    await stack.applyCatalog({ mcp_servers: [legacy] });
    const db = stack.control.ctx.db;
    for (const [tool, def] of [
      ["echo", fiveFields(served.echo!)],
      ["shifty", fiveFields({ ...served.shifty!, description: "Adds two numbers, as it once said." })],
    ] as const) {
      await sql`INSERT INTO mcp_tool_pins (server, tool, definition, digest, approved_at, approved_by, five_fields_until)
        VALUES ('legacy-tools', ${tool}, ${def.json}::jsonb, ${def.digest}, now(), 'first use', now() + interval '14 days')`.execute(db);
    }
    await sql`INSERT INTO mcp_server_baselines (server, tools) VALUES ('legacy-tools', ARRAY['echo', 'shifty'])`.execute(db);
    await stack.applyCatalog({ mcp_servers: [legacy] });
    await stack.admin.EnableMcpServers({ org: org.orgId, servers: ["legacy-tools"] });

    const client = await connect();
    const echoed = await eventually(() => client.callTool({ name: "legacy-tools__echo", arguments: { text: "upgraded" } }).catch(() => undefined), 15_000, "echo re-pinned with every field");
    expect(text(echoed)).toBe("upgraded");
    const pins = (await stack.admin.ListMcpToolPins({ server: "legacy-tools" })).pins;
    expect(pins.find((p) => p.tool === "echo")).toMatchObject({ approved_by: "upgrade", pending_digest: "" });
    expect(JSON.parse(pins.find((p) => p.tool === "echo")!.definition_json)).toEqual(served.echo);
    // Its pinned description is not the one served: a change, held as any.
    await expect(client.callTool({ name: "legacy-tools__shifty", arguments: { a: 1, b: 2 } })).rejects.toMatchObject({ code: -32010, data: { code: "tool_definition_changed" } });
    await eventually(
      async () => ((await stack.admin.ListMcpToolPins({ server: "legacy-tools" })).pins.find((p) => p.tool === "shifty")?.pending_digest ? true : undefined),
      15_000,
      "shifty's change pending",
    );
    await client.close();
  });

  it("reads an upstream's tool list again as soon as an answer says it changed (notifications/tools/list_changed)", async () => {
    // A replica that keeps tool lists ten minutes: only the notification makes it read the list again.
    await stack.addDataPlane({ DATA_PLANE_MCP_TOOLS_TTL_MS: "600000" });
    const client = await eventually(() => connect(1), 15_000, "connected to the second replica");
    expect(text(await call(client, "pin_meta"))).toBe("sunny");
    // The upstream changes the definition without a word: the replica's list is still the one it read.
    await fakePins({ meta: "v3" });
    expect(text(await call(client, "pin_meta"))).toBe("sunny");
    // An answer that carries list_changed: the very next call checks the new list, and is refused.
    expect(text(await call(client, "pin_notify"))).toBe("notified");
    await expect(call(client, "pin_meta")).rejects.toMatchObject({ code: -32010, data: { code: "tool_definition_changed" } });
    await client.close();
  });
});
