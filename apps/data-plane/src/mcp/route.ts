import { createHash } from "node:crypto";
import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { UsageEventV1 } from "@gateway/events";
import type { KeyContext, McpServer } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import type { Authenticated } from "../http/request-context.js";
import { writeGatewayHeaders } from "../http/headers.js";
import { guardrailOutcomes, runStage, TextCollector } from "../guardrails/index.js";
import { headerValue } from "@gateway/guardrails";
import { publishDenial, publishUsage } from "../pipeline/bill.js";
import { openSession, signSession } from "./session.js";
import { UpstreamMcpError, type UpstreamTool } from "./upstream.js";
import { pinRefusal, pinStates } from "./pins.js";

/**
 * The MCP gateway's endpoint (docs/mcp.md): `POST /mcp` (every server the key may use, tool names
 * `<server>__<tool>`) and `POST /mcp/{server}` (one server, its own tool names), over MCP's
 * Streamable HTTP transport with JSON answers. The gateway is the MCP server its callers see: it
 * answers `initialize` itself with a signed session id any replica accepts, lists only the tools
 * the key may call, and forwards `tools/call` to the upstream over this replica's own session with
 * it. A tool the key may not call is a JSON-RPC error naming it, and nothing reaches the upstream.
 */

/** The protocol versions the official TypeScript SDK negotiates (newest first). */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"] as const;
const SEPARATOR = "__";

/** JSON-RPC error codes: the standard ones, and the gateway's (data.code names the gateway error). */
const RPC = { invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, gateway: -32010 } as const;

interface RpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}
type RpcAnswer = { jsonrpc: "2.0"; id: unknown; result: unknown } | { jsonrpc: "2.0"; id: unknown; error: { code: number; message: string; data?: unknown } };

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The servers a key may use: enabled for its organization, in the catalog, and (for /mcp/{server}) the one asked for. */
function serversFor(ctx: DataPlaneContext, key: KeyContext, only: string | undefined): McpServer[] {
  const catalog = ctx.catalog.current.mcpServers;
  const names = only ? [only] : (key.org_mcp_servers ?? []);
  return names.filter((n) => (key.org_mcp_servers ?? []).includes(n)).flatMap((n) => catalog.get(n) ?? []);
}

/** A tool is offered to a key when the catalog lists it for the server (the upstream may have more) and the key's allowlist, if any, names it or its server. */
const offered = (key: KeyContext, server: McpServer, tool: string) => {
  if (!server.tools.some((t) => t.name === tool)) return false;
  const allow = key.mcp_tool_allowlist ?? [];
  return allow.length === 0 || allow.includes(`${server.name}/${tool}`) || allow.includes(`${server.name}/*`);
};

async function listTools(ctx: DataPlaneContext, key: KeyContext, servers: McpServer[], federated: boolean): Promise<UpstreamTool[]> {
  const lists = await Promise.all(
    servers.map(async (s) => {
      try {
        // What is listed of a tool is its pinned definition (pins.ts), never the upstream's own object.
        return [...pinStates(ctx, s, await ctx.mcp.tools(s, key))].flatMap(([name, pinned]) => {
          const tool = offered(key, s, name) ? pinned.shown() : undefined;
          return tool ? [federated ? { ...tool, name: `${s.name}${SEPARATOR}${name}` } : tool] : [];
        });
      } catch (err) {
        // One server down leaves the others' tools listed (its calls answer the outage); a single server's list fails.
        if (!federated) throw err;
        ctx.log.warn({ err, server: s.name }, "MCP server's tools not listed");
        return [];
      }
    }),
  );
  return lists.flat();
}

function resolveTool(key: KeyContext, servers: McpServer[], name: string, federated: boolean): { server: McpServer; tool: string } {
  const unknown = () => new RpcError(RPC.invalidParams, `Unknown tool: ${name}`, { code: "tool_not_allowed", tool: name });
  const at = federated ? name.indexOf(SEPARATOR) : -1;
  const serverName = federated ? (at > 0 ? name.slice(0, at) : "") : servers[0]?.name;
  const tool = federated ? name.slice(at + SEPARATOR.length) : name;
  const server = servers.find((s) => s.name === serverName);
  if (!server || !offered(key, server, tool)) throw unknown();
  return { server, tool };
}

