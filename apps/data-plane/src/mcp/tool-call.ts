import { createHash } from "node:crypto";
import type { LineItem } from "@gateway/events";
import { headerValue } from "@gateway/guardrails";
import type { McpServer } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { GatewayError } from "@gateway/errors";
import { guardrailOutcomes, TextCollector } from "../guardrails/index.js";
import { callContext, reportCall, type Authenticated } from "../http/request-context.js";
import { ClientGoneError, type Charge } from "../pipeline/attempts.js";
import { runCall, type CallSpec, type ServedCall } from "../pipeline/route.js";
import { pinRefusal } from "./pins.js";
import { RPC, RpcError } from "./rpc.js";
import { UpstreamMcpError } from "./upstream.js";

/** The tool a call is for: its server (as the catalog has it) and its name there. */
export interface ToolTarget {
  server: McpServer;
  tool: string;
}

/**
 * The string leaves of a JSON value (tool arguments, a structured result) as guardrail texts; a
 * mask gives a copy, the caller's value is never changed. Bounded: 1,000 strings, 32 levels.
 */
function jsonTexts<T>(value: T): TextCollector<T> {
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

/** The SHA-256 of a call's arguments as JSON (hex): what its record keeps of them. */
const sha256 = (args: Record<string, unknown>) => createHash("sha256").update(JSON.stringify(args)).digest("hex");

const NO_TOKENS = { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, estimated: false } as const;

/**
 * A call's charge: one line item with the server, the tool, the SHA-256 of the arguments, the
 * result's size and the outcome; its price when the call reached the server (sent means billed),
 * 0 when it never did.
 */
function toolCharge(target: ToolTarget, args: Record<string, unknown>, price: number, o: { billed: boolean; outcome: string; resultBytes: number }): Charge {
  const { server, tool } = target;
  const item: LineItem = {
    item: "tool_call",
    quantity: 1,
    unit_price_minor: price,
    per: "call",
    attributes: { server: server.name, tool, arguments_sha256: sha256(args), result_bytes: String(o.resultBytes), outcome: o.outcome },
  };
  return { usage: { ...NO_TOKENS }, costMinor: o.billed ? price : 0, lineItems: [item] };
}

/** Why a call that reached nothing, or whose answer is not relayed, failed: its error (GatewayError, or the upstream's own JSON-RPC error), and its outcome in the record. */
function failureOf(err: unknown): { err: unknown; outcome: string; sent: boolean } {
  if (err instanceof UpstreamMcpError) {
    return { err: new GatewayError(err.kind === "timeout" ? "upstream_timeout" : "upstream_error", err.message), outcome: err.kind, sent: err.sent };
  }
  return { err, outcome: "upstream_error", sent: false };
}

/**
 * A tool call declared like a model route (pipeline/route.ts `runCall` runs it, docs/mcp.md):
 * admission's plan step is the pin (a tool whose definition is not approved is not called) and the
 * tool's price on the catalog as it is now, the version the record names; the input guardrails read
 * the arguments' strings. Serve makes the call — not cut when the caller leaves: the tool may
 * already be acting (a mail sent), so the call runs to its answer (or the MCP timeout) and is billed
 * as answered, its record marked 499 — and bounds the result; the output guardrails read the result.
 */
function toolCall(ctx: DataPlaneContext, state: Authenticated, target: ToolTarget, name: string, args: Record<string, unknown>): CallSpec<ToolTarget, Record<string, unknown>> {
  const { server, tool } = target;
  let price = 0;
  return {
    route: "mcp",
    admission: () => ({
      route: "mcp",
      what: "tool calls",
      async plan() {
        const unpinned = pinRefusal(ctx, server, await ctx.mcp.tools(server, state.key), tool, name);
        if (unpinned) throw new RpcError(RPC.gateway, unpinned.message, unpinned.data);
        price = (ctx.catalog.current.mcpServers.get(server.name) ?? server).tools.find((t) => t.name === tool)?.price_minor ?? 0;
        return { target, name: `${server.name}/${tool}`, price };
      },
      guard: (a) => jsonTexts(a),
      // Which arguments were refused (their hash, as every call's record has it), none of them called.
      denied: () => [{ item: "tool_call", quantity: 0, unit_price_minor: price, per: "call", attributes: { server: server.name, tool, arguments_sha256: sha256(args), outcome: "guardrail_denied" } }],
    }),
    serve: (ctx, call) => serveCall(ctx, call.state, target, name, args, call.body, call.price),
    billedAs: () => ({ id: `${server.name}/${tool}`, provider: server.name, upstreamModel: tool }),
  };
}

async function serveCall(
  ctx: DataPlaneContext,
  state: Authenticated,
  target: ToolTarget,
  name: string,
  args: Record<string, unknown>,
  sent: Record<string, unknown>,
  price: number,
): Promise<ServedCall> {
  let result: Record<string, unknown>;
  try {
    result = await ctx.mcp.call(target.server, state.key, target.tool, sent);
  } catch (err) {
    // Sent means billed: a call that reached the server and got no whole answer (none in time, one
    // past the read bound, cut) may have acted. One that never reached it (refused connection, session
    // not initialized, HTTP 4xx) or that it refused as a protocol error (the tool did not run) costs nothing.
    const f = failureOf(err);
    return { kind: "failed", charge: toolCharge(target, args, price, { billed: f.sent, outcome: f.outcome, resultBytes: 0 }), err: f.err };
  }
  const resultBytes = Buffer.byteLength(JSON.stringify(result));
  const outcome = result.isError ? "tool_error" : "ok";
  // Answered (a tool's own failure is a result with isError): billed, relayed or not.
  if (resultBytes > ctx.config.mcp.maxResultBytes) {
    const err = new GatewayError("request_too_large", `The result of ${name} is ${resultBytes} bytes, more than the gateway relays (${ctx.config.mcp.maxResultBytes}).`);
    return { kind: "failed", charge: toolCharge(target, args, price, { billed: true, outcome: "result_too_large", resultBytes }), err };
  }
  const withMeta = (r: Record<string, unknown>) => {
    // Where the caller reads what this call cost (GET /v1/usage/{id}) and what the rules did.
    const outcomes = guardrailOutcomes(state);
    return {
      ...r,
      _meta: {
        ...((r._meta as Record<string, unknown> | undefined) ?? {}),
        "gateway/request_id": state.requestId,
        "gateway/cost_minor": price,
        ...(outcomes.length ? { "gateway/guardrails": headerValue(outcomes) } : {}),
      },
    };
  };
  return {
    kind: "answer",
    charge: toolCharge(target, args, price, { billed: true, outcome, resultBytes }),
    // Output rules on the result's text and structured content (a denial is still billed: the tool did the work).
    texts: () => jsonTexts(result).map((masked) => () => withMeta(masked)),
    render: () => withMeta(result),
  };
}

/** Who is calling: the HTTP request (its key, its trace), and the call's record id (the HTTP request's, suffixed for the second and later calls of a batch). */
export interface CallerOf {
  rq: Authenticated;
  requestId: string;
}

/**
 * One tool call through the runner (pipeline/route.ts `runCall`), as a request of its own: the
 * stages, the record durable before the answer is released and the hold settled. What a JSON-RPC
 * caller gets: the result (its `_meta` naming the record and its cost); the call's own failure as
 * a JSON-RPC error naming the record (a guardrail's denial, the upstream's failure and what it
 * cost, usage recording backed up); a refusal of the request (402, 429 …) as the GatewayError
 * mcp/route.ts answers.
 */
export async function callTool(ctx: DataPlaneContext, caller: CallerOf, target: ToolTarget, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  const state = callContext(caller.rq, caller.requestId);
  try {
    return await runCall(ctx, state, toolCall(ctx, state, target, name, args), args, signal);
  } catch (err) {
    throw rpcErrorOf(err, state);
  } finally {
    reportCall(caller.rq, state);
  }
}

/** A call's failure as its JSON-RPC error (docs/mcp.md, "Errors"); refusals of the request itself pass through. */
function rpcErrorOf(err: unknown, state: Authenticated): unknown {
  const record = { request_id: state.requestId };
  if (err instanceof ClientGoneError) return new RpcError(RPC.gateway, "The caller left before the tool was called.", { code: "client_gone" });
  if (!(err instanceof GatewayError)) return err;
  switch (err.code) {
    case "guardrail_denied":
      return new RpcError(RPC.gateway, err.message, { code: err.code, stage: state.guardrails.output ? "output" : "input", ...record });
    case "upstream_timeout":
    case "upstream_error":
      return new RpcError(RPC.gateway, err.message, { code: err.code, ...record, cost_minor: state.billedMinor ?? 0 });
    case "request_too_large":
      return new RpcError(RPC.gateway, err.message, { code: "result_too_large", ...record, cost_minor: state.billedMinor ?? 0 });
    case "service_unavailable":
      // Usage recording backed up (or this call's record not kept): -32010 naming it, not the HTTP 503.
      return new RpcError(RPC.gateway, err.message, { code: err.code, ...err.context });
    default:
      return err;
  }
}
