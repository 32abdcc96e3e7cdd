import { request, type Agent } from "undici";

/**
 * One MCP client session with an upstream over Streamable HTTP (docs/mcp.md), on the data-plane's
 * own undici agent: JSON-RPC POSTs whose answers come as JSON or as a server-sent event stream, the
 * session id and protocol version the upstream gave at `initialize` sent on every later request,
 * and one re-initialization when the upstream forgets the session (404). Lighter than the SDK's
 * client transport (WHATWG fetch and streams) on the path of every tool call.
 */

/** The version the gateway asks upstreams for; it accepts whichever they answer. */
const ASKED_VERSION = "2025-06-18";

/** A JSON-RPC error the upstream answered: relayed to the caller as is. */
export class UpstreamRpcError extends Error {
  /** The status its call's record gets (pipeline/bill.ts `failureStatus`): the upstream refused it. */
  readonly httpStatus = 502;
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * How a call to an upstream failed, and whether its request reached it (docs/mcp.md, "Billing"):
 * `unreachable` never sent (refused, no route, the connection not made in time, the session not
 * initialized); `refused` sent and refused before acting (HTTP 4xx); `timeout` sent, no answer in
 * time; `oversize` an answer past the read bound; `cut` the connection closed before the answer
 * ended, or HTTP 5xx; `invalid` an answer that is not MCP. All but the first two may have acted.
 */
export type TransportFailure = "unreachable" | "refused" | "timeout" | "oversize" | "cut" | "invalid";

/** Whether a failed call's request reached the upstream, which may have acted on it. */
export const reachedUpstream = (kind: TransportFailure): boolean => kind !== "unreachable" && kind !== "refused";

/** The upstream did not answer in time, could not be reached, or answered something that is not MCP. */
export class UpstreamTransportError extends Error {
  constructor(
    message: string,
    readonly kind: TransportFailure,
  ) {
    super(message);
  }
}

/** Errors of the connection phase (nothing was written to the upstream). */
const CONNECT_ERRORS = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT", "ERR_INVALID_URL"]);

export interface SessionOptions {
  url: string;
  headers: Record<string, string>;
  agent: Agent;
  timeoutMs: number;
  /** Largest answer read, bytes (beyond it the answer is dropped as not MCP). */
  maxBytes: number;
  /** Told the method of each notification an answer's event stream carries (`notifications/tools/list_changed`: pins.ts re-checks). */
  onNotification?: (method: string) => void;
}

interface RpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

export class UpstreamSession {
  private sessionId: string | undefined;
  private protocolVersion = ASKED_VERSION;
  private nextId = 0;
  private started: Promise<void> | undefined;

  constructor(private readonly o: SessionOptions) {}