/**
 * The string leaves of a JSON value (tool arguments, a structured result) as guardrail texts; a
 * mask gives a copy, the caller's value is never changed. Bounded: 1,000 strings, 32 levels.
 */
function jsonTexts(value: unknown): TextCollector<unknown> {
  const texts = new TextCollector(value);
  let seen = 0;
  const walk = (node: unknown, path: Array<string | number>) => {
    if (path.length > 32 || seen >= 1_000 || typeof node !== "object" || node === null) return;
    const entries: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (const [k, v] of entries) {
      if (typeof v === "string") {
        seen++;
        texts.add(v, ...path, k);
      } else walk(v, [...path, k]);
    }
  };
  walk(value, []);
  return texts;
}

/** Runs a guardrail stage on a JSON value; the (masked copy of the) value, or a JSON-RPC error naming the denial. */
async function guarded(ctx: DataPlaneContext, rq: Authenticated, stage: "input" | "output", value: unknown): Promise<unknown> {
  try {
    return (await runStage(ctx, rq, "mcp", stage, () => jsonTexts(value))) ?? value;
  } catch (err) {
    if (err instanceof GatewayError && err.code === "guardrail_denied") throw new RpcError(RPC.gateway, err.message, { code: "guardrail_denied", stage });
    throw err;
  }
}

/** Who is calling, for billing and the record of each tool call. */
interface CallerOf {
  /** The HTTP request's context: its key, and its guardrail outcomes (guardrails/index.ts). */
  rq: Authenticated;
  /** The record's id: the HTTP request's, suffixed for the second and later calls of a batch. */
  requestId: string;
  startedAt: number;
}

/** The SHA-256 of a call's arguments as JSON (hex): what its record keeps of them. */
const sha256 = (args: Record<string, unknown>) => createHash("sha256").update(JSON.stringify(args)).digest("hex");

/** The usage event of one tool call (route `mcp`, the model `server/tool`): no tokens, its cost in its line items. */
function toolCallEvent(
  caller: CallerOf,
  target: { server: McpServer; tool: string },
  o: { provider: string; leaseId: string; costMinor: number; lineItems: UsageEventV1["line_items"]; status: number; durationMs: number; catalogVersion: number },
): UsageEventV1 {
  const { key } = caller.rq;
  return {
    version: 1,
    request_id: caller.requestId,
    org_id: key.org_id,
    key_id: key.key_id,
    model: `${target.server.name}/${target.tool}`,
    route: "mcp",
    provider: o.provider,
    upstream_model: target.tool,
    lease_id: o.leaseId,
    catalog_version: o.catalogVersion,
    usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cache_creation_input_tokens: 0, reasoning_tokens: 0, estimated: false },
    input_price_minor_per_mtok: 0,
    output_price_minor_per_mtok: 0,
    cost_minor: o.costMinor,
    line_items: o.lineItems,
    attempts: [],
    guardrails: guardrailOutcomes(caller.rq),
    stream: false,
    status: o.status,
    created_at_ms: caller.startedAt,
    duration_ms: o.durationMs,
  };
}

/**
 * One tool call, held, made and recorded (docs/mcp.md): the key's rate limit first (429), then the
 * tool's price held from the organization's credit (402 when it cannot be covered); the upstream
 * answers (a tool's own error is an answer: billed); the record — a usage event of route `mcp`,
 * one line item with the server, the tool, the SHA-256 of the arguments, the result's size and the
 * outcome — is durable before the answer is released, and bills the price exactly once (its id is
 * the request's). A call the upstream did not answer is recorded at zero.
 */
