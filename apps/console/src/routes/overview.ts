import { codeOf, messageOf, sendError, signed, statusOf, type Routes } from "../middleware.js";
import { csvCell, csvHeaders } from "../csv.js";
import { chartSeries, chartWindow, overviewOf, seriesOf } from "../usage-series.js";

/** The overview page: the organization's credits, its usage over the window (by model or key, keys by name), the burn rate; and the chart's data as CSV. */
export function overviewRoutes({ ctx, read, download }: Routes): void {
  const { control, ledger } = ctx;
  read("/api/overview", async (req, res) => {
    const { member, token } = signed(res);
    const w = chartWindow(req.query);
    const [credits, series, org, keys] = await Promise.all([
      ledger.GetCredits({ org_id: member.org_id }),
      ledger.SpendSeries(seriesOf(member.org_id, w)),
      control.ConsoleGetOrg({ token }),
      w.group_by === "key" ? control.ConsoleListKeys({ token }) : { keys: [] },
    ]);
    return overviewOf(credits, series, w, org.created_at_ms, keys.keys);
  });
  // The chart's data as CSV (the same window and grouping): what a spreadsheet needs to redo it.
  download("/api/spend.csv", async (req, res) => {
    const w = chartWindow(req.query);
    try {
      const { points } = chartSeries(await ledger.SpendSeries(seriesOf(signed(res).member.org_id, w)));
      const head = `${w.bucket}_start,${w.group_by},requests,input_tokens,output_tokens,cached_input_tokens,cache_creation_input_tokens,reasoning_tokens,cost_minor,errors,p95_latency_ms\n`;
      const lines = points.map((p) =>
        [
          new Date(p.bucket_start_ms).toISOString(),
          p.group,
          p.requests,
          p.input_tokens,
          p.output_tokens,
          p.cached_input_tokens,
          p.cache_creation_input_tokens,
          p.reasoning_tokens,
          p.cost_minor,
          p.errors,
          p.p95_ms ?? "",
        ]
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
