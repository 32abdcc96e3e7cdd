import type { Request, Response } from "express";
import { pageLimit } from "../params.js";
import { signed, type Routes } from "../middleware.js";
import { csvHeaders } from "../csv.js";
import { CSV_COLUMNS, csvRow, memberRecord } from "../usage-view.js";

/** The log's filters from the query string (key, model, route, status, from/to as Unix ms), in the member's organization. */
const filters = (req: Request, res: Response) => {
  const q = req.query as Record<string, string | undefined>;
  const int = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : 0);
  return {
    org_id: signed(res).member.org_id,
    key_id: q.key ?? "",
    model: q.model ?? "",
    route: q.route ?? "",
    status: int(q.status),
    from_ms: int(q.from_ms),
    to_ms: int(q.to_ms),
  };
};

/** The requests page and a request's page: the organization's usage records as its members see them (no provider cost). */
export function requestRoutes({ ctx, read, download }: Routes): void {
  const { ledger } = ctx;
  read("/api/requests", async (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    const page = await ledger.ListUsage({ ...filters(req, res), limit: pageLimit(q.limit), cursor: q.cursor ?? "" });
    return { data: page.records.map(memberRecord), next_cursor: page.next_cursor || null };
  });
  // The current filter as CSV, newest first, streamed a keyset page at a time as the client reads it.
  download("/api/requests.csv", async (req, res) => {
    const f = filters(req, res);
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
  read("/api/requests/:id", async (req, res) => memberRecord(await ledger.GetUsage({ request_id: String(req.params.id), org_id: signed(res).member.org_id, wait_ms: 0 })));
}
