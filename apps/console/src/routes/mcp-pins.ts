import { bodyOf, text } from "../params.js";
import { definitionDiff } from "../definition-diff.js";
import { signed, type Routes } from "../middleware.js";

/**
 * The operator's MCP tool approvals (docs/mcp.md, "Pinned definitions"): every tool whose
 * definition waits for approval — changed, or new since its server's first listing — with the
 * difference an operator reads (the approved definition's lines against the pending one's), and
 * approving exactly the pending definition shown, by its whole digest: if the server changed the
 * tool again since, the control-plane refuses (409) and nothing is pinned. Operators only; the
 * control-plane checks the session's role on both calls.
 */
export function mcpPinRoutes({ ctx, read, write }: Routes): void {
  read(
    "/api/operator/mcp-pins",
    async (_req, res) => {
      const { pins } = await ctx.control.ConsoleListPendingMcpTools({ token: signed(res).token });
      return {
        data: pins.map((p) => ({
          server: p.server,
          tool: p.tool,
          change: p.digest ? "changed" : "new",
          pending_digest: p.pending_digest,
          pending_since_ms: p.pending_since_ms,
          approved_digest: p.digest,
          approved_at_ms: p.approved_at_ms,
          approved_by: p.approved_by,
          diff: definitionDiff(p.definition_json, p.pending_definition_json),
        })),
      };
    },
    "operator",
  );
  write(
    "/api/operator/mcp-pins/approve",
    async (req, res) => {
      const b = bodyOf(req);
      const pin = await ctx.control.ConsoleApproveMcpTool({ token: signed(res).token, server: text(b.server), tool: text(b.tool), digest: text(b.digest) });
      return { server: pin.server, tool: pin.tool, digest: pin.digest, approved_at_ms: pin.approved_at_ms, approved_by: pin.approved_by };
    },
    { scope: "operator" },
  );
}