  /** Initializes once (again after the upstream forgot the session). */
  private start(): Promise<void> {
    this.started ??= (async () => {
      this.sessionId = undefined;
      const r = await this.post(
        { jsonrpc: "2.0", id: ++this.nextId, method: "initialize", params: { protocolVersion: ASKED_VERSION, capabilities: {}, clientInfo: { name: "ai-gateway", version: "1.0.0" } } },
        undefined,
      );
      const v = (r.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      if (typeof v !== "string") throw new UpstreamTransportError("the upstream's initialize answer names no protocol version", "unreachable");
      this.protocolVersion = v;
      this.sessionId = r.sessionId;
      await this.post({ jsonrpc: "2.0", method: "notifications/initialized" }, undefined);
    })().catch((err: unknown) => {
      this.started = undefined;
      throw err;
    });
    return this.started;
  }

  /** Calls `method`; its result, or the upstream's JSON-RPC error (UpstreamRpcError). */
  async call(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    await this.initialized();
    let r = await this.post({ jsonrpc: "2.0", id: ++this.nextId, method, params }, signal);
    if (r.status === 404 && this.sessionId) {
      // The upstream forgot the session (restarted, expired): once more with a new one.
      this.started = undefined;
      await this.initialized();
      r = await this.post({ jsonrpc: "2.0", id: ++this.nextId, method, params }, signal);
    }
    if (r.error) throw new UpstreamRpcError(typeof r.error.code === "number" ? r.error.code : -32603, String(r.error.message ?? "upstream error"));
    return r.result;
  }

  /** The session initialized; a failure to do so means the call itself was never sent. */
  private async initialized(): Promise<void> {
    try {
      await this.start();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new UpstreamTransportError(`the session could not be initialized: ${message}`, "unreachable");
    }
  }

  /** Ends the upstream's session (DELETE, as the transport asks of a client that is done with one); best effort, bounded. */
  async close(): Promise<void> {
    const id = this.sessionId;
    this.started = undefined;
    this.sessionId = undefined;
    if (!id) return;
    try {
      const res = await request(this.o.url, {
        method: "DELETE",
        headers: { ...this.o.headers, "mcp-session-id": id, "mcp-protocol-version": this.protocolVersion },
        dispatcher: this.o.agent,
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
      await res.body.dump();
    } catch {
      // The upstream forgets it on its own (an idle session expires there too).
    }
  }

  /** One POST; for a request, the answer with its id (from JSON or an event stream). */
  private async post(
    msg: { jsonrpc: "2.0"; id?: number; method: string; params?: unknown },
    signal: AbortSignal | undefined,
  ): Promise<{ status: number; result?: unknown; error?: RpcMessage["error"]; sessionId?: string }> {
    const headers: Record<string, string> = {
      ...this.o.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": this.protocolVersion,
      ...(this.sessionId ? { "mcp-session-id": this.sessionId } : {}),
    };
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.o.timeoutMs);
    const onAbort = () => abort.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(this.o.url, { method: "POST", headers, body: JSON.stringify(msg), dispatcher: this.o.agent, signal: abort.signal });
      } catch (err) {
        // The connection is made well inside the deadline (the agent's connect timeout is shorter),
        // so a deadline reached here fell after the request was written.
        const code = (err as { code?: unknown }).code;
        if (typeof code === "string" && CONNECT_ERRORS.has(code)) throw new UpstreamTransportError(err instanceof Error ? err.message : String(err), "unreachable");
        throw this.failed(err, abort.signal.aborted && !signal?.aborted);
      }
      const sessionId = typeof res.headers["mcp-session-id"] === "string" ? res.headers["mcp-session-id"] : undefined;
      if (msg.id === undefined || res.statusCode === 404) {
        await res.body.dump();
        return { status: res.statusCode, sessionId };
      }
      let text: string;
      try {
        text = await readBounded(res.body, this.o.maxBytes);
      } catch (err) {
        throw this.failed(err, abort.signal.aborted && !signal?.aborted);
      }
      if (res.statusCode >= 400) throw new UpstreamTransportError(`HTTP ${res.statusCode} from the upstream`, res.statusCode >= 500 ? "cut" : "refused");
      const type = String(res.headers["content-type"] ?? "");
      if (this.o.onNotification && type.includes("text/event-stream")) for (const method of notificationsIn(text)) this.o.onNotification(method);
      const answer = type.includes("text/event-stream") ? fromEventStream(text, msg.id) : fromJson(text, msg.id);
      if (!answer) throw new UpstreamTransportError("the upstream's answer is not an MCP (JSON-RPC) answer", "invalid");
      return { status: res.statusCode, result: answer.result, error: answer.error, sessionId };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** A failure after the request was written: it reached the upstream. */
  private failed(err: unknown, timedOut: boolean): Error {
    if (err instanceof UpstreamTransportError) return err;
    if (timedOut) return new UpstreamTransportError(`no answer within ${this.o.timeoutMs} ms`, "timeout");
    return new UpstreamTransportError(err instanceof Error ? err.message : String(err), "cut");
  }
}

async function readBounded(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      throw new UpstreamTransportError(`the upstream's answer is larger than ${max} bytes`, "oversize");
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString("utf8");
}

const isAnswer = (m: unknown, id: number): m is RpcMessage => typeof m === "object" && m !== null && (m as RpcMessage).jsonrpc === "2.0" && (m as RpcMessage).id === id;

function fromJson(text: string, id: number): RpcMessage | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return (Array.isArray(v) ? v : [v]).find((m) => isAnswer(m, id));
  } catch {
    return undefined;
  }
}

/** The data of each event of a server-sent event stream (its `data:` lines joined); events without data left out. */
function eventData(text: string): string[] {
  const out: string[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""))
      .join("\n");
    if (data) out.push(data);
  }
  return out;
}

/** The answer with `id` among a server-sent event stream's `message` events (notifications before it are skipped). */
function fromEventStream(text: string, id: number): RpcMessage | undefined {
  for (const data of eventData(text)) {
    const found = fromJson(data, id);
    if (found) return found;
  }
  return undefined;
}

/** The methods of the notifications (messages with a method and no id) among an event stream's events. */
function notificationsIn(text: string): string[] {
  const methods: string[] = [];
  for (const data of eventData(text)) {
    try {
      const m = JSON.parse(data) as { jsonrpc?: unknown; id?: unknown; method?: unknown };
      if (m?.jsonrpc === "2.0" && m.id === undefined && typeof m.method === "string") methods.push(m.method);
    } catch {
      // Not JSON: not a notification.
    }
  }
  return methods;
}