async function callTool(ctx: DataPlaneContext, caller: CallerOf, target: { server: McpServer; tool: string }, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  const { key } = caller.rq;
  const { server, tool } = target;
  // A tool whose definition is not approved (changed, new since its server's tools were pinned, too large) is not called.
  const unpinned = pinRefusal(ctx, server, await ctx.mcp.tools(server, key), tool, name);
  if (unpinned) throw new RpcError(RPC.gateway, unpinned.message, unpinned.data);
  // The key's limits (429 when over); their state goes out in the x-ratelimit-* headers, as on model routes.
  const limits = ctx.rateLimiter.admit(key.key_id, key.rpm_limit, key.tpm_limit);
  if (limits) caller.rq.rateLimit = limits;
  // Input rules on the arguments (a denial holds and sends nothing), before the price is held. A
  // denial is recorded at zero (no call made: no provider), like a model route's; its error names the record.
  // Priced on the catalog as it is now, the version the record names (the ledger checks the price against it).
  const view = ctx.catalog.current;
  const price = (view.mcpServers.get(server.name) ?? server).tools.find((t) => t.name === tool)?.price_minor ?? 0;
  let sent: Record<string, unknown>;
  try {
    sent = (await guarded(ctx, caller.rq, "input", args)) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof RpcError) || (err.data as { code?: string } | undefined)?.code !== "guardrail_denied") throw err;
    // Which arguments were refused (their hash, as every call's record has it), none of them called.
    const refused = { server: server.name, tool, arguments_sha256: sha256(args), outcome: "guardrail_denied" };
    const denial = toolCallEvent(caller, target, {
      provider: "",
      leaseId: "",
      costMinor: 0,
      lineItems: [{ item: "tool_call", quantity: 0, unit_price_minor: price, per: "call", attributes: refused }],
      status: 400,
      durationMs: 0,
      catalogVersion: view.version,
    });
    await publishDenial(ctx, denial);
    throw new RpcError(err.code, err.message, { ...(err.data as object), request_id: caller.requestId });
  }
  // The caller left before the call was made: none is made (nobody would get its answer), nothing is recorded.
  if (signal.aborted) throw new RpcError(RPC.gateway, "The caller left before the tool was called.", { code: "client_gone" });
  // Every tool call is recorded, priced or not: none is made whose record could not be kept (the
  // spool is full while NATS is away), as no paid model request is.
  if (ctx.publisher.saturated) throw new RpcError(RPC.gateway, "Usage recording is backed up; tool calls are paused. Retry shortly.", { code: "service_unavailable", retry_after_s: 5 });
  const reservation = price > 0 ? await ctx.leases.reserve(key.org_id, price, key.monthly_budget_minor) : undefined;
  const started = performance.now();
  let result: Record<string, unknown> | undefined;
  let failure: unknown;
  let resultBytes = 0;
  try {
    // Not cut when the caller leaves: the tool may already be acting (a mail sent), so the call runs
    // to its answer (or the MCP timeout) and is billed as answered, its record marked 499.
    result = await ctx.mcp.call(server, key, tool, sent);
    resultBytes = Buffer.byteLength(JSON.stringify(result));
    if (resultBytes > ctx.config.mcp.maxResultBytes) {
      throw new RpcError(RPC.gateway, `The result of ${name} is ${resultBytes} bytes, more than the gateway relays (${ctx.config.mcp.maxResultBytes}).`, { code: "result_too_large" });
    }
    // Output rules on the result's text and structured content (a denial is still billed: the tool did the work).
    result = (await guarded(ctx, caller.rq, "output", result)) as Record<string, unknown>;
  } catch (err) {
    failure = err;
  }
  // Sent means billed: the upstream answered (a result, too large to relay or not), or the call
  // reached it and no whole answer came back (no answer in time, one past the read bound, cut): the
  // tool may have acted, so its price is due. A call that never reached it (refused connection,
  // session not initialized, HTTP 4xx) or that the server refused as a protocol error (a JSON-RPC
  // error: the tool did not run; a tool's own failure is a result with isError) costs nothing.
  const answered = result !== undefined;
  const billed = answered || (failure instanceof UpstreamMcpError && failure.sent);
  const costMinor = billed ? price : 0;
  const rpcCode = failure instanceof RpcError ? (failure.data as { code?: string } | undefined)?.code : undefined;
  const status =
    signal.aborted && billed ? 499 : !failure ? 200 : rpcCode === "guardrail_denied" ? 400 : rpcCode ? 413 : failure instanceof UpstreamMcpError ? (failure.kind === "timeout" ? 504 : 502) : 502;
  const outcome = !failure ? (result?.isError ? "tool_error" : "ok") : failure instanceof UpstreamMcpError ? failure.kind : (rpcCode ?? "upstream_error");
  const event = toolCallEvent(caller, target, {
    provider: server.name,
    leaseId: reservation?.leaseId ?? "",
    costMinor,
    lineItems: [
      {
        item: "tool_call",
        quantity: 1,
        unit_price_minor: price,
        per: "call",
        attributes: { server: server.name, tool, arguments_sha256: sha256(args), result_bytes: String(resultBytes), outcome },
      },
    ],
    status,
    durationMs: Math.round(performance.now() - started),
    catalogVersion: view.version,
  });
  try {
    await publishUsage(ctx, caller.rq, event);
  } catch (err) {
    reservation?.settle(0);
    // Unrecorded, so unbilled: the answer is not released (docs/billing.md: never an answer without its bill).
    ctx.log.error({ err, request_id: caller.requestId }, "an MCP tool call could not be recorded");
    throw new RpcError(RPC.gateway, "The gateway could not record this tool call; it was not billed. Retry.", { code: "service_unavailable" });
  }
  reservation?.settle(costMinor);
  // An upstream's failure names the call's record (what it cost: a call that was sent is billed).
  if (failure instanceof UpstreamMcpError) {
    throw new RpcError(RPC.gateway, failure.message, { code: failure.kind === "timeout" ? "upstream_timeout" : "upstream_error", request_id: caller.requestId, cost_minor: costMinor });
  }
  if (failure) throw failure;
  // Where the caller reads what this call cost (GET /v1/usage/{id}).
  const outcomes = guardrailOutcomes(caller.rq);
  return {
    ...result,
    _meta: {
      ...((result!._meta as Record<string, unknown> | undefined) ?? {}),
      "gateway/request_id": caller.requestId,
      "gateway/cost_minor": costMinor,
      ...(outcomes.length ? { "gateway/guardrails": headerValue(outcomes) } : {}),
    },
  };
}

