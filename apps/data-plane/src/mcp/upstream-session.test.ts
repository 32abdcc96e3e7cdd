import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamRpcError, UpstreamSession, UpstreamTransportError, reachedUpstream } from "./upstream-session.js";

/**
 * The gateway's MCP client session against a scripted Streamable HTTP server: answers as JSON and
 * as an event stream (a notification before the answer), the session id and protocol version sent
 * back, one re-initialization when the server forgets the session, JSON-RPC errors relayed, and
 * the deadline.
 */
let server: Server;
let url = "";
const agent = new Agent({ connections: 4 });
const seen: Array<{ method: string; session?: string; version?: string }> = [];
let sessions = 0;
let forget = false;

function answer(res: ServerResponse, body: unknown, sse: boolean, extra: Record<string, string> = {}) {
  if (sse) {
    res.writeHead(200, { "content-type": "text/event-stream", ...extra });
    res.end(`event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\nevent: message\ndata: ${JSON.stringify(body)}\n\n`);
  } else {
    res.writeHead(200, { "content-type": "application/json", ...extra });
    res.end(JSON.stringify(body));
  }
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const msg = JSON.parse(raw) as { id?: number; method: string; params?: { name?: string } };
      const session = req.headers["mcp-session-id"] as string | undefined;
      seen.push({ method: msg.method, session, version: req.headers["mcp-protocol-version"] as string | undefined });
      if (msg.method === "initialize")
        return answer(res, { jsonrpc: "2.0", id: msg.id, result: { protocolVersion: "2025-03-26", capabilities: {}, serverInfo: { name: "s", version: "1" } } }, false, {
          "mcp-session-id": `s${++sessions}`,
        });
      if (msg.id === undefined) return void res.writeHead(202).end();
      if (forget && session === "s1") return void res.writeHead(404).end();
      if (msg.params?.name === "slow") return void setTimeout(() => answer(res, { jsonrpc: "2.0", id: msg.id, result: {} }, false), 500);
      if (msg.params?.name === "big") return answer(res, { jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: "x".repeat(5_000) }] } }, false);
      if (msg.params?.name === "broken") return answer(res, { jsonrpc: "2.0", id: msg.id, error: { code: -32602, message: "bad arguments" } }, true);
      answer(res, { jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: `${msg.method} ${msg.params?.name ?? ""}` }] } }, msg.params?.name === "sse");
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  const a = server.address();
  url = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}/mcp`;
});

afterAll(async () => {
  await agent.close();
  await new Promise<void>((ok) => server.close(() => ok()));
});

describe("an MCP upstream session", () => {
  it("initializes once, then sends the session id and the negotiated version; reads JSON and event-stream answers", async () => {
    const s = new UpstreamSession({ url, headers: { authorization: "Bearer k" }, agent, timeoutMs: 2_000, maxBytes: 100_000 });
    expect(await s.call("tools/call", { name: "json" })).toEqual({ content: [{ type: "text", text: "tools/call json" }] });
    expect(await s.call("tools/call", { name: "sse" })).toEqual({ content: [{ type: "text", text: "tools/call sse" }] });
    expect(seen.map((x) => x.method)).toEqual(["initialize", "notifications/initialized", "tools/call", "tools/call"]);
    expect(seen.slice(2).every((x) => x.session === "s1" && x.version === "2025-03-26")).toBe(true);
    await expect(s.call("tools/call", { name: "broken" })).rejects.toEqual(new UpstreamRpcError(-32602, "bad arguments"));

    // The server forgets the session: the call goes through on a new one.
    forget = true;
    expect(await s.call("tools/call", { name: "again" })).toMatchObject({ content: [{ text: "tools/call again" }] });
    expect(seen.at(-1)).toMatchObject({ method: "tools/call", session: "s2" });
    forget = false;
  });

  it("gives up at its deadline, and on an answer larger than its bound", async () => {
    const s = new UpstreamSession({ url, headers: {}, agent, timeoutMs: 100, maxBytes: 100_000 });
    await expect(s.call("tools/call", { name: "slow" })).rejects.toMatchObject({ kind: "timeout" });
    const tiny = new UpstreamSession({ url, headers: {}, agent, timeoutMs: 2_000, maxBytes: 10 });
    await expect(tiny.call("tools/call", { name: "json" })).rejects.toBeInstanceOf(UpstreamTransportError);
  });

  it("says whether a failed call reached the server (what bills a priced tool call): a deadline or an oversize answer did, a refused connection did not", async () => {
    const late = new UpstreamSession({ url, headers: {}, agent, timeoutMs: 100, maxBytes: 100_000 });
    const timedOut = await late.call("tools/call", { name: "slow" }).catch((e: unknown) => e);
    expect(timedOut).toMatchObject({ kind: "timeout" });
    expect(reachedUpstream((timedOut as UpstreamTransportError).kind)).toBe(true);
    // The initialize answer fits the bound, the tool's answer does not (the call was made).
    const bounded = new UpstreamSession({ url, headers: {}, agent, timeoutMs: 2_000, maxBytes: 1_000 });
    await expect(bounded.call("tools/call", { name: "big" })).rejects.toMatchObject({ kind: "oversize" });
    // A bound the initialize answer does not fit: the session never began, the call was not sent.
    const tiny = new UpstreamSession({ url, headers: {}, agent, timeoutMs: 2_000, maxBytes: 10 });
    await expect(tiny.call("tools/call", { name: "json" })).rejects.toMatchObject({ kind: "unreachable" });
    // Port 9 (discard) has no listener here: the connection is refused, nothing was sent.
    const nowhere = new UpstreamSession({ url: "http://127.0.0.1:9/mcp", headers: {}, agent, timeoutMs: 2_000, maxBytes: 100_000 });
    const refused = await nowhere.call("tools/call", { name: "json" }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: "unreachable" });
    expect(reachedUpstream((refused as UpstreamTransportError).kind)).toBe(false);
  });
});
