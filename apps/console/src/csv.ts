import type { Response } from "express";

/** A CSV field, quoted when it holds a quote, a comma or a line break. */
export const csvCell = (v: unknown) => {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** A CSV download's headers: an attachment named `filename`, never cached. */
export function csvHeaders(res: Response, filename: string): void {
  res.setHeader("content-type", "text/csv; charset=utf-8");
  res.setHeader("content-disposition", `attachment; filename="${filename}"`);
  res.setHeader("cache-control", "no-store");
}