async function answer(ctx: DataPlaneContext, call: CallerOf, msg: RpcMessage, servers: McpServer[], federated: boolean, signal: AbortSignal): Promise<unknown> {
  const params = (msg.params ?? {}) as Record<string, unknown>;
  switch (msg.method) {
    case "ping":
      return {};
    case "tools/list":
      return { tools: await listTools(ctx, call.rq.key, servers, federated) };
    case "tools/call": {
      if (typeof params.name !== "string") throw new RpcError(RPC.invalidParams, "tools/call needs params.name (a tool name)");
      const args = params.arguments ?? {};
      if (typeof args !== "object" || args === null || Array.isArray(args)) throw new RpcError(RPC.invalidParams, "params.arguments must be an object");
      return callTool(ctx, call, resolveTool(call.rq.key, servers, params.name, federated), params.name, args as Record<string, unknown>, signal);
    }
    case "resources/list":
      return { resources: [] };
    case "resources/templates/list":
      return { resourceTemplates: [] };
    case "prompts/list":
      return { prompts: [] };
    default:
      throw new RpcError(RPC.methodNotFound, `Method not found: ${String(msg.method)}`);
  }
}

function rpcError(id: unknown, err: unknown): RpcAnswer {
  if (err instanceof RpcError) return { jsonrpc: "2.0", id, error: { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) } };
  if (err instanceof UpstreamMcpError) {
    const code = err.kind === "timeout" ? "upstream_timeout" : "upstream_error";
    return { jsonrpc: "2.0", id, error: { code: RPC.gateway, message: err.message, data: { code } } };
  }
  // The upstream's own JSON-RPC error (its code and message), relayed.
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e.code === "number" && e.code < 0) return { jsonrpc: "2.0", id, error: { code: e.code, message: String(e.message ?? "upstream error") } };
  return { jsonrpc: "2.0", id, error: { code: RPC.internal, message: "Internal error" } };
}

/** A gateway refusal (402, 429 …) of one message of a batch, as its JSON-RPC error: the code and the context the HTTP answer would carry. */
function refusal(id: unknown, err: GatewayError): RpcAnswer {
  return { jsonrpc: "2.0", id, error: { code: RPC.gateway, message: err.message, data: { code: err.code, ...err.context } } };
}

