import { EventEmitter } from "node:events";
import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Request, Response } from "express";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { GatewayError, toErrorBody } from "@gateway/errors";
import type { KeyContext } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { requireRoute } from "../catalog/visibility.js";
import { hashKey, keyOf, secretOf } from "../http/auth.js";
import { writeGatewayHeaders } from "../http/headers.js";
import { RequestContext, type Authenticated } from "../http/request-context.js";
import { traceRequests } from "../http/tracing.js";
import { responsesRoute } from "./responses.js";
import { handle } from "../pipeline/route.js";

/**
 * The Responses API's WebSocket mode (`GET /v1/responses` with `Upgrade: websocket`), as OpenAI
 * serves it: the key is checked on the upgrade (401 and the rest refused before it, as over HTTP),
 * then each `response.create` message is a turn, answered with the same events a streamed
 * `POST /v1/responses` sends, one event a message. A turn is a request of its own: its own request
 * (trace) id, admission, hold, attempts, usage record and guardrails, run by the one runner
 * (pipeline/route.ts `handle` with the HTTP route's spec); what it writes goes to a sink that turns
 * the relayed SSE frames into messages. A connection closed mid-turn is a client that left (billed
 * as an abandoned stream). Providers are reached over their HTTP APIs, whatever the deployment.
 *
 * Each turn starts with a `gateway.turn` event that carries what HTTP says in headers (trace id,
 * provider, retries and fallbacks, rate-limit state); a refused turn is an `error` event with its
 * HTTP status and those headers, and the connection stays open. Bounds: one turn at a time, turns
 * per connection and its age (then `websocket_connection_limit_reached`, and Codex reconnects), an
 * idle timeout between turns, connections per key and per replica, a message as large as a body.
 * On shutdown an idle connection closes with 1001 at once, a busy one once its turn has ended.
 */
export interface ResponsesSockets {
  /** The http server's `upgrade` listener. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** The replica is stopping: idle connections close (1001) now, the others after their turn; no new ones. */
  stop(): void;
  /** Cuts every connection still open (the end of the shutdown). */
  terminate(): void;
  /** Open connections. */
  readonly open: number;
}

/** Above this many bytes waiting to be sent, the relay waits for the socket to drain (as res.write's false). */
const HIGH_WATER = 64 * 1024;
/** The path of the WebSocket mode (a query string is ignored). */
const PATH = "/v1/responses";

type Turn = (req: Request, res: Response, rq: Authenticated) => Promise<void>;

export function responsesSockets(ctx: DataPlaneContext): ResponsesSockets {
  const limits = ctx.config.ws;
  const wss = new WebSocketServer({ noServer: true, maxPayload: ctx.config.bodyLimits.responses, perMessageDeflate: false, clientTracking: false });
  const run: Turn = handle(ctx, responsesRoute);
  const traced = ctx.tracing ? traceRequests(ctx.tracing) : undefined;
  const open = new Set<Connection>();
  /** Open connections by key hash (entries removed at 0: bounded by the replica's connections). */
  const perKey = new Map<string, number>();
  let stopping = false;

  const release = (c: Connection) => {
    if (!open.delete(c)) return;
    const n = (perKey.get(c.keyHash) ?? 1) - 1;
    if (n <= 0) perKey.delete(c.keyHash);
    else perKey.set(c.keyHash, n);
    ctx.metrics.wsConnections.set(open.size);
  };

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const requestId = new RequestContext().requestId;
    socket.on("error", () => socket.destroy());
    try {
      const path = (req.url ?? "").split("?")[0];
      if (path !== PATH) throw new GatewayError("not_found", `Unknown route: ${req.method} ${path} (WebSocket upgrade)`);
      if (String(req.headers.upgrade).toLowerCase() !== "websocket") throw new GatewayError("invalid_request", "Only 'Upgrade: websocket' is served on /v1/responses.");
      if (stopping) throw new GatewayError("service_unavailable", "The gateway is restarting; connect again.", { retry_after_s: 1 });
      const secret = secretOf(req.headers);
      if (typeof secret !== "string") throw secret;
      const keyHash = hashKey(secret);
      const key = await keyOf(ctx.keys, keyHash);
      requireRoute(key, "responses");
      if (open.size >= limits.maxConnections)
        throw new GatewayError("service_unavailable", "This gateway replica holds all the WebSocket connections it may; connect again, or use POST /v1/responses.", { retry_after_s: 1 });
      if ((perKey.get(keyHash) ?? 0) >= limits.maxConnectionsPerKey) {
        throw new GatewayError(
          "rate_limit_exceeded",
          `This API key holds ${limits.maxConnectionsPerKey} WebSocket connections already (DATA_PLANE_WS_MAX_CONNECTIONS_PER_KEY); close one, or use POST /v1/responses.`,
          { retry_after_s: 1 },
        );
      }
      if (socket.destroyed || stopping) return void socket.destroy();
      // Counted before the handshake completes, so racing upgrades cannot pass the bounds together.
      perKey.set(keyHash, (perKey.get(keyHash) ?? 0) + 1);
      const c = new Connection(ctx, limits, run, traced, socket, req.headers, keyHash, () => release(c));
      open.add(c);
      ctx.metrics.wsConnections.set(open.size);
      wss.handleUpgrade(req, socket, head, (ws) => c.attach(ws));
      // A handshake ws refused (a bad Sec-WebSocket-Key or version) ends the socket: the count goes with it.
      socket.once("close", () => c.closed());
    } catch (err) {
      refuse(ctx, socket, err, requestId);
    }
  };

  return {
    upgrade: (req, socket, head) => void upgrade(req, socket, head),
    stop() {
      stopping = true;
      for (const c of open) c.shutdown();
    },
    terminate() {
      for (const c of open) c.terminate();
    },
    get open() {
      return open.size;
    },
  };
}

