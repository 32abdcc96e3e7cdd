import type { Request, Response } from "express";
import type { ApiKey } from "@gateway/proto";
import { DAY_MS, endOfThisHour, pageLimit } from "../params.js";
import { signed, type Routes } from "../middleware.js";
import { csvHeaders } from "../csv.js";
import { CSV_COLUMNS, csvRow, memberRecord } from "../usage-view.js";
import { keyLabel, UNRESOLVED_MODEL } from "../usage-series.js";

/** The log's filters from the query string (key id, model, route, status, from/to as Unix ms), in organization `orgId`. */
const logFilters = (req: Request, orgId: string) => {
  const q = req.query as Record<string, string | undefined>;
  const int = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : 0);
  return { org_id: orgId, key_id: q.key ?? "", model: q.model ?? "", route: q.route ?? "", status: int(q.status), from_ms: int(q.from_ms), to_ms: int(q.to_ms) };
};

/** Records as the log shows them: what a member may see of each, with its key's name. */
export const logRows = (records: Parameters<typeof memberRecord>[0][], keys: ApiKey[]) => {
  const names = new Map(keys.map((k) => [k.id, keyLabel(k)]));
  return records.map((r) => ({ ...memberRecord(r), key_name: names.get(r.key_id) ?? "" }));
};

/** The requests page and a request's page: the organization's usage records as its members see them (no provider cost), keys by name. */
export function requestRoutes({ ctx, read, download }: Routes): void {
  const { control, ledger } = ctx;
  const orgOf = (res: Response) => signed(res).member.org_id;
  read("/api/requests", async (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    const [page, { keys }] = await Promise.all([
      ledger.ListUsage({ ...logFilters(req, orgOf(res)), limit: pageLimit(q.limit), cursor: q.cursor ?? "" }),
      control.ConsoleListKeys({ token: signed(res).token }),
    ]);
    return { data: logRows(page.records, keys), next_cursor: page.next_cursor || null };
  });
  // What the log's dropdowns offer: the organization's keys by name, and the models it may use or used in the last 31 days
  // (not the rollups' group of refused requests with unresolved models: no record is named so).
  read("/api/log-options", async (_req, res) => {
    const to = endOfThisHour();
    const [{ keys }, { models }, used] = await Promise.all([
      control.ConsoleListKeys({ token: signed(res).token }),
      control.ConsoleListModels({ token: signed(res).token }),
      ledger.SpendSeries({ org_id: orgOf(res), from_ms: to - 31 * DAY_MS, to_ms: to, bucket: "day", group_by: "model", without_latency: true }),
    ]);
    const modelIds = [...new Set([...models.map((m) => m.id), ...used.points.map((p) => p.group)])].filter((m) => m !== UNRESOLVED_MODEL).sort();
    return { models: modelIds, keys: keys.map((k) => ({ id: k.id, name: keyLabel(k), revoked: k.revoked })) };
  });
  // The current filter as CSV, newest first, streamed a keyset page at a time as the client reads it.
  download("/api/requests.csv", async (req, res) => {
    const f = logFilters(req, orgOf(res));
    csvHeaders(res, "requests.csv");
    res.write(`${CSV_COLUMNS.join(",")}\n`);
    let cursor = "";
    try {
      do {
        const page = await ledger.ListUsage({ ...f, limit: 200, cursor });
        const text = page.records.map(csvRow).join("");
        if (text && !res.write(text)) await new Promise((ok) => res.once("drain", ok));
        cursor = page.next_cursor;
      } while (cursor && !res.destroyed);
      res.end();
    } catch {
      // Headers are out: a broken export ends without its last line, which a reader notices.
      res.destroy();
    }
  });
  // The ledger answers only the member's organization: another organization's request is as absent as one that never was.
  read("/api/requests/:id", async (req, res) => memberRecord(await ledger.GetUsage({ request_id: String(req.params.id), org_id: orgOf(res), wait_ms: 0 })));
}
