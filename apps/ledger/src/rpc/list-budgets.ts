import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type { ListBudgetsRequest, ListBudgetsResponse } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import type { BudgetWindowsTable } from "../db/schema.js";

/** An organization's budgets in their current windows (the newest window of each scope that has not ended). */
export function listBudgets(ctx: LedgerContext) {
  return async (req: ListBudgetsRequest): Promise<ListBudgetsResponse> => {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    const r = await sql<BudgetWindowsTable & { spent_minor: number; held_minor: number }>`
      SELECT DISTINCT ON (scope) * FROM budget_windows
      WHERE org_id = ${req.org_id} AND (window_end IS NULL OR window_end > now()) ${req.scope ? sql`AND scope = ${req.scope}` : sql``}
      ORDER BY scope, window_start DESC
      LIMIT 1000`.execute(ctx.db);
    return {
      windows: r.rows.map((w) => ({
        scope: w.scope,
        window_start_ms: Math.max(0, w.window_start.getTime()),
        window_end_ms: w.window_end?.getTime() ?? 0,
        limit_minor: w.limit_minor,
        spent_minor: w.spent_minor,
        held_minor: w.held_minor,
      })),
    };
  };
}
