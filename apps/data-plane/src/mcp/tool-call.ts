import { createHash } from "node:crypto";
import type { UsageEventV1 } from "@gateway/events";
import { headerValue } from "@gateway/guardrails";
import type { McpServer } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import type { Reservation } from "../credits/lease-manager.js";
import { GatewayError } from "@gateway/errors";
import { applyRateLimit, holdCredits, refuseWhenSaturated } from "../admission/admit.js";
import { guardrailOutcomes, runStage, TextCollector } from "../guardrails/index.js";
import type { Authenticated } from "../http/request-context.js";
import { stage } from "../http/tracing.js";
import { publishDenial, publishUsage } from "../pipeline/bill.js";
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
async function guarded(ctx: DataPlaneContext, rq: Authenticated, which: "input" | "output", value: unknown): Promise<unknown> {
  try {
    return (await runStage(ctx, rq, "mcp", which, () => jsonTexts(value))) ?? value;
  } catch (err) {
    if (err instanceof GatewayError && err.code === "guardrail_denied") throw new RpcError(RPC.gateway, err.message, { code: "guardrail_denied", stage: which });
    throw err;
  }
}

/** Who is calling, for billing and the record of each tool call. */
export interface CallerOf {
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
  target: ToolTarget,
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

/** A tool call past admission: what it may cost, what is sent, and its hold. */
interface Admitted {
  price: number;
  catalogVersion: number;
  /** The arguments as sent (the input guardrails' masked copy). */
  sent: Record<string, unknown>;
  reservation: Reservation | undefined;
}

/** What the upstream gave back: a result, or why there is none (served: the call's serve stage). */
interface ServedCall {
  result: Record<string, unknown> | undefined;
  failure: unknown;
  resultBytes: number;
  durationMs: number;
}

/**
 * One tool call through the stages a model request goes through (docs/mcp.md), each a span when the
 * request is traced: admission (the pin, the key's rate limit with its headers, the input
 * guardrails — a denial recorded at zero —, the spool's saturation, the price held: 402 when it
 * cannot be), serve (the upstream call, the result bound, the output guardrails), and the answer
 * (the record — a usage event of route `mcp`, one line item with the server, the tool, the SHA-256
 * of the arguments, the result's size and the outcome — durable before the answer is released,
 * billing the price exactly once under its id, then the hold settled).
 */
export async function callTool(ctx: DataPlaneContext, caller: CallerOf, target: ToolTarget, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  const admitted = await stage(caller.rq, "admission", () => admitCall(ctx, caller, target, name, args, signal));
  const served = await stage(caller.rq, "serve", () => serveCall(ctx, caller, target, name, admitted));
  return stage(caller.rq, "answer", () => answerCall(ctx, caller, target, args, signal, admitted, served));
}

async function admitCall(ctx: DataPlaneContext, caller: CallerOf, target: ToolTarget, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<Admitted> {
  const { key } = caller.rq;
  const { server, tool } = target;
  // A tool whose definition is not approved (changed, new since its server's tools were pinned, too large) is not called.
  const unpinned = pinRefusal(ctx, server, await ctx.mcp.tools(server, key), tool, name);
  if (unpinned) throw new RpcError(RPC.gateway, unpinned.message, unpinned.data);
  // The key's limits, as model routes apply them (429 when over; the x-ratelimit-* headers).
  applyRateLimit(ctx, caller.rq);
  // Priced on the catalog as it is now, the version the record names (the ledger checks the price against it).
  const view = ctx.catalog.current;
  const price = (view.mcpServers.get(server.name) ?? server).tools.find((t) => t.name === tool)?.price_minor ?? 0;
  // Input rules on the arguments (a denial holds and sends nothing), before the price is held. A
  // denial is recorded at zero (no call made: no provider), like a model route's; its error names the record.
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
  // Answered as a JSON-RPC error -32010 naming it (docs/mcp.md), not the model routes' HTTP 503.
  try {
    refuseWhenSaturated(ctx, "tool calls");
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    throw new RpcError(RPC.gateway, err.message, { code: err.code, ...err.context });
  }
  const reservation = price > 0 ? await holdCredits(ctx, caller.rq, price) : undefined;
  return { price, catalogVersion: view.version, sent, reservation };
}

async function serveCall(ctx: DataPlaneContext, caller: CallerOf, target: ToolTarget, name: string, admitted: Admitted): Promise<ServedCall> {
  const started = performance.now();
  let result: Record<string, unknown> | undefined;
  let failure: unknown;
  let resultBytes = 0;
  try {
    // Not cut when the caller leaves: the tool may already be acting (a mail sent), so the call runs
    // to its answer (or the MCP timeout) and is billed as answered, its record marked 499.
    result = await ctx.mcp.call(target.server, caller.rq.key, target.tool, admitted.sent);
    resultBytes = Buffer.byteLength(JSON.stringify(result));
    if (resultBytes > ctx.config.mcp.maxResultBytes) {
      throw new RpcError(RPC.gateway, `The result of ${name} is ${resultBytes} bytes, more than the gateway relays (${ctx.config.mcp.maxResultBytes}).`, { code: "result_too_large" });
    }
    // Output rules on the result's text and structured content (a denial is still billed: the tool did the work).
    result = (await guarded(ctx, caller.rq, "output", result)) as Record<string, unknown>;
  } catch (err) {
    failure = err;
  }
  return { result, failure, resultBytes, durationMs: Math.round(performance.now() - started) };
}

async function answerCall(
  ctx: DataPlaneContext,
  caller: CallerOf,
  target: ToolTarget,
  args: Record<string, unknown>,
  signal: AbortSignal,
  { price, catalogVersion, reservation }: Admitted,
  { result, failure, resultBytes, durationMs }: ServedCall,
): Promise<unknown> {
  const { server, tool } = target;
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
    durationMs,
    catalogVersion,
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
