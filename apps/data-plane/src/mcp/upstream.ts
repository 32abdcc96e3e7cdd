import { Agent } from "undici";
import { GatewayError } from "@gateway/errors";
import { mcpToolDefinition, type McpServer } from "@gateway/proto";
import { UpstreamRpcError, UpstreamSession, UpstreamTransportError, reachedUpstream, type TransportFailure } from "./upstream-session.js";

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
  /** Upstream sessions this replica keeps open at most (DATA_PLANE_MCP_MAX_SESSIONS). */
  maxSessions: number;
  /** A session unused this long is closed, ms (DATA_PLANE_MCP_SESSION_IDLE_MS). */
  sessionIdleMs: number;
}

/** Who calls: the organization and the key a session is kept for (a key only on a server whose sessions are per key). */
export interface Caller {
  org_id: string;
  key_id: string;
}

interface Connection {
  /** What the connection was made for: a catalog change of URL, credential or identity makes another. */
  signature: string;
  client: Promise<UpstreamSession>;
  tools?: { at: number; list: Promise<ListedTool[]> };
  /** Calls in flight on it (a session with none is idle: it may be closed). */
  inFlight: number;
  lastUsed: number;
}

/** Failures of an MCP upstream (upstream-session.ts, TransportFailure): unreachable, refused, too slow, cut, or an answer that is not MCP. */
export class UpstreamMcpError extends Error {
  constructor(
    message: string,
    readonly kind: TransportFailure,
  ) {
    super(message);
  }

  /** Whether the call reached the upstream, which may have acted on it (a priced call is then billed). */
  get sent(): boolean {
    return reachedUpstream(this.kind);
  }
}

/**
 * This replica's sessions with MCP upstreams (docs/mcp.md, "Upstream sessions"): one MCP client
 * session per server and organization — per server and key where the catalog says the server keeps
 * per-user state — with the credential the catalog gives that organization and, where the catalog
 * names one, a header saying who calls. What one organization leaves in a stateful server's session
 * no other can read. Sessions are made on first use, replaced after a failure, closed (DELETE) after
 * `sessionIdleMs` unused, and bounded: at `maxSessions` the least recently used idle one is closed
 * for a new one; when none is idle, the call is refused (503 with `retry_after_s`). A caller's session
 * with the gateway and the gateway's sessions with upstreams are independent, so any replica serves
 * any caller. All share one undici agent (keep-alive connections, at most 64 per origin).
 */
export class McpUpstreams {
  /** By server, organization (and key): in least-recently-used order (a use moves it to the end). */
  private readonly connections = new Map<string, Connection>();
  private readonly agent: Agent;
  private readonly sweeper: NodeJS.Timeout;
  /** Tool definitions this replica has reported to the control-plane (bounded). */
  private readonly seen = new Set<string>();

  constructor(private readonly opts: UpstreamOptions) {
    // Connections are made well inside a call's deadline, so a deadline that passes fell after the
    // call was sent (what bills a priced call: docs/mcp.md).
    this.agent = new Agent({ connections: 64, keepAliveTimeout: 30_000, pipelining: 1, connect: { timeout: Math.max(100, Math.min(10_000, Math.floor(opts.timeoutMs / 2))) } });
    this.sweeper = setInterval(() => this.closeIdle(Date.now() - opts.sessionIdleMs), Math.max(1_000, Math.floor(opts.sessionIdleMs / 4)));
    this.sweeper.unref();
  }

  /** Sessions open now (for the gauge and the tests). */
  get sessions(): number {
    return this.connections.size;
  }

  private connection(server: McpServer, caller: Caller): Connection {
    const perKey = server.session_scope === "key";
    const id = `${server.name}\u0000${caller.org_id}${perKey ? `\u0000${caller.key_id}` : ""}`;
    const ref = server.org_credential_refs?.[caller.org_id] || server.credential_ref;
    const credential = ref ? this.opts.resolveCredential(ref) : undefined;
    const identity = perKey ? `${caller.org_id}/${caller.key_id}` : caller.org_id;
    const signature = `${server.url} ${ref} ${server.auth_header} ${credential ?? ""} ${server.identity_header}`;
    const known = this.connections.get(id);
    if (known && known.signature === signature) {
      // Most recently used last.
      this.connections.delete(id);
      this.connections.set(id, known);
      known.lastUsed = Date.now();
      return known;
    }
    if (known) this.drop(id, known);
    else if (this.connections.size >= this.opts.maxSessions) this.makeRoom();
    const headers: Record<string, string> = {};
    if (credential) headers[server.auth_header || "authorization"] = server.auth_header ? credential : `Bearer ${credential}`;
    if (server.identity_header) headers[server.identity_header.toLowerCase()] = identity;
    const session = new UpstreamSession({
      url: server.url,
      headers,
      agent: this.agent,
      timeoutMs: this.opts.timeoutMs,
      maxBytes: this.opts.maxAnswerBytes,
      onNotification: (method) => this.notified(server.name, method),
    });
    // The address is checked before anything is sent to it.
    const connected = this.opts
      .checkUrl(server.url)
      .catch((err: unknown) => {
        throw new Error(`its URL is not allowed: ${err instanceof Error ? err.message : String(err)}`);
      })
      .then(() => session);
    const c: Connection = { signature, client: connected, inFlight: 0, lastUsed: Date.now() };
    // A failed connection is forgotten at once: the next request tries again.
    connected.catch(() => this.drop(id, c));
    this.connections.set(id, c);
    return c;
  }