export function mcpPost(ctx: DataPlaneContext) {
  return async (req: Request, res: Response, l: Authenticated): Promise<void> => {
    const { key } = l;
    const only = typeof req.params.server === "string" ? req.params.server : undefined;
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      writeGatewayHeaders(res, l);
      res.status(status).json(body);
    };
    if (key.routes.length > 0 && !key.routes.includes("mcp")) throw new GatewayError("route_not_allowed", "This key may not use the MCP gateway (its routes do not include 'mcp').");
    const servers = serversFor(ctx, key, only);
    if (only && servers.length === 0) throw new GatewayError("not_found", `MCP server '${only}' does not exist or is not enabled for this organization.`);

    const body = req.body as unknown;
    const batch = Array.isArray(body);
    const messages = (batch ? body : [body]) as RpcMessage[];
    if (messages.length === 0 || messages.some((m) => typeof m !== "object" || m === null || m.jsonrpc !== "2.0")) {
      return reply(400, { jsonrpc: "2.0", id: null, error: { code: RPC.invalidRequest, message: "Invalid Request: a JSON-RPC 2.0 message (or an array of them) is expected" } });
    }
    const initializing = messages.some((m) => m.method === "initialize");
    // A protocol version this gateway does not speak is refused (400), as the transport asks.
    const version = req.headers["mcp-protocol-version"];
    if (typeof version === "string" && !initializing && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
      return reply(400, { jsonrpc: "2.0", id: null, error: { code: RPC.invalidRequest, message: `Unsupported MCP-Protocol-Version '${version}' (supported: ${PROTOCOL_VERSIONS.join(", ")})` } });
    }
    // A session id (after initialize) must be ours and this key's; a stale or foreign one tells the client to initialize again.
    const sessionHeader = req.headers["mcp-session-id"];
    if (typeof sessionHeader === "string" && !initializing) {
      const session = openSession(ctx.config.mcp.sessionSecret, sessionHeader);
      if (!session || session.keyId !== key.key_id) return reply(404, { jsonrpc: "2.0", id: null, error: { code: RPC.invalidRequest, message: "Session not found: initialize again" } });
    }

    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const answers: RpcAnswer[] = [];
    let sessionId: string | undefined;
    let calls = 0;
    for (const m of messages) {
      if (m.id === undefined || m.id === null) continue; // a notification or a response: nothing to answer
      if (typeof m.method !== "string") {
        answers.push({ jsonrpc: "2.0", id: m.id, error: { code: RPC.invalidRequest, message: "Invalid Request: no method" } });
        continue;
      }
      if (m.method === "initialize") {
        const asked = (m.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
        const version = typeof asked === "string" && (PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : PROTOCOL_VERSIONS[0];
        sessionId = signSession(ctx.config.mcp.sessionSecret, { keyId: key.key_id, protocolVersion: version, startedAt: Date.now() });
        answers.push({
          jsonrpc: "2.0",
          id: m.id,
          result: {
            protocolVersion: version,
            capabilities: { tools: { listChanged: false } },
            serverInfo: { name: "ai-gateway", version: "1.0.0" },
            instructions: only ? `Tools of the MCP server '${only}' through the gateway.` : "Tools of every MCP server this key may use, named <server>__<tool>.",
          },
        });
        continue;
      }
      const caller: CallerOf = { rq: l, requestId: calls++ === 0 ? l.requestId : `${l.requestId}.${calls}`, startedAt: Date.now() };
      try {
        answers.push({ jsonrpc: "2.0", id: m.id, result: await answer(ctx, caller, m, servers, !only, abort.signal) });
      } catch (err) {
        // Out of credit, over budget or over the rate limit: the HTTP answer says so (402, 429), as on
        // every route — unless earlier messages of the batch were answered (their calls billed):
        // those answers go out, and this message gets the refusal as its JSON-RPC error.
        if (err instanceof GatewayError && answers.length === 0) throw err;
        answers.push(err instanceof GatewayError ? refusal(m.id, err) : rpcError(m.id, err));
      }
    }
    if (answers.length === 0) {
      res.status(202).end();
      return;
    }
    reply(200, batch ? answers : answers[0], sessionId ? { "mcp-session-id": sessionId } : {});
  };
}

/** GET opens no server-to-client stream here (405, as the transport allows); DELETE ends nothing (sessions are stateless). */
export function mcpOther(req: Request, res: Response): void {
  if (req.method === "DELETE") {
    res.status(200).end();
    return;
  }
  res.setHeader("allow", "POST, DELETE");
  res.status(405).json({ error: { message: "The MCP gateway answers POST (and DELETE ends a session); it opens no server-sent stream.", type: "invalid_request_error", code: "invalid_request" } });
}
