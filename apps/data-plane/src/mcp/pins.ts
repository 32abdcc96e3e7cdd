import { MCP_MAX_DEFINITION_BYTES, type McpServer } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import type { ListedTool, UpstreamTool } from "./upstream.js";

/**
 * Pinned tool definitions (docs/mcp.md, "Pinned definitions"). What the gateway relays of a tool
 * is always the canonical object whose digest it compares — the pinned definition, or at its first
 * use the one it reports to be pinned — never the upstream's own object, so no field a caller sees
 * (`_meta`, `icons` …) is outside a pin. Trust on first use is the server's, once, and the
 * control-plane decides it (rpc/mcp-pins.ts): a catalog tool without an approved definition is
 * `awaiting_approval` when it is new since the server's first report (a rename, a removal followed
 * by another tool); it is then neither listed nor called until an operator approves it, as a
 * changed definition is not called. A definition over MCP_MAX_DEFINITION_BYTES is never served.
 */

/** Why calls to a tool are refused (its JSON-RPC error's `data.code`). */
export type PinRefusal = "tool_definition_changed" | "tool_definition_unapproved" | "tool_definition_too_large";

/** A listed tool against its pin: what callers are shown of it (undefined: it is not listed), and why its calls are refused, if they are. */
export interface Pinned {
  /** Parsed when asked (a tools/list): a tools/call needs only the refusal. */
  shown(): UpstreamTool | undefined;
  refusal?: PinRefusal;
}

/** What a listed tool's definition is against its pin. */
type Verdict = "pinned" | "first_use" | "changed" | "unapproved" | "too_large";

/** A definition's canonical JSON as a tool object, named. */
const asTool = (name: string, json: string): UpstreamTool => ({ name, ...(JSON.parse(json) as Omit<UpstreamTool, "name">) });

/** A tool's definition as served against the catalog's pin of it (`entry`). */
function pinState(entry: McpServer["tools"][number], listed: ListedTool): Verdict {
  if (Buffer.byteLength(listed.definition.json) > MCP_MAX_DEFINITION_BYTES) return "too_large";
  if (entry.digest) return entry.digest === listed.definition.digest ? "pinned" : "changed";
  return entry.awaiting_approval ? "unapproved" : "first_use";
}

/** What callers are shown of a tool, and whether its calls are refused, by its verdict. */
function shown(verdict: Verdict, entry: McpServer["tools"][number], listed: ListedTool): Pinned {
  const pinned = () => asTool(entry.name, entry.definition_json);
  switch (verdict) {
    case "pinned":
      return { shown: pinned };
    case "first_use":
      return { shown: () => asTool(entry.name, listed.definition.json) };
    case "changed":
      return { shown: pinned, refusal: "tool_definition_changed" };
    case "unapproved":
      return { shown: () => undefined, refusal: "tool_definition_unapproved" };
    case "too_large":
      return { shown: () => undefined, refusal: "tool_definition_too_large" };
  }
}

/**
 * The pin states of a server's offered tools in one upstream listing (the first of a name, if the
 * upstream lists one twice), in the listing's order. The definitions the control-plane should hear
 * of (a first use, a change, a new tool) are reported once per replica; a change or a new tool is
 * logged and counted then, as is a definition over the size limit (not reported: never pinned).
 */
export function pinStates(ctx: DataPlaneContext, server: McpServer, listing: ListedTool[]): Map<string, Pinned> {
  const states = new Map<string, Pinned>();
  const verdicts = new Map<string, Verdict>();
  const reports: ListedTool[] = [];
  for (const listed of listing) {
    const name = listed.tool.name;
    const entry = server.tools.find((t) => t.name === name);
    if (!entry || states.has(name)) continue;
    const verdict = pinState(entry, listed);
    verdicts.set(name, verdict);
    if (verdict === "first_use" || verdict === "changed" || verdict === "unapproved") reports.push(listed);
    if (verdict === "too_large") tooLarge(ctx, server.name, listed);
    states.set(name, shown(verdict, entry, listed));
  }
  for (const name of reportOnce(ctx, server.name, reports, listing)) {
    const verdict = verdicts.get(name);
    if (verdict !== "changed" && verdict !== "unapproved") continue;
    ctx.metrics.mcpDefinitionChanged.inc({ server: server.name, tool: name });
    if (verdict === "changed") {
      const entry = server.tools.find((t) => t.name === name);
      ctx.log.warn(
        { server: server.name, tool: name, pinned: entry?.digest, served: listing.find((l) => l.tool.name === name)?.definition.digest },
        "MCP server serves a changed tool definition: callers keep the approved one, calls refused until approved",
      );
    } else {
      // A pinned tool the server no longer lists beside a new one is likely a rename.
      const gone = server.tools.filter((t) => t.digest && !listing.some((l) => l.tool.name === t.name)).map((t) => t.name);
      ctx.log.warn({ server: server.name, tool: name, gone }, "MCP server serves a tool new since its first listing (a rename, or a tool added): not listed, calls refused until approved");
    }
  }
  return states;
}

