import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpServer } from "@gateway/proto";
import { McpUpstreams } from "./upstream.js";

/**
 * The replica's upstream MCP sessions (docs/mcp.md, "Upstream sessions") against a scripted
 * Streamable HTTP server: one session per server and organization (per key where the catalog says
 * so), each with its organization's credential and identity header; at the bound the least recently
 * used idle session is closed (DELETE) for a new one, and with none idle the call is refused (503).
 */
let server: Server;
let url = "";
/** Requests by session id: method, authorization, identity. */
const seen: Array<{ method: string; session: string; auth?: string; who?: string }> = [];
let sessions = 0;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const session = (req.headers["mcp-session-id"] as string | undefined) ?? "";
      if (req.method === "DELETE") {
        seen.push({ method: "DELETE", session });
        return void res.writeHead(200).end();
      }
      const msg = JSON.parse(raw) as { id?: number; method: string; params?: { name?: string; arguments?: { ms?: number } } };
      const sid = msg.method === "initialize" ? `s${++sessions}` : session;
      seen.push({ method: msg.method, session: sid, auth: req.headers.authorization, who: req.headers["x-caller"] as string | undefined });
      const reply = (result: unknown) => {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": sid });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }));
      };
      if (msg.method === "initialize") return reply({ protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "s", version: "1" } });
      if (msg.id === undefined) return void res.writeHead(202).end();
      setTimeout(() => reply({ content: [{ type: "text", text: sid }] }), msg.params?.arguments?.ms ?? 0);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  const a = server.address();
  url = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}/mcp`;
});

afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()));
});

const credentials: Record<string, string> = { SHARED: "shared-secret", TENANT_B: "b-secret" };
const upstreams = (maxSessions: number) =>
  new McpUpstreams({
    timeoutMs: 2_000,
    toolsTtlMs: 0,
    maxAnswerBytes: 100_000,
    maxSessions,
    sessionIdleMs: 60_000,
    resolveCredential: (ref) => credentials[ref],
    checkUrl: async () => undefined,
  });
const catalogServer = (over: Partial<McpServer> = {}): McpServer => ({
  name: "tools",
  url,
  credential_ref: "SHARED",
  auth_header: "",
  tools: [],
  session_scope: "",
  identity_header: "x-caller",
  org_credential_refs: { org_b: "TENANT_B" },
  ...over,
});
const answerOf = (r: Record<string, unknown>) => (r.content as Array<{ text: string }>)[0]!.text;

describe("upstream MCP sessions", () => {
  it("keeps one session per organization, with its credential and identity, and per key where the server says so", async () => {
    const m = upstreams(10);
    const a1 = answerOf(await m.call(catalogServer(), { org_id: "org_a", key_id: "k1" }, "t", {}));
    const a2 = answerOf(await m.call(catalogServer(), { org_id: "org_a", key_id: "k2" }, "t", {}));
    const b = answerOf(await m.call(catalogServer(), { org_id: "org_b", key_id: "k3" }, "t", {}));
    expect(a1).toBe(a2);
    expect(b).not.toBe(a1);
    const calls = seen.filter((s) => s.method === "tools/call");
    expect(calls.find((c) => c.session === a1)).toMatchObject({ auth: "Bearer shared-secret", who: "org_a" });
    expect(calls.find((c) => c.session === b)).toMatchObject({ auth: "Bearer b-secret", who: "org_b" });
    // Per key: each key its own session, the key named to the upstream.
    const perKey = catalogServer({ name: "per-user", session_scope: "key" });
    const k1 = answerOf(await m.call(perKey, { org_id: "org_a", key_id: "k1" }, "t", {}));
    const k2 = answerOf(await m.call(perKey, { org_id: "org_a", key_id: "k2" }, "t", {}));
    expect(k1).not.toBe(k2);
    expect(seen.filter((s) => s.method === "tools/call").find((c) => c.session === k2)).toMatchObject({ who: "org_a/k2" });
    expect(m.sessions).toBe(4);
    m.close();
  });

  it("at its bound closes the least recently used idle session for a new one; with none idle, refuses with 503 and retry_after_s", async () => {
    const m = upstreams(2);
    const s = catalogServer();
    const first = answerOf(await m.call(s, { org_id: "org_1", key_id: "k" }, "t", {}));
    await m.call(s, { org_id: "org_2", key_id: "k" }, "t", {});
    // org_1 is the least recently used: closed (the upstream is told) for org_3.
    await m.call(s, { org_id: "org_3", key_id: "k" }, "t", {});
    expect(m.sessions).toBe(2);
    await expect.poll(() => seen.some((x) => x.method === "DELETE" && x.session === first)).toBe(true);
    // Both sessions busy with a slow call: a fourth organization is refused, nothing sent for it.
    const busy = [m.call(s, { org_id: "org_2", key_id: "k" }, "t", { ms: 300 }), m.call(s, { org_id: "org_3", key_id: "k" }, "t", { ms: 300 })];
    await expect(m.call(s, { org_id: "org_4", key_id: "k" }, "t", {})).rejects.toMatchObject({ code: "service_unavailable", context: { retry_after_s: 1 } });
    await Promise.all(busy);
    // Once they are idle again, it gets a session.
    expect(answerOf(await m.call(s, { org_id: "org_4", key_id: "k" }, "t", {}))).toMatch(/^s\d+$/);
    m.close();
  });
});
