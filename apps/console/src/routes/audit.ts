import { pageLimit } from "../params.js";
import { signed, type Routes } from "../middleware.js";

/** The audit log: an admin reads its organization's, an operator everyone's (the control-plane decides which). */
export function auditRoutes({ ctx, read }: Routes): void {
  read(
    "/api/audit",
    async (req, res) => {
      const q = req.query as Record<string, string | undefined>;
      const page = await ctx.control.ConsoleListAudit({ token: signed(res).token, org: q.org ?? "", cursor: q.cursor ?? "", limit: pageLimit(q.limit) });
      return { data: page.entries.map(({ detail_json, ...e }) => ({ ...e, detail: JSON.parse(detail_json) as unknown })), next_cursor: page.next_cursor || null };
    },
    "any",
  );
}