/** Whether a request is the WebSocket mode's upgrade (the http server's shouldUpgradeCallback); any other is served as a request. */
export function isResponsesUpgrade(req: IncomingMessage): boolean {
  return typeof req.headers.upgrade === "string" && req.headers.upgrade.toLowerCase() === "websocket" && (req.url ?? "").split("?")[0] === PATH;
}

/** An upgrade refused: the error as HTTP, the gateway's error object, and the socket closed. */
function refuse(ctx: DataPlaneContext, socket: Duplex, err: unknown, requestId: string): void {
  let e: GatewayError;
  if (err instanceof GatewayError) e = err;
  else {
    ctx.log.error({ err, request_id: requestId }, "WebSocket upgrade failed");
    e = new GatewayError("internal_error", "The gateway could not complete the request.");
  }
  if (socket.destroyed) return;
  const body = JSON.stringify(toErrorBody(e, requestId));
  const retry = e.context.retry_after_s !== undefined ? `retry-after: ${e.context.retry_after_s}\r\n` : "";
  socket.end(
    `HTTP/1.1 ${e.httpStatus} ${STATUS_CODES[e.httpStatus] ?? ""}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nx-gateway-trace-id: ${requestId}\r\n${retry}\r\n${body}`,
  );
}

/** One WebSocket connection: its key, its turns one at a time, its timers. */
class Connection {
  private ws: WebSocket | undefined;
  private readonly openedAt = Date.now();
  private turns = 0;
  /** The turn running, if any. */
  private sink: TurnSink | undefined;
  private idle: NodeJS.Timeout | undefined;
  private stopping = false;
  private gone = false;

  constructor(
    private readonly ctx: DataPlaneContext,
    private readonly limits: DataPlaneContext["config"]["ws"],
    private readonly run: Turn,
    private readonly traced: ReturnType<typeof traceRequests> | undefined,
    private readonly socket: Duplex,
    private readonly headers: IncomingHttpHeaders,
    readonly keyHash: string,
    private readonly released: () => void,
  ) {
    // The relay waits on the sink's 'drain' when a write found the socket's buffer full.
    socket.on("drain", () => this.sink?.emit("drain"));
  }

  attach(ws: WebSocket): void {
    this.ws = ws;
    if (this.gone || this.stopping) return void ws.close(1001, "going away");
    ws.on("message", (data, binary) => this.message(data, binary));
    ws.on("close", () => this.closed());
    ws.on("error", () => ws.terminate());
    this.armIdle();
  }

  /** The connection ended (either side): a turn running is a client that left. */
  closed(): void {
    if (this.gone) return;
    this.gone = true;
    clearTimeout(this.idle);
    this.sink?.leave();
    this.released();
  }

