import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTROL_CHANGED_SUBJECT, ControlChangedV1, LEDGER_BALANCE_SUBJECT, decodeEvent, encodeEvent } from "@gateway/events";
import { adminService, createClient, healthService, type AdminServiceMethods, type ControlServiceMethods, type TypedClient } from "@gateway/proto";
import { eventually, type NatsHandle } from "@gateway/testing";
import { sql } from "@gateway/db";
import type { ControlPlane } from "../src/index.js";
import { startTestControlPlane } from "./support.js";

const TOKEN = "control-plane-test-token";
const DATA_PLANE_TOKEN = "control-plane-test-data-plane-token";
const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const run = promisify(execFile);

let nats: NatsHandle;
let stop: () => Promise<void>;
let cp: ControlPlane;
let admin: TypedClient<AdminServiceMethods>;
let control: TypedClient<ControlServiceMethods>;
let nc: NatsConnection;
const changes: ControlChangedV1[] = [];

const catalog = {
  providers: [{ code: "p1", kind: "openai-compatible", base_url: "http://127.0.0.1:1/v1", credential_ref: "P1_KEY" }],
  models: [
    {
      id: "m-chat",
      routes: ["chat", "messages"],
      context_window: 8000,
      max_output_tokens: 1000,
      input_price_minor_per_mtok: 10,
      output_price_minor_per_mtok: 20,
      deployments: [{ provider: "p1", upstream_model: "up-chat" }],
    },
    { id: "m-draft", status: "draft", routes: ["chat"], context_window: 8000, max_output_tokens: 1000, input_price_minor_per_mtok: 10, output_price_minor_per_mtok: 20 },
  ],
};

beforeAll(async () => {
  ({ cp, admin, control, nats, stop } = await startTestControlPlane("cp_service", TOKEN, DATA_PLANE_TOKEN));
  nc = await connect({ servers: nats.url });
  nc.subscribe(CONTROL_CHANGED_SUBJECT, {
    callback: (_e, m) => {
      const ev = decodeEvent(ControlChangedV1, m.data);
      if (ev) changes.push(ev);
    },
  });
  await admin.ApplyCatalog({ document_json: JSON.stringify(catalog) });
});

afterAll(async () => {
  await nc?.close();
  await stop?.();
});

