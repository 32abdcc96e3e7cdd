import { GatewayError } from "@gateway/errors";
import type { ConsoleApproveMcpToolRequest, ListMcpToolPinsResponse, McpToolPin } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { nextCatalogVersion } from "../catalog/price-sheets.js";
import { audited } from "./console-audit.js";
import { operatorOf } from "./console-session.js";
import { approvePending, pendingMcpTools } from "./mcp-pins.js";

/** At most this many pending tools in one answer: each carries two definitions of up to 64 KiB. */
const MAX_PENDING = 25;

/** Operators: the MCP tools whose definition waits for approval (docs/mcp.md, "Pinned definitions"), the longest waiting first. */
export function consoleListPendingMcpTools(ctx: ControlContext) {
  return async (req: { token: string }): Promise<ListMcpToolPinsResponse> => {
    await operatorOf(ctx, req.token);
    return { pins: await pendingMcpTools(ctx.db, MAX_PENDING) };
  };
}

/**
 * Operators: pins exactly the pending definition the operator read, named by its whole digest. If
 * the server changed the tool again since, another definition waits and the approval is a
 * conflict (the operator reads the new one first); if nothing waits any more, not found. Audited
 * with the operator as the approver, in the approval's transaction.
 */
export function consoleApproveMcpTool(ctx: ControlContext) {
  return async (req: ConsoleApproveMcpToolRequest): Promise<McpToolPin> => {
    const operator = await operatorOf(ctx, req.token);
    const digest = req.digest.toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(digest)) throw new GatewayError("invalid_request", "digest: the whole digest (64 hex characters) of the pending definition you read");
    return audited(
      ctx,
      operator,
      async (tx) => {
        const pin = await approvePending(tx.db, req, digest, `operator:${operator.email}`);
        if (!pin) {
          const now = await tx.db.selectFrom("mcp_tool_pins").select("pending_digest").where("server", "=", req.server).where("tool", "=", req.tool).executeTakeFirst();
          if (now?.pending_digest)
            throw new GatewayError(
              "conflict",
              `'${req.tool}' of MCP server '${req.server}' changed again since you read it: another definition (${now.pending_digest.slice(0, 12)}) waits now: check again, read it and approve that one.`,
            );
          throw new GatewayError("not_found", `No definition of '${req.tool}' of MCP server '${req.server}' waits for approval any more.`);
        }
        const version = await nextCatalogVersion(tx, tx.db);
        tx.publishChange({ kind: "catalog", catalog_version: version });
        return pin;
      },
      (pin) => ({ org_id: null, action: "mcp_tool_approved", target: `${pin.server}/${pin.tool}`, detail: { digest: pin.digest } }),
    );
  };
}