  shutdown(): void {
    this.stopping = true;
    if (!this.sink) this.close(1001, "going away");
  }

  terminate(): void {
    this.ws?.terminate();
    this.socket.destroy();
    this.closed();
  }

  private close(code: number, reason: string): void {
    clearTimeout(this.idle);
    if (this.ws) this.ws.close(code, reason);
    else this.socket.destroy();
  }

  private armIdle(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close(1000, "idle timeout"), this.limits.idleTimeoutMs);
    this.idle.unref();
  }

  /** Sends one event (a JSON text) now. */
  send(json: string): void {
    this.ws?.send(json);
  }

  private message(data: RawData, binary: boolean): void {
    if (this.gone) return;
    let msg: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = binary ? undefined : JSON.parse(String(data));
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) msg = parsed as Record<string, unknown>;
    } catch {
      // refused below
    }
    if (!msg) return this.refused(new GatewayError("invalid_json", 'Each message is a JSON object sent as text: {"type": "response.create", …the Responses create body}.'));
    // Codex's acknowledgement of a response it has handled: nothing to do.
    if (msg.type === "response.processed") return;
    if (msg.type !== "response.create") return this.refused(new GatewayError("invalid_request", `Unknown message type '${String(msg.type)}': send 'response.create'.`, { param: "type" }));
    if (this.sink) {
      // One turn at a time (OpenAI's rule too): a client that does not wait is not queued.
      this.refused(new GatewayError("invalid_request", "A response is already in progress on this connection: send the next 'response.create' after its terminal event.", { param: "type" }));
      return this.close(1008, "one response at a time");
    }
    if (this.stopping) return this.close(1001, "going away");
    if (this.turns >= this.limits.maxTurns || Date.now() - this.openedAt >= this.limits.maxAgeMs) {
      this.refused(
        new GatewayError(
          "websocket_connection_limit_reached",
          `This WebSocket connection has carried its ${this.turns >= this.limits.maxTurns ? `${this.limits.maxTurns} turns` : "time"}; open a new connection to continue.`,
        ),
      );
      return this.close(1000, "connection limit reached");
    }
    this.turns++;
    clearTimeout(this.idle);
    void this.turn(msg, typeof data === "string" ? Buffer.byteLength(data) : Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength);
  }

  /** An error event outside any turn (a message that is not one), the connection left open. */
  private refused(err: GatewayError): void {
    const rq = new RequestContext();
    this.send(errorEvent(err, rq.requestId, {}));
  }

  /** One turn: a request of its own through the runner, written to a sink. */
  private async turn(msg: Record<string, unknown>, bytes: number): Promise<void> {
    const rq = new RequestContext();
    const sink = new TurnSink(this, rq);
    this.sink = sink;
    try {
      // The key is read again for every turn (from the cache, as HTTP does per request): a key revoked
      // or narrowed since the upgrade stops here.
      let key: KeyContext;
      try {
        key = await keyOf(this.ctx.keys, this.keyHash);
      } catch (err) {
        sink.fail(err);
        if (err instanceof GatewayError && err.httpStatus === 401) this.close(1008, "API key no longer valid");
        return;
      }
      rq.key = key;
      rq.keyHash = this.keyHash;
      rq.bodyBytes = bytes;
      const { type: _type, generate, ...body } = msg;
      const req = { method: "GET", path: PATH, url: PATH, route: { path: PATH }, headers: this.headers, body: { ...body, stream: true } } as unknown as Request;
      if (generate === false) return this.warmUp(sink, rq, req);
      const authed = rq as Authenticated;
      const go = () => this.run(req, sink as unknown as Response, authed).catch((err: unknown) => sink.fail(err));
      if (this.traced) await new Promise<void>((resolve) => this.traced!(req, sink as unknown as Response, () => void go().then(resolve)));
      else await go();
    } catch (err) {
      sink.fail(err);
    } finally {
      sink.finish();
      this.sink = undefined;
      this.log(rq, sink);
      if (!this.gone) {
        if (this.stopping) this.close(1001, "going away");
        else this.armIdle();
      }
    }
  }

  /**
   * `generate: false` (Codex sends one to warm a new connection up): OpenAI prepares the request and
   * generates nothing. The gateway checks the body and the key's route and answers an empty completed
   * response; no provider is called, nothing is held or billed, and nothing is stored.
   */
  private warmUp(sink: TurnSink, rq: Authenticated | RequestContext, req: Request): void {
    try {
      const key = rq.key!;
      requireRoute(key, "responses");
      const parsed = responsesRoute.parse(req.body);
      const model = parsed.raw.model;
      rq.model = model;
      const response = {
        id: parsed.id,
        object: "response",
        created_at: Math.floor(rq.startedAt / 1000),
        status: "completed",
        model,
        output: [],
        store: false,
        usage: { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 },
      };
      sink.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
      sink.end(
        `event: response.created\ndata: ${JSON.stringify({ type: "response.created", sequence_number: 0, response: { ...response, status: "in_progress", usage: null } })}\n\n` +
          `event: response.completed\ndata: ${JSON.stringify({ type: "response.completed", sequence_number: 1, response })}\n\n`,
      );
    } catch (err) {
      sink.fail(err);
    }
  }

  private log(rq: RequestContext, sink: TurnSink): void {
    const route = "WS /v1/responses";
    const status = String(sink.statusCode);
    this.ctx.metrics.httpRequests.inc({ route, status });
    const seconds = Number(process.hrtime.bigint() - rq.startedHr) / 1e9;
    this.ctx.metrics.httpDuration.observe({ route }, seconds);
    if (this.ctx.log.isLevelEnabled("info"))
      this.ctx.log.info(
        { request_id: rq.requestId, method: "WS", path: PATH, status: sink.statusCode, ms: Math.round(seconds * 1e4) / 10, org_id: rq.key?.org_id, key_id: rq.key?.key_id, model: rq.model },
        "request",
      );
  }

  /** An unexpected failure of a turn, logged. */
  ctxLog(err: unknown, requestId: string): void {
    this.ctx.log.error({ err, request_id: requestId }, "unhandled error");
  }

  /** The socket's send buffer, bytes. */
  get buffered(): number {
    return this.ws?.bufferedAmount ?? 0;
  }

  get cork(): Duplex {
    return this.socket;
  }
}

