import { Agent } from "undici";
import { mcpToolDefinition, type McpServer } from "@gateway/proto";
import { UpstreamRpcError, UpstreamSession, UpstreamTransportError } from "./upstream-session.js";

/** A tool as an upstream defines it (MCP `Tool`: name, description, schemas, annotations). */
export interface UpstreamTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  title?: string;
}

/** A tool of an upstream's list with its definition's canonical JSON and digest, computed once per list read (what pinning compares). */
export interface ListedTool {
  tool: UpstreamTool;
  definition: { json: string; digest: string };
}

export interface UpstreamOptions {
  timeoutMs: number;
  toolsTtlMs: number;
  resolveCredential: (ref: string) => string | undefined;
  /** Refuses a server URL the gateway must not reach (throws with the reason). */
  checkUrl: (url: string) => Promise<void>;
  /** Largest answer read from an upstream, bytes. */
  maxAnswerBytes: number;
}

interface Connection {
  /** What the connection was made for: a catalog change of URL or credential makes another. */
  signature: string;
  client: Promise<UpstreamSession>;
  tools?: { at: number; list: Promise<ListedTool[]> };
}

/** Failures of an MCP upstream: unreachable, too slow, or an answer that is not MCP. */
export class UpstreamMcpError extends Error {
  constructor(
    message: string,
    readonly kind: "unreachable" | "timeout" | "invalid",
  ) {
    super(message);
  }
}

/**
 * This replica's connections to MCP upstreams (docs/mcp.md), one MCP client session per server
 * (upstream-session.ts, on one undici agent: keep-alive connections, at most 64 per origin),
 * made on first use and replaced after a failure. A caller's session with the gateway and the
 * gateway's session with an upstream are independent, so any replica serves any caller's request.
 * Bounded: one connection per catalog server; tool lists kept `toolsTtlMs`.
 */
export class McpUpstreams {
  private readonly connections = new Map<string, Connection>();
  private readonly agent = new Agent({ connections: 64, keepAliveTimeout: 30_000, pipelining: 1 });
  /** Tool definitions this replica has reported to the control-plane (bounded). */
  private readonly seen = new Set<string>();

  constructor(private readonly opts: UpstreamOptions) {}

  private connection(server: McpServer): Connection {
    const credential = server.credential_ref ? this.opts.resolveCredential(server.credential_ref) : undefined;
    const signature = `${server.url} ${server.credential_ref} ${server.auth_header} ${credential ?? ""}`;
    const known = this.connections.get(server.name);
    if (known && known.signature === signature) return known;
    const headers: Record<string, string> = {};
    if (credential) headers[server.auth_header || "authorization"] = server.auth_header ? credential : `Bearer ${credential}`;
    const session = new UpstreamSession({ url: server.url, headers, agent: this.agent, timeoutMs: this.opts.timeoutMs, maxBytes: this.opts.maxAnswerBytes });
    // The address is checked before anything is sent to it.
    const connected = this.opts
      .checkUrl(server.url)
      .catch((err: unknown) => {
        throw new Error(`its URL is not allowed: ${err instanceof Error ? err.message : String(err)}`);
      })
      .then(() => session);
    const c: Connection = { signature, client: connected };
    // A failed connection is forgotten at once: the next request tries again.
    connected.catch(() => this.drop(server.name, c));
    this.connections.set(server.name, c);
    return c;
  }

  private drop(name: string, c: Connection): void {
    if (this.connections.get(name) === c) this.connections.delete(name);
  }

  /** The upstream's tools with their definitions' digests (cached `toolsTtlMs`). */
  async tools(server: McpServer): Promise<ListedTool[]> {
    const c = this.connection(server);
    if (!c.tools || Date.now() - c.tools.at > this.opts.toolsTtlMs) {
      const list = this.guard(server.name, c, async (client) => {
        const all: UpstreamTool[] = [];
        let cursor: string | undefined;
        // Pages until the upstream says it is done (bounded: 20 pages).
        for (let page = 0; page < 20; page++) {
          const r = (await client.call("tools/list", cursor ? { cursor } : {})) as { tools?: unknown; nextCursor?: unknown };
          if (!Array.isArray(r?.tools)) throw new UpstreamTransportError("the upstream's tools/list answer has no tools", "unreachable");
          all.push(...(r.tools as UpstreamTool[]).filter((t) => typeof t?.name === "string"));
          cursor = typeof r.nextCursor === "string" && r.nextCursor ? r.nextCursor : undefined;
          if (!cursor) break;
        }
        return all.map((tool) => ({ tool, definition: mcpToolDefinition(tool as unknown as Record<string, unknown>) }));
      });
      c.tools = { at: Date.now(), list };
      list.catch(() => {
        if (c.tools?.list === list) c.tools = undefined;
      });
    }
    return c.tools.list;
  }

  /** Calls a tool; the upstream's answer as it gave it (a tool error is an answer: `isError`). Bounded by the MCP timeout (and `signal`, when given). */
  call(server: McpServer, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const c = this.connection(server);
    return this.guard(server.name, c, async (client) => {
      const r = await client.call("tools/call", { name, arguments: args }, signal);
      if (typeof r !== "object" || r === null || Array.isArray(r)) throw new UpstreamTransportError("the upstream's tools/call answer is not a result", "unreachable");
      return r as Record<string, unknown>;
    });
  }

  private async guard<T>(name: string, c: Connection, fn: (client: UpstreamSession) => Promise<T>): Promise<T> {
    let client: UpstreamSession;
    try {
      client = await c.client;
    } catch (err) {
      throw new UpstreamMcpError(`MCP server '${name}' is unreachable: ${err instanceof Error ? err.message : String(err)}`, "unreachable");
    }
    try {
      return await fn(client);
    } catch (err) {
      // A JSON-RPC error the upstream answered is its answer, not a broken connection.
      if (err instanceof UpstreamRpcError) throw err;
      this.drop(name, c);
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof UpstreamTransportError && err.kind === "timeout") throw new UpstreamMcpError(`MCP server '${name}' did not answer within ${this.opts.timeoutMs} ms`, "timeout");
      throw new UpstreamMcpError(`MCP server '${name}' is unreachable or answered something other than MCP: ${message}`, "unreachable");
    }
  }

  /** True the first time this replica sees a definition (then it reports it); bounded at 10,000. */
  firstSight(id: string): boolean {
    if (this.seen.has(id)) return false;
    if (this.seen.size >= 10_000) this.seen.clear();
    this.seen.add(id);
    return true;
  }

  /** A report that failed: the next sight reports again. */
  forget(id: string): void {
    this.seen.delete(id);
  }

  /** Drops the sessions and closes the agent's connections (idempotent: a replica may be stopped twice). */
  close(): void {
    for (const [name, c] of this.connections) this.drop(name, c);
    if (this.agent.closed || this.agent.destroyed) return;
    this.agent.close().catch(() => undefined);
  }
}