/** The refusal of a call to `tool` (named `name` by the caller) by its pin, if it is refused: its message and JSON-RPC `data`. */
export function pinRefusal(ctx: DataPlaneContext, server: McpServer, listing: ListedTool[], tool: string, name: string): { message: string; data: { code: PinRefusal } } | undefined {
  const state = pinStates(ctx, server, listing).get(tool);
  // Not listed by the upstream: nothing of it is relayed; only a tool that waits for approval is refused.
  const refusal = state ? state.refusal : server.tools.find((t) => t.name === tool)?.awaiting_approval ? "tool_definition_unapproved" : undefined;
  switch (refusal) {
    case undefined:
      return undefined;
    case "tool_definition_changed":
      return { message: `The definition of ${name} changed at its server and waits for an operator's approval; it is not called until then.`, data: { code: refusal } };
    case "tool_definition_unapproved":
      return { message: `${name} is new at its server since its first listing (a renamed or added tool) and waits for an operator's approval; it is not called until then.`, data: { code: refusal } };
    case "tool_definition_too_large":
      return { message: `The definition of ${name} is larger than the gateway serves (${MCP_MAX_DEFINITION_BYTES} bytes of JSON); it is not called.`, data: { code: refusal } };
  }
}

/** A definition over the size limit: logged and counted once per replica and definition. */
function tooLarge(ctx: DataPlaneContext, server: string, listed: ListedTool): void {
  if (!ctx.mcp.firstSight(`too_large\u0000${server}\u0000${listed.tool.name}\u0000${listed.definition.digest}`)) return;
  ctx.metrics.mcpDefinitionTooLarge.inc({ server, tool: listed.tool.name });
  ctx.log.warn(
    { server, tool: listed.tool.name, bytes: Buffer.byteLength(listed.definition.json), limit: MCP_MAX_DEFINITION_BYTES },
    "MCP server serves a tool definition over the size limit: not listed, calls refused",
  );
}

/** At most this much JSON per report (the gRPC message limit is 4 MiB), 200 tools (the control-plane's), and 1,000 names listed. */
const REPORT_BYTES = 2 * 1024 * 1024;
const REPORT_TOOLS = 200;
const REPORT_NAMES = 1_000;

/**
 * Reports definitions to the control-plane, each once per replica (a failed report is forgotten:
 * the next sight reports again), off the request's path: the control-plane pins them or keeps them
 * pending and bumps the catalog. Each report names every tool of the listing, offered or not: the
 * server's first report is its baseline (which tools are not new later). The names this replica
 * had not reported.
 */
function reportOnce(ctx: DataPlaneContext, server: string, reports: ListedTool[], listing: ListedTool[]): string[] {
  const id = (l: ListedTool) => `${server}\u0000${l.tool.name}\u0000${l.definition.digest}`;
  const fresh = reports.filter((l) => ctx.mcp.firstSight(id(l)));
  if (fresh.length === 0) return [];
  const listed = [...new Set(listing.map((l) => l.tool.name))].slice(0, REPORT_NAMES);
  let chunk: ListedTool[] = [];
  const chunks = [chunk];
  let bytes = 0;
  for (const l of fresh) {
    const size = Buffer.byteLength(l.definition.json);
    if (chunk.length > 0 && (chunk.length >= REPORT_TOOLS || bytes + size > REPORT_BYTES)) {
      chunk = [];
      chunks.push(chunk);
      bytes = 0;
    }
    chunk.push(l);
    bytes += size;
  }
  void (async () => {
    for (const [i, chunk] of chunks.entries()) {
      try {
        await ctx.control.ReportMcpTools({ server, tools: chunk.map((l) => ({ name: l.tool.name, definition_json: l.definition.json })), listed });
      } catch (err) {
        const unreported = chunks.slice(i).flat();
        for (const l of unreported) ctx.mcp.forget(id(l));
        ctx.log.warn({ err, server, tools: unreported.length }, "MCP tool definitions not reported to the control-plane");
        return;
      }
    }
  })();
  return fresh.map((l) => l.tool.name);
}