/** The headers HTTP would have sent with a turn's answer, as one object (lower-case names). */
type Headers = Record<string, string>;

/** The `error` event of a refused turn: OpenAI's WebSocket shape (status, error object), with the headers. */
function errorEvent(err: GatewayError, requestId: string, headers: Headers): string {
  return JSON.stringify({ type: "error", status: err.httpStatus, ...toErrorBody(err, requestId), headers: { ...headers, "x-request-id": requestId, "x-gateway-trace-id": requestId } });
}

/**
 * Where a turn's runner writes, in place of an HTTP response: headers are kept (and sent as the
 * `gateway.turn` event when the answer starts), each SSE event written becomes one message (its
 * data), and the end ends the turn. It follows the parts of a response the pipeline uses: headers,
 * write with backpressure ('drain'), end, and 'close' before the end when the client left.
 */
class TurnSink extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  writableFinished = false;
  readonly locals: Record<string, unknown>;
  /** The relay uncorks the response's socket: there is none here (messages are corked per write). */
  readonly socket = undefined;
  private readonly headers: Headers = {};
  /** The relayed SSE text, as messages. */
  private readonly split: SseSplitter;
  private stream = true;
  private left = false;

  constructor(
    private readonly conn: Connection,
    private readonly rq: RequestContext,
  ) {
    super();
    this.locals = { request: rq };
    this.split = new SseSplitter((data) => conn.send(data));
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.headers[name.toLowerCase()];
  }

  removeHeader(name: string): void {
    delete this.headers[name.toLowerCase()];
  }

  writeHead(status: number, headers?: Record<string, string>): this {
    if (this.headersSent) return this;
    this.statusCode = status;
    if (headers) for (const [k, v] of Object.entries(headers)) this.setHeader(k, v);
    this.headersSent = true;
    this.stream = (this.headers["content-type"] ?? "").startsWith("text/event-stream");
    if (this.left) return this;
    const { requestId } = this.rq;
    const h: Headers = { "x-request-id": requestId, "x-gateway-trace-id": requestId };
    for (const [k, v] of Object.entries(this.headers)) if (k.startsWith("x-") || k === "server-timing") h[k] = v;
    this.conn.send(JSON.stringify({ type: "gateway.turn", request_id: requestId, headers: h }));
    return this;
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  write(chunk: string | Uint8Array): boolean {
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (this.left) return true;
    this.frames(typeof chunk === "string" ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("utf8"));
    return this.conn.buffered < HIGH_WATER;
  }

  end(chunk?: string | Uint8Array): this {
    if (this.writableFinished) return this;
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (chunk !== undefined && !this.left) {
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("utf8");
      // A JSON answer (a dry run's estimate) is one message as it is.
      if (this.stream) this.frames(text);
      else if (text) this.conn.send(text);
    }
    this.writableFinished = true;
    this.emit("finish");
    this.emit("close");
    return this;
  }

  destroy(): this {
    this.leave();
    return this;
  }

  /** The connection closed: a turn not ended is a client that left ('close' before the end). */
  leave(): void {
    if (this.left || this.writableFinished) return;
    this.left = true;
    this.emit("close");
  }

  /** The runner threw: before the answer started, the error event (with the headers); after, an error event ends the turn. */
  fail(err: unknown): void {
    if (this.writableFinished) return;
    let e: GatewayError;
    if (err instanceof GatewayError) e = err;
    else {
      this.conn.ctxLog(err, this.rq.requestId);
      e = new GatewayError("internal_error", "The gateway could not complete the request.");
    }
    if (!this.left) {
      if (!this.headersSent) writeGatewayHeaders(this as unknown as Response, this.rq, true);
      const h: Headers = {};
      for (const [k, v] of Object.entries(this.headers)) if (k.startsWith("x-") || k === "server-timing") h[k] = v;
      if (e.context.retry_after_s !== undefined) h["retry-after"] = String(e.context.retry_after_s);
      this.conn.send(errorEvent(e, this.rq.requestId, h));
    }
    this.statusCode = this.headersSent ? this.statusCode : e.httpStatus;
    this.headersSent = true;
    this.writableFinished = true;
    this.emit("finish");
    this.emit("close");
  }

  /** The turn's runner returned: a sink it left open (a client that left) is closed. */
  finish(): void {
    if (!this.writableFinished && this.left) this.statusCode = 499;
    if (!this.writableFinished) {
      this.writableFinished = true;
      this.emit("close");
    }
    this.removeAllListeners();
  }

  /** Each complete SSE event of `text` (after what was carried) is sent as one message: its data; corked, one write. */
  private frames(text: string): void {
    const socket = this.conn.cork;
    socket.cork();
    try {
      this.split.push(text);
    } finally {
      socket.uncork();
    }
  }
}

