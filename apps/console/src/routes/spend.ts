import type { Request } from "express";
import { DAY_MS, endOfThisHour } from "../params.js";
import { codeOf, messageOf, sendError, signed, statusOf, type Routes } from "../middleware.js";
import { csvCell, csvHeaders } from "../csv.js";

/** The overview's window: 1 to 90 days back from the end of this hour, by hour up to a week, by day past it; grouped by model or key. */
const spendWindow = (req: Request) => {
  const days = Math.min(Math.max(Number.parseInt(String(req.query.days ?? "7"), 10) || 7, 1), 90);
  const to = endOfThisHour();
  return { days, from_ms: to - days * DAY_MS, to_ms: to, bucket: days <= 7 ? ("hour" as const) : ("day" as const), group_by: req.query.group === "key" ? ("key" as const) : ("model" as const) };
};

/** The overview page: the organization's credits, its spend over the window, the burn rate; and the chart's data as CSV. */
export function spendRoutes({ ctx, read, download }: Routes): void {
  const { ledger } = ctx;
  read("/api/overview", async (req, res) => {
    const org = signed(res).member.org_id;
    const { days, ...w } = spendWindow(req);
    const [credits, series] = await Promise.all([ledger.GetCredits({ org_id: org }), ledger.SpendSeries({ org_id: org, ...w })]);
    // Burn rate: the window's spend per day (whole days, at least one); days left at that rate (null when nothing is spent).
    const spent = series.points.reduce((n, p) => n + p.cost_minor, 0);
    const burn = Math.ceil(spent / days);
    const daysLeft = burn > 0 ? Math.floor((credits.balance_minor / burn) * 10) / 10 : null;
    return { credits, days, bucket: w.bucket, group_by: w.group_by, points: series.points, burn_rate_minor_per_day: burn, days_left: daysLeft };
  });
  // The chart's data as CSV (the same window and grouping): what a spreadsheet needs to redo it.
  download("/api/spend.csv", async (req, res) => {
    const { days: _days, ...w } = spendWindow(req);
    try {
      const { points } = await ledger.SpendSeries({ org_id: signed(res).member.org_id, ...w });
      const head = `${w.bucket}_start,${w.group_by},requests,input_tokens,output_tokens,cached_input_tokens,cache_creation_input_tokens,reasoning_tokens,cost_minor\n`;
      const lines = points.map((p) =>
        [new Date(p.bucket_start_ms).toISOString(), p.group, p.requests, p.input_tokens, p.output_tokens, p.cached_input_tokens, p.cache_creation_input_tokens, p.reasoning_tokens, p.cost_minor]
          .map(csvCell)
          .join(","),
      );
      csvHeaders(res, `spend-by-${w.group_by}.csv`);
      res.send(head + lines.map((l) => `${l}\n`).join(""));
    } catch (err) {
      sendError(res, statusOf(codeOf(err)), messageOf(err, "failed"), "upstream_error");
    }
  });
}
