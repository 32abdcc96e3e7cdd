import { attributionOf } from "../admission/attribution.js";
import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { KeyContext, McpServer } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import type { Authenticated } from "../http/request-context.js";
import { writeGatewayHeaders } from "../http/headers.js";
import { openSession, signSession } from "./session.js";
import { UpstreamMcpError, type UpstreamTool } from "./upstream.js";
import { keyAllowsRoute } from "../catalog/visibility.js";
import { pinStates } from "./pins.js";
import { RPC, RpcError, type RpcAnswer, type RpcMessage } from "./rpc.js";
import { callTool, type CallerOf } from "./tool-call.js";

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
    if (!keyAllowsRoute(key, "mcp")) throw new GatewayError("route_not_allowed", "This key may not use the MCP gateway (its routes do not include 'mcp').");
    const servers = serversFor(ctx, key, only);
    if (only && servers.length === 0) throw new GatewayError("not_found", `MCP server '${only}' does not exist or is not enabled for this organization.`);

    // A tool call's end user can only be the header's (a JSON-RPC message has no `user`).
    l.attribution = attributionOf(key, req, undefined);
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
      const caller: CallerOf = { rq: l, requestId: calls++ === 0 ? l.requestId : `${l.requestId}.${calls}` };
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