describe("health", () => {
  it("answers the standard gRPC health check and the ops endpoints", async () => {
    const health = createClient(healthService(), `127.0.0.1:${cp.grpcPort}`, { timeoutMs: 5_000 });
    expect(await health.Check({ service: "" })).toEqual({ status: "SERVING" });
    expect(await health.Check({ service: "gateway.control.v1.ControlService" })).toEqual({ status: "SERVING" });
    await expect(health.Check({ service: "nope" })).rejects.toMatchObject({ code: "not_found" });
    health.close();
    expect((await fetch(`http://127.0.0.1:${cp.opsPort}/readyz`)).status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${cp.opsPort}/metrics`)).text();
    expect(metrics).toContain("process_cpu_seconds_total");
  });
});

describe("admin API", () => {
  it("refuses calls without the admin token or with a wrong one", async () => {
    const addr = `127.0.0.1:${cp.grpcPort}`;
    const none = createClient(adminService(), addr, { timeoutMs: 5_000 });
    const wrong = createClient(adminService(), addr, { timeoutMs: 5_000, metadata: { authorization: "Bearer not-the-token-at-all" } });
    await expect(none.ListOrgs({})).rejects.toMatchObject({ code: "unauthenticated_caller" });
    await expect(wrong.CreateOrg({ name: "x" })).rejects.toMatchObject({ code: "unauthenticated_caller" });
    none.close();
    wrong.close();
  });

  it("creates organizations with unique names, in trial", async () => {
    const org = await admin.CreateOrg({ name: "acme" });
    expect(org.id).toMatch(/^org_/);
    expect(org.in_trial).toBe(true);
    await expect(admin.CreateOrg({ name: "acme" })).rejects.toMatchObject({ code: "already_exists" });
    await expect(admin.CreateOrg({ name: "" })).rejects.toMatchObject({ code: "invalid_request" });
  });
});

describe("keys", () => {
  it("returns the secret once and stores only its hash", async () => {
    const org = await admin.CreateOrg({ name: "keys-org" });
    await admin.EnableModels({ org: "keys-org", models: ["m-chat"] });
    const created = await admin.CreateKey({ org: org.id, routes: ["chat"], models: ["m-chat"], name: "ci" });
    expect(created.secret).toMatch(/^sk-gateway-[A-Za-z0-9_-]{43}$/);
    expect(created.key!.prefix).toBe(created.secret.slice(0, 15));
    const rows = await sql<Record<string, unknown>>`SELECT * FROM api_keys WHERE id = ${created.key!.id}`.execute(cp.db);
    const row = rows.rows[0]!;
    expect(
      Object.values(row)
        .map(String)
        .some((v) => v.includes(created.secret)),
    ).toBe(false);
    expect(row.key_hash).toBe(sha(created.secret));

    const auth = await control.AuthenticateKey({ key_hash: sha(created.secret) });
    expect(auth.found).toBe(true);
    expect(auth.key).toMatchObject({
      key_id: created.key!.id,
      org_id: org.id,
      org_name: "keys-org",
      revoked: false,
      routes: ["chat"],
      model_allowlist: ["m-chat"],
      org_enabled_models: ["m-chat"],
      org_in_trial: true,
    });
    expect((await control.AuthenticateKey({ key_hash: sha("sk-gateway-unknown") })).found).toBe(false);
    await expect(admin.CreateKey({ org: org.id, routes: ["teleport"], models: [], name: "" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(admin.CreateKey({ org: "no-such-org", routes: [], models: [], name: "" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("revocation is visible at once and announced with the key hash", async () => {
    const org = await admin.CreateOrg({ name: "revoke-org" });
    const created = await admin.CreateKey({ org: org.id, routes: [], models: [], name: "" });
    await admin.RevokeKey({ key_id: created.key!.id });
    expect((await control.AuthenticateKey({ key_hash: sha(created.secret) })).key?.revoked).toBe(true);
    await eventually(() => changes.find((c) => c.kind === "key" && c.key_hash === sha(created.secret) && c.id === created.key!.id), 15_000, "key change event");
    const listed = await admin.ListKeys({ org: "revoke-org" });
    expect(listed.keys).toHaveLength(1);
    expect(listed.keys[0]!.revoked).toBe(true);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
  });
});

describe("catalog", () => {
  it("versions the catalog and answers not_modified for the current version", async () => {
    const first = await control.GetCatalog({ known_version: 0 });
    expect(first.models.map((m) => m.id)).toEqual(["m-chat", "m-draft"]);
    expect(first.models[0]!.deployments).toEqual([{ provider: "p1", upstream_model: "up-chat", priority: 0, weight: 1 }]);
    expect(first.providers).toEqual([{ code: "p1", kind: "openai-compatible", base_url: "http://127.0.0.1:1/v1", credential_ref: "P1_KEY", auth_header: "", max_connections: 0, http2: false }]);
    expect((await control.GetCatalog({ known_version: first.version })).not_modified).toBe(true);
    const applied = await admin.ApplyCatalog({ document_json: JSON.stringify({ models: [{ ...catalog.models[0], input_price_minor_per_mtok: 11 }] }) });
    expect(applied.version).toBe(first.version + 1);
    await eventually(() => changes.find((c) => c.kind === "catalog" && c.catalog_version === applied.version), 15_000, "catalog change event");
    const second = await control.GetCatalog({ known_version: first.version });
    expect(second.models.find((m) => m.id === "m-chat")!.input_price_minor_per_mtok).toBe(11);
  });

  it("keeps MCP servers with their tools and prices, enabled per organization and carried in the key context", async () => {
    const server = { name: "tools-a", url: "https://mcp.example.com/mcp", credential_ref: "TOOLS_A_KEY", tools: [{ name: "echo", price_minor: 25 }, { name: "search" }] };
    const applied = await admin.ApplyCatalog({ document_json: JSON.stringify({ mcp_servers: [server] }) });
    expect(applied.mcp_servers).toBe(1);
    const snap = await control.GetCatalog({ known_version: 0 });
    expect(snap.mcp_servers).toEqual([
      {
        name: "tools-a",
        url: "https://mcp.example.com/mcp",
        credential_ref: "TOOLS_A_KEY",
        auth_header: "",
        // One upstream session per organization unless the document says otherwise (docs/mcp.md, "Upstream sessions").
        session_scope: "org",
        identity_header: "",
        org_credential_refs: {},
        // No definition pinned before a data-plane has seen one.
        tools: [
          { name: "echo", price_minor: 25, definition_json: "", digest: "", awaiting_approval: false },
          { name: "search", price_minor: 0, definition_json: "", digest: "", awaiting_approval: false },
        ],
      },
    ]);
    // Per-key sessions, an identity header and one organization's own credential, kept as given.
    await admin.ApplyCatalog({
      document_json: JSON.stringify({ mcp_servers: [{ ...server, session: "key", identity_header: "x-gateway-org", org_credential_refs: { org_tenant_b: "TENANT_B_KEY" } }] }),
    });
    expect((await control.GetCatalog({ known_version: 0 })).mcp_servers[0]).toMatchObject({
      session_scope: "key",
      identity_header: "x-gateway-org",
      org_credential_refs: { org_tenant_b: "TENANT_B_KEY" },
    });
    const apply = (s: Record<string, unknown>) => admin.ApplyCatalog({ document_json: JSON.stringify({ mcp_servers: [s] }) });
    await expect(apply({ ...server, url: "http://mcp.example.com/mcp" })).rejects.toThrow(/mcp_servers\[0\]\.url: an https URL/);
    await expect(apply({ ...server, tools: [] })).rejects.toThrow(/mcp_servers\[0\]\.tools: list the tools/);
    await expect(apply({ ...server, session: "user" })).rejects.toThrow(/mcp_servers\[0\]\.session/);
    await expect(apply({ ...server, org_credential_refs: { acme: "K" } })).rejects.toThrow(/mcp_servers\[0\]\.org_credential_refs\.acme/);
    await expect(apply({ ...server, org_credential_refs: { org_x: "LEDGER_ADMIN_TOKEN" } })).rejects.toThrow(/names a service's own setting/);
    await expect(apply({ ...server, tools: [{ name: "echo" }, { name: "echo" }] })).rejects.toThrow(/tool "echo" is listed twice/);
    expect((await apply({ ...server, url: "http://127.0.0.1:9100/mcp" })).mcp_servers).toBe(1);

    const org = await admin.CreateOrg({ name: "mcp-org" });
    await expect(admin.EnableMcpServers({ org: org.id, servers: ["nope"] })).rejects.toMatchObject({ code: "not_found" });
    expect(await admin.EnableMcpServers({ org: org.id, servers: ["tools-a"] })).toEqual({ org_id: org.id, servers: ["tools-a"] });
    const key = await admin.CreateKey({ org: org.id, routes: [], models: [], name: "mcp" });
    const auth = await control.AuthenticateKey({ key_hash: sha(key.secret) });
    expect(auth.key?.org_mcp_servers).toEqual(["tools-a"]);
  });

  it("rejects an invalid document naming the field", async () => {
    const bad = { models: [{ ...catalog.models[0], routes: ["chat", "telepathy"] }] };
    await expect(admin.ApplyCatalog({ document_json: JSON.stringify(bad) })).rejects.toThrow(/models\[0\]\.routes\[1\]: invalid route "telepathy"/);
    const unknownProvider = { models: [{ ...catalog.models[0], deployments: [{ provider: "nope", upstream_model: "x" }] }] };
    await expect(admin.ApplyCatalog({ document_json: JSON.stringify(unknownProvider) })).rejects.toThrow(/models\[0\]\.deployments\[0\]\.provider/);
    await expect(admin.ApplyCatalog({ document_json: JSON.stringify({ models: [{ id: "x", routes: ["chat"], context_window: -1 }] }) })).rejects.toThrow(/models\[0\]\.context_window/);
  });

  it("refuses a chat model that cannot answer and prices that make a billable request free", async () => {
    const chat = catalog.models[0]!;
    const apply = (model: Record<string, unknown>) => admin.ApplyCatalog({ document_json: JSON.stringify({ models: [model] }) });
    await expect(apply({ ...chat, max_output_tokens: 0 })).rejects.toThrow(/models\[0\]\.max_output_tokens: a chat model needs an output limit/);
    await expect(apply({ ...chat, output_price_minor_per_mtok: 0 })).rejects.toThrow(/models\[0\]\.output_price_minor_per_mtok/);
    await expect(apply({ ...chat, input_price_minor_per_mtok: 0 })).rejects.toThrow(/models\[0\]\.input_price_minor_per_mtok/);
    const image = { id: "img", routes: ["images"], context_window: 0, max_output_tokens: 0, input_price_minor_per_mtok: 0, output_price_minor_per_mtok: 0 };
    await expect(apply({ ...image, image_prices: [{ size: "1024x1024", price_minor: 0 }] })).rejects.toThrow(/models\[0\]\.image_prices\[0\]\.price_minor/);
    await expect(apply({ ...image, image_prices: [{ size: "1024x1024", price_minor: 5 }], default_image_size: "512x512" })).rejects.toThrow(/models\[0\]\.default_image_size/);
    await apply({ ...image, image_prices: [{ size: "1024x1024", price_minor: 5 }], default_image_size: "1024x1024" });
    const snap = await control.GetCatalog({ known_version: 0 });
    expect(snap.models.find((m) => m.id === "img")).toMatchObject({ default_image_size: "1024x1024", max_input_tokens_per_image: 0, max_input_tokens_per_audio: 0 });
  });

  it("gives a model that declares no max_input_tokens_per_image 0 (it takes no images), and carries the one declared", async () => {
    const chat = { ...catalog.models[0]!, id: "m-vision" };
    const apply = (model: Record<string, unknown>) => admin.ApplyCatalog({ document_json: JSON.stringify({ models: [model] }) });
    const find = async () => (await control.GetCatalog({ known_version: 0 })).models.find((m) => m.id === "m-vision")!;
    await expect(apply({ ...chat, max_input_tokens_per_image: -1 })).rejects.toThrow(/models\[0\]\.max_input_tokens_per_image/);
    await apply(chat);
    expect((await find()).max_input_tokens_per_image).toBe(0);
    await apply({ ...chat, max_input_tokens_per_image: 1_600 });
    expect((await find()).max_input_tokens_per_image).toBe(1_600);
    // Applying the model again without it: back to none.
    await apply(chat);
    expect((await find()).max_input_tokens_per_image).toBe(0);
  });

  it("carries a reasoning model's flag and output rate, leaves them unset when not declared, and refuses a reasoning chat model without a rate", async () => {
    const chat = { ...catalog.models[0]!, id: "m-reasoner" };
    const apply = (model: Record<string, unknown>) => admin.ApplyCatalog({ document_json: JSON.stringify({ models: [model] }) });
    const find = async () => (await control.GetCatalog({ known_version: 0 })).models.find((m) => m.id === "m-reasoner")!;
    await expect(apply({ ...chat, max_output_tokens_per_second: -1 })).rejects.toThrow(/models\[0\]\.max_output_tokens_per_second/);
    await expect(apply({ ...chat, max_output_tokens_per_second: 2.5 })).rejects.toThrow(/models\[0\]\.max_output_tokens_per_second/);
    await expect(apply({ ...chat, reasoning: "yes" })).rejects.toThrow(/models\[0\]\.reasoning/);
    await expect(apply({ ...chat, reasoning: true })).rejects.toThrow(/models\[0\]\.max_output_tokens_per_second: a reasoning model needs max_output_tokens_per_second/);
    await expect(apply({ ...chat, reasoning: true, max_output_tokens_per_second: 0 })).rejects.toThrow(/a reasoning model needs max_output_tokens_per_second/);
    await expect(apply({ ...chat, routes: ["responses"], reasoning: true })).rejects.toThrow(/a reasoning model needs max_output_tokens_per_second/);

    // Both, with no reasoning price (reasoning then billed at the output price): the flag stands alone.
    await apply({ ...chat, reasoning: true, max_output_tokens_per_second: 2_000 });
    const reasoner = await find();
    expect(reasoner).toMatchObject({ reasoning: true, max_output_tokens_per_second: 2_000 });
    expect(reasoner.reasoning_price_minor_per_mtok).toBeUndefined();
    // A rate alone, on a model that is not a reasoning model.
    await apply({ ...chat, max_output_tokens_per_second: 500 });
    expect(await find()).toMatchObject({ reasoning: false, max_output_tokens_per_second: 500 });
    // Applying the model again without them resets them: not a reasoning model, no rate declared
    // (sent absent, read as the proto's defaults).
    await apply(chat);
    const reset = await find();
    expect(reset.reasoning ?? false).toBe(false);
    expect(reset.max_output_tokens_per_second ?? 0).toBe(0);
    const row = await cp.db.selectFrom("models").select(["reasoning", "max_output_tokens_per_second"]).where("id", "=", "m-reasoner").executeTakeFirstOrThrow();
    expect(row).toEqual({ reasoning: false, max_output_tokens_per_second: 0 });
  });

  it("carries a model's media bounds (PDF page, media second, URL part, web search) and its tool prompt, 0 when not declared, and refuses bad ones", async () => {
    const chat = { ...catalog.models[0]!, id: "m-media" };
    const apply = (model: Record<string, unknown>) => admin.ApplyCatalog({ document_json: JSON.stringify({ models: [model] }) });
    const find = async () => (await control.GetCatalog({ known_version: 0 })).models.find((m) => m.id === "m-media")!;
    const fields = ["max_input_tokens_per_pdf_page", "max_input_tokens_per_media_second", "max_input_tokens_per_url_part", "max_input_tokens_per_web_search", "tool_prompt_tokens"] as const;
    for (const f of fields) {
      for (const bad of [-1, 2.5, "258"]) await expect(apply({ ...chat, [f]: bad })).rejects.toThrow(new RegExp(`models\\[0\\]\\.${f}`));
    }

    const declared = {
      max_input_tokens_per_pdf_page: 258,
      max_input_tokens_per_media_second: 300,
      max_input_tokens_per_url_part: 1_048_576,
      max_input_tokens_per_web_search: 8_000,
      tool_prompt_tokens: 346,
    };
    await apply({ ...chat, ...declared });
    expect(await find()).toMatchObject(declared);
    // One alone: the others stay undeclared.
    await apply({ ...chat, max_input_tokens_per_pdf_page: 3_000 });
    const one = await find();
    expect(one.max_input_tokens_per_pdf_page).toBe(3_000);
    for (const f of fields.slice(1)) expect(one[f] ?? 0).toBe(0);
    // Applying the model again without them: none declared (sent absent, read as the proto's default, 0).
    await apply(chat);
    const reset = await find();
    for (const f of fields) expect(reset[f] ?? 0).toBe(0);
    const row = await cp.db
      .selectFrom("models")
      .select([...fields])
      .where("id", "=", "m-media")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ max_input_tokens_per_pdf_page: 0, max_input_tokens_per_media_second: 0, max_input_tokens_per_url_part: 0, max_input_tokens_per_web_search: 0, tool_prompt_tokens: 0 });
  });

  it("carries cache and reasoning prices when set, leaves them absent (the defaults) when not, and refuses bad ones", async () => {
    const chat = { ...catalog.models[0]!, id: "m-cache" };
    const apply = (model: Record<string, unknown>) => admin.ApplyCatalog({ document_json: JSON.stringify({ models: [model] }) });
    await expect(apply({ ...chat, cached_input_price_minor_per_mtok: -1 })).rejects.toThrow(/models\[0\]\.cached_input_price_minor_per_mtok/);
    await expect(apply({ ...chat, cache_write_price_minor_per_mtok: 1.5 })).rejects.toThrow(/models\[0\]\.cache_write_price_minor_per_mtok/);
    await expect(apply({ ...chat, reasoning_price_minor_per_mtok: "30" })).rejects.toThrow(/models\[0\]\.reasoning_price_minor_per_mtok/);
    const find = async () => (await control.GetCatalog({ known_version: 0 })).models.find((m) => m.id === "m-cache")!;
    await apply({ ...chat, cached_input_price_minor_per_mtok: 0, cache_write_price_minor_per_mtok: 13, reasoning_price_minor_per_mtok: 40 });
    expect(await find()).toMatchObject({ cached_input_price_minor_per_mtok: 0, cache_write_price_minor_per_mtok: 13, reasoning_price_minor_per_mtok: 40 });
    // Applying the model again without them resets them to "not set".
    await apply(chat);
    const reset = await find();
    expect(reset.cached_input_price_minor_per_mtok).toBeUndefined();
    expect(reset.cache_write_price_minor_per_mtok).toBeUndefined();
    expect(reset.reasoning_price_minor_per_mtok).toBeUndefined();
  });

  it("carries a provider's connection limit and HTTP/2 setting, and refuses ones the data-plane cannot honour", async () => {
    const apply = (provider: Record<string, unknown>) => admin.ApplyCatalog({ document_json: JSON.stringify({ providers: [provider] }) });
    const base = { code: "p-conn", kind: "openai", base_url: "https://api.example.test/v1", credential_ref: "P_CONN_KEY" };
    await expect(apply({ ...base, max_connections: -1 })).rejects.toThrow(/providers\[0\]\.max_connections/);
    await expect(apply({ ...base, max_connections: 70_000 })).rejects.toThrow(/providers\[0\]\.max_connections: at most 65535/);
    await expect(apply({ ...base, base_url: "http://127.0.0.1:1/v1", http2: true })).rejects.toThrow(/providers\[0\]\.http2: HTTP\/2 is negotiated over TLS/);
    await apply(base);
    expect((await control.GetCatalog({ known_version: 0 })).providers.find((p) => p.code === "p-conn")).toMatchObject({ max_connections: 0, http2: false });
    await apply({ ...base, max_connections: 64, http2: true });
    expect((await control.GetCatalog({ known_version: 0 })).providers.find((p) => p.code === "p-conn")).toMatchObject({ max_connections: 64, http2: true });
  });
});

describe("trial", () => {
  it("publishes a stable policy hash that changes only with the content", async () => {
    const a = await control.GetTrialPolicy({});
    expect(a).toMatchObject({ version: 1, scope: "chat", allowed_models: [], unlock_topup_minor: 5_000_000 });
    expect((await control.GetTrialPolicy({})).policy_hash).toBe(a.policy_hash);
    await sql`UPDATE trial_policy SET allowed_models = '{m-chat}'`.execute(cp.db);
    const b = await control.GetTrialPolicy({});
    expect(b.policy_hash).not.toBe(a.policy_hash);
    await sql`UPDATE trial_policy SET allowed_models = '{}'`.execute(cp.db);
  });

  it("ends an org's trial when the ledger reports top-ups over the threshold", async () => {
    const org = await admin.CreateOrg({ name: "trial-org" });
    nc.publish(LEDGER_BALANCE_SUBJECT, encodeEvent({ version: 1, org_id: org.id, balance_minor: 1_000, topped_up_minor: 1_000, reason: "top_up" }));
    nc.publish(LEDGER_BALANCE_SUBJECT, encodeEvent({ version: 1, org_id: org.id, balance_minor: 6_000_000, topped_up_minor: 6_000_000, reason: "top_up" }));
    await eventually(() => changes.find((c) => c.kind === "org" && c.id === org.id), 15_000, "org change event");
    const orgs = await admin.ListOrgs({});
    expect(orgs.orgs.find((o) => o.id === org.id)!.in_trial).toBe(false);
  });
});

describe("gatewayctl", () => {
  const cli = (args: string[]) =>
    run(process.execPath, [join(import.meta.dirname, "../dist/cli/gatewayctl.js"), ...args], {
      env: { ...process.env, GATEWAY_ADMIN_TOKEN: TOKEN, GATEWAY_CONTROL_PLANE_ADDR: `127.0.0.1:${cp.grpcPort}` },
    }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it("creates an org, applies a catalog, enables models and issues a key, as JSON", async () => {
    const org = await cli(["org", "create", "--name", "cli-org", "--json"]);
    expect(org.code).toBe(0);
    const orgJson = JSON.parse(org.stdout) as { id: string; name: string };
    expect(orgJson).toMatchObject({ name: "cli-org" });

    const dir = mkdtempSync(join(tmpdir(), "gwctl-"));
    writeFileSync(
      join(dir, "catalog.yaml"),
      "models:\n  - id: m-cli\n    routes: [chat]\n    context_window: 1000\n    max_output_tokens: 100\n    input_price_minor_per_mtok: 1\n    output_price_minor_per_mtok: 2\n    deployments:\n      - { provider: p1, upstream_model: up-cli }\n",
    );
    const applied = await cli(["catalog", "apply", "-f", join(dir, "catalog.yaml"), "--json"]);
    expect(applied.code).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ models: 1 });

    const enabled = await cli(["models", "enable", "cli-org", "m-cli", "m-chat", "--json"]);
    expect(JSON.parse(enabled.stdout).enabled_models).toEqual(["m-chat", "m-cli"]);

    const key = await cli(["key", "create", "--org", "cli-org", "--routes", "chat,messages", "--models", "m-cli", "--json"]);
    const keyJson = JSON.parse(key.stdout) as { id: string; secret: string; routes: string[] };
    expect(keyJson.id).toMatch(/^key_/);
    expect(keyJson.secret).toMatch(/^sk-gateway-/);
    expect(keyJson.routes).toEqual(["chat", "messages"]);

    const listed = JSON.parse((await cli(["key", "list", "--org", orgJson.id, "--json"])).stdout) as { keys: Array<{ id: string }> };
    expect(listed.keys.map((k) => k.id)).toEqual([keyJson.id]);
    const revoked = JSON.parse((await cli(["key", "revoke", keyJson.id, "--json"])).stdout) as { revoked: boolean };
    expect(revoked.revoked).toBe(true);
  });

  it("exits 2 with a clear message on bad input, 1 when the server refuses", async () => {
    // Each a process of its own, started together (most of each is node starting).
    const [unknown, badAmount, frobnicate, missingOrg] = await Promise.all([
      cli(["key", "create", "--org"]),
      cli(["credits", "top-up", "cli-org", "--amount-minor", "12.5", "--idempotency-key", "k"]),
      cli(["frobnicate"]),
      cli(["key", "list", "--org", "nobody", "--json"]),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--org");
    expect(badAmount.code).toBe(2);
    expect(badAmount.stderr).toContain("--amount-minor must be a positive integer");
    expect(frobnicate.code).toBe(2);
    expect(missingOrg.code).toBe(1);
    expect(JSON.parse(missingOrg.stderr).error.code).toBe("not_found");
  });
});

describe("video job claims", () => {
  const job = (id: string, orgId: string) => ({
    id,
    org_id: orgId,
    key_id: "key_x",
    model: "m-video",
    provider: "p1",
    upstream_model: "up-video",
    upstream_job_id: "up-1",
    upstream_json: "{}",
    request_json: '{"prompt":"x"}',
    status: "queued",
    progress: 0,
    error_code: "",
    error_message: "",
    outputs_json: "[]",
    duration_s: 4,
    price_minor_per_second: 100,
    max_cost_minor: 400,
    lease_id: "lease_x",
    cost_minor: 0,
    settled: false,
    trace_id: "req_x",
    created_at_ms: 0,
    updated_at_ms: 0,
    completed_at_ms: 0,
    refreshed_at_ms: 0,
    resolution: "720p",
    audio: false,
    guardrails_json: "[]",
    idempotency_key: "",
    request_hash: "",
  });

  it("gives a stale job to one of many concurrent claimers, and only the holder may write it", async () => {
    const org = await admin.CreateOrg({ name: "video-claims" });
    const id = `vid_${"a".repeat(28)}`;
    await control.CreateVideoJob(job(id, org.id));
    const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => control.ClaimVideoJobs({ holder: `dp-${i}`, job_id: id, stale_after_ms: 0, claim_ms: 5_000, limit: 5 })));
    const winners = claims.flatMap((c, i) => (c.jobs.length ? [`dp-${i}`] : []));
    expect(winners).toHaveLength(1);
    const loser = winners[0] === "dp-0" ? "dp-1" : "dp-0";
    const base = { job_id: id, progress: 0, error_code: "", error_message: "", outputs_json: "", cost_minor: 0, settled: false, upstream_json: "", duration_s: 0, release_claim: false };
    await expect(control.UpdateVideoJob({ ...base, holder: loser, status: "failed" })).rejects.toThrow(/claimed by another holder/);
    const done = await control.UpdateVideoJob({ ...base, holder: winners[0]!, status: "completed", cost_minor: 400, outputs_json: '[{"type":"video","url":"https://x/y.mp4"}]' });
    expect(done).toMatchObject({ status: "completed", cost_minor: 400, progress: 100, settled: false });
    // A finished job never changes state or cost again; it may only be marked settled.
    const after = await control.UpdateVideoJob({ ...base, holder: winners[0]!, status: "failed", cost_minor: 0, settled: true, release_claim: true });
    expect(after).toMatchObject({ status: "completed", cost_minor: 400, settled: true });
    // Settled jobs are no longer claimed by the reconciler.
    expect((await control.ClaimVideoJobs({ holder: "dp-9", job_id: "", stale_after_ms: 0, claim_ms: 5_000, limit: 10 })).jobs.map((j) => j.id)).not.toContain(id);
  });

  it("answers another organization's job exactly like a missing one", async () => {
    const a = await admin.CreateOrg({ name: "video-owner" });
    const b = await admin.CreateOrg({ name: "video-other" });
    const id = `vid_${"b".repeat(28)}`;
    await control.CreateVideoJob(job(id, a.id));
    expect((await control.GetVideoJob({ org_id: a.id, job_id: id })).id).toBe(id);
    const theirs = await control.GetVideoJob({ org_id: b.id, job_id: id }).catch((e: Error) => e.message);
    const missing = await control.GetVideoJob({ org_id: b.id, job_id: `vid_${"c".repeat(28)}` }).catch((e: Error) => e.message);
    expect(String(theirs).replace(id, "ID")).toBe(String(missing).replace(`vid_${"c".repeat(28)}`, "ID"));
  });
});