  /** At the bound: closes the least recently used idle session, or refuses (none is idle). */
  private makeRoom(): void {
    for (const [id, c] of this.connections) {
      if (c.inFlight > 0) continue;
      this.drop(id, c);
      return;
    }
    throw new GatewayError("service_unavailable", `This replica keeps at most ${this.opts.maxSessions} MCP upstream sessions and all are busy; retry shortly.`, { retry_after_s: 1 });
  }

  /** Closes the sessions unused since `before` (and idle now). */
  private closeIdle(before: number): void {
    for (const [id, c] of this.connections) if (c.inFlight === 0 && c.lastUsed < before) this.drop(id, c);
  }

  private drop(id: string, c: Connection): void {
    if (this.connections.get(id) !== c) return;
    this.connections.delete(id);
    // The upstream is told the session ended (best effort, after its last call).
    c.client.then((s) => s.close()).catch(() => undefined);
  }

  /**
   * A notification in an upstream's answer: `notifications/tools/list_changed` drops every cached
   * tool list of that server (a change one session hears of is the server's), so the next list or
   * call reads it again and re-checks the pins (docs/mcp.md, "Pinned definitions").
   */
  private notified(server: string, method: string): void {
    if (method !== "notifications/tools/list_changed") return;
    for (const [id, c] of this.connections) if (id.startsWith(`${server}\u0000`)) c.tools = undefined;
  }

  /** The upstream's tools with their definitions' digests (cached `toolsTtlMs`). */
  async tools(server: McpServer, caller: Caller): Promise<ListedTool[]> {
    const c = this.connection(server, caller);
    if (!c.tools || Date.now() - c.tools.at > this.opts.toolsTtlMs) {
      const list = this.guard(server.name, c, async (client) => {
        const all: UpstreamTool[] = [];
        let cursor: string | undefined;
        // Pages until the upstream says it is done (bounded: 20 pages).
        for (let page = 0; page < 20; page++) {
          const r = (await client.call("tools/list", cursor ? { cursor } : {})) as { tools?: unknown; nextCursor?: unknown };
          if (!Array.isArray(r?.tools)) throw new UpstreamTransportError("the upstream's tools/list answer has no tools", "invalid");
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
  async call(server: McpServer, caller: Caller, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const c = this.connection(server, caller);
    return this.guard(server.name, c, async (client) => {
      const r = await client.call("tools/call", { name, arguments: args }, signal);
      if (typeof r !== "object" || r === null || Array.isArray(r)) throw new UpstreamTransportError("the upstream's tools/call answer is not a result", "invalid");
      return r as Record<string, unknown>;
    });
  }

  private async guard<T>(name: string, c: Connection, fn: (client: UpstreamSession) => Promise<T>): Promise<T> {
    c.inFlight++;
    try {
      return await this.run(name, c, fn);
    } finally {
      c.inFlight--;
      c.lastUsed = Date.now();
    }
  }

  private async run<T>(name: string, c: Connection, fn: (client: UpstreamSession) => Promise<T>): Promise<T> {
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
      for (const [id, known] of this.connections) if (known === c) this.drop(id, c);
      const message = err instanceof Error ? err.message : String(err);
      const kind = err instanceof UpstreamTransportError ? err.kind : "unreachable";
      if (kind === "timeout") throw new UpstreamMcpError(`MCP server '${name}' did not answer within ${this.opts.timeoutMs} ms`, "timeout");
      if (kind === "unreachable") throw new UpstreamMcpError(`MCP server '${name}' is unreachable: ${message}`, kind);
      throw new UpstreamMcpError(`MCP server '${name}' answered something other than an MCP answer: ${message}`, kind);
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
    clearInterval(this.sweeper);
    for (const [id, c] of this.connections) this.drop(id, c);
    if (this.agent.closed || this.agent.destroyed) return;
    this.agent.close().catch(() => undefined);
  }
}