/**
 * Splits SSE text written in any pieces into its events' data (`data:` lines joined; comments and
 * `[DONE]` dropped), each handed to `emit` as soon as its event is complete. Holds at most one
 * unfinished event.
 */
export class SseSplitter {
  private carry = "";

  constructor(private readonly emit: (data: string) => void) {}

  push(text: string): void {
    let s = this.carry ? this.carry + text : text;
    // CRLF or CR line ends as LF; a CR at the very end waits for what follows it (an LF, maybe).
    const cr = s.endsWith("\r");
    if (cr) s = s.slice(0, -1);
    if (s.includes("\r")) s = s.replace(/\r\n?/g, "\n");
    let at = 0;
    for (;;) {
      const end = s.indexOf("\n\n", at);
      if (end === -1) break;
      const data = dataOf(s, at, end);
      if (data !== undefined && data !== "[DONE]") this.emit(data);
      at = end + 2;
    }
    this.carry = (at === s.length ? "" : s.slice(at)) + (cr ? "\r" : "");
  }
}

/** The data of the SSE event s[from, to) (its `data:` lines joined), undefined when it has none (a comment). */
function dataOf(s: string, from: number, to: number): string | undefined {
  let data: string | undefined;
  let i = from;
  while (i < to) {
    let nl = s.indexOf("\n", i);
    if (nl === -1 || nl > to) nl = to;
    if (s.startsWith("data:", i)) {
      const v = s.slice(i + (s.charCodeAt(i + 5) === 32 ? 6 : 5), nl);
      data = data === undefined ? v : `${data}\n${v}`;
    }
    i = nl + 1;
  }
  return data;
}
