/** Rows of the request log as every page lists them: time, the request (a link to it), its key by name, model, route, status, latency, tokens, cost. */
import { count, dayTime, link, row } from "./dom.js";
import { money } from "./shell.js";

export interface LogRecord {
  request_id: string;
  created_at_ms: number;
  key_id: string;
  key_name: string;
  model: string;
  route: string;
  status: number;
  duration_ms: number;
  input_tokens: number;
  output_tokens: number;
  cost_minor: number;
  /** A refusal record's error code (refused before routing); "" otherwise. */
  error_code?: string;
}

/** A record as a row; `href` is its page (the organization's, or an operator's view of it). */
export function logRow(r: LogRecord, href: (id: string) => string): HTMLTableRowElement {
  const status = r.status >= 400 ? `${r.status} ${r.error_code || "error"}` : String(r.status);
  return row([
    dayTime(r.created_at_ms),
    link(href(r.request_id), r.request_id),
    r.key_name || r.key_id,
    r.model,
    r.route,
    status,
    `${count(r.duration_ms)} ms`,
    `${count(r.input_tokens)} / ${count(r.output_tokens)}`,
    money(r.cost_minor),
  ]);
}

/** A member's link to a request. */
export const requestHref = (id: string) => `/requests/${encodeURIComponent(id)}`;
