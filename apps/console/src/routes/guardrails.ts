import { DAY_MS } from "../params.js";
import { signed, type Routes } from "../middleware.js";

/** The guardrails page: the organization's rules and how often each fired (by outcome) in the last 7 days. */
export function guardrailRoutes({ ctx, read }: Routes): void {
  read("/api/guardrails", async (_req, res) => {
    const now = Date.now();
    const g = await ctx.control.ConsoleGetGuardrails({ token: signed(res).token });
    // Without rules there is nothing to count (and no record carries an outcome): the ledger is not asked.
    const counts = g.rules > 0 ? await ctx.ledger.GuardrailCounts({ org_id: signed(res).member.org_id, from_ms: now - 7 * DAY_MS, to_ms: now + 1 }) : { counts: [] };
    return { version: g.version, rules: JSON.parse(g.rules_json || "[]") as unknown[], counts: counts.counts, window_days: 7 };
  });
}
