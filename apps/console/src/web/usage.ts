/**
 * An organization's (or a key's) usage over a window as the pages draw it, from the hourly rollups'
 * series: a chart each of spend, requests, tokens, errors, p95 latency and cache-hit share by model
 * or key (keys by name), each with a line under it saying its figures over the window, and a table
 * of each group's totals — the figures to read, at any width, without hovering a chart.
 */
import { creditsText, MINOR_PER_CREDIT } from "../shared/money.js";
import { drawChart } from "./chart.js";
import { count, el, fillTable, row } from "./dom.js";
import { money, moneyFormatOf } from "./shell.js";

export interface Point {
  bucket_start_ms: number;
  group: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  cost_minor: number;
  /** Records whose status is not a success (not 2xx). */
  errors: number;
  /** The bucket's p95 latency, ms (null: no latency counted). */
  p95_ms: number | null;
}
export interface Usage {
  days: number;
  bucket: "hour" | "day";
  group_by: "model" | "key";
  points: Point[];
  /** Each group's p95 latency over the whole window, ms. */
  p95_ms: Record<string, number | null>;
  /** Each group's label (a key's name). */
  labels?: Record<string, string>;
}

/** A group's sums over the window. */
interface Totals {
  requests: number;
  errors: number;
  input: number;
  cached: number;
  output: number;
  spend: number;
  p95: number | null;
}

/** Short numbers for axes: 1.2k, 3.4M. */
const compact = (v: number) => new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 }).format(v);

/** A latency as people read it: 850 ms, 1.2 s, 45 s. */
export const duration = (ms: number) => (ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(ms < 10_000 ? 1 : 0)} s`);

/** A share as a percentage: 12.5 %. */
const percent = (v: number) => `${v.toFixed(v > 0 && v < 10 ? 1 : 0)} %`;

/** Cache hits: the share of input tokens read from a provider's prompt cache (null: no input tokens). */
const cacheShare = (cached: number, input: number) => (input > 0 ? (100 * cached) / input : null);

/** A spend tick: the operator's decimals, or as many more as the ticks differ by (small spends do not read 0.00, 0.00, 0.00). */
const spendTick = (v: number, step: number) => creditsText(Math.round(v * MINOR_PER_CREDIT), Math.min(6, Math.max(moneyFormatOf().decimals, Math.ceil(-Math.log10(step)))));

interface Metric {
  id: string;
  title: string;
  unit: () => string;
  /** The point's value; null draws a gap (nothing to measure in that bucket). */
  value: (p: Point) => number | null;
  format: (v: number, step: number) => string;
  /** A group's figure over the window, for the line under the chart. */
  total: (t: Totals) => string;
  whole?: true;
  /** Said when the window has no points. */
  empty: string;
}

/** The charts, each a metric of the points. */
const METRICS: readonly Metric[] = [
  { id: "spend", title: "Spend", unit: () => moneyFormatOf().unit, value: (p) => p.cost_minor / MINOR_PER_CREDIT, format: spendTick, total: (t) => money(t.spend), empty: "spend" },
  { id: "requests", title: "Requests", unit: () => "requests", value: (p) => p.requests, format: compact, whole: true, total: (t) => count(t.requests), empty: "requests" },
  {
    id: "tokens",
    title: "Tokens (input + output)",
    unit: () => "tokens",
    value: (p) => p.input_tokens + p.output_tokens,
    format: compact,
    whole: true,
    total: (t) => count(t.input + t.output),
    empty: "tokens",
  },
  {
    id: "errors",
    title: "Errors",
    unit: () => "errors",
    value: (p) => p.errors,
    format: compact,
    whole: true,
    total: (t) => `${count(t.errors)} of ${count(t.requests)}`,
    empty: "errors",
  },
  {
    id: "latency",
    title: "p95 latency",
    unit: () => "ms",
    value: (p) => p.p95_ms,
    format: (v) => duration(v),
    total: (t) => (t.p95 === null ? "—" : duration(t.p95)),
    empty: "latency",
  },
  {
    id: "cache",
    title: "Cache hits (share of input tokens)",
    unit: () => "%",
    value: (p) => cacheShare(p.cached_input_tokens, p.input_tokens),
    format: (v) => percent(v),
    total: (t) => {
      const s = cacheShare(t.cached, t.input);
      return s === null ? "—" : percent(s);
    },
    empty: "cache hits",
  },
];

/** The charts' figures and the totals table, made once in `container`. */
function skeleton(container: HTMLElement): void {
  if (container.hasChildNodes()) return;
  const grid = el("div", "", { class: "charts" });
  for (const m of METRICS) {
    const figure = el("figure", "", { class: "card", "aria-describedby": `chart-${m.id}-summary` });
    figure.append(
      el("figcaption", m.title, { id: `chart-${m.id}-title` }),
      el("div", "", { class: "chart", id: `chart-${m.id}` }),
      el("p", "", { class: "chart-summary", id: `chart-${m.id}-summary` }),
    );
    grid.append(figure);
  }
  const table = el("table");
  const head = el("thead");
  head.append(row([]));
  table.append(head, el("tbody", "", { id: "usage-totals" }));
  const scroll = el("div", "", { class: "scroll", tabindex: "0", role: "region", "aria-label": "Totals of the window" });
  scroll.append(table);
  container.append(grid, scroll);
}

/** Each group's sums over the window. */
function totalsOf(u: Usage, groups: string[]): Map<string, Totals> {
  const t = new Map(groups.map((g) => [g, { requests: 0, errors: 0, input: 0, cached: 0, output: 0, spend: 0, p95: u.p95_ms[g] ?? null }]));
  for (const p of u.points) {
    const s = t.get(p.group)!;
    s.requests += p.requests;
    s.errors += p.errors;
    s.input += p.input_tokens;
    s.cached += p.cached_input_tokens;
    s.output += p.output_tokens;
    s.spend += p.cost_minor;
  }
  return t;
}

/** Draws `u` into `container`: the charts, each with its window's figures per group in words, and each group's totals, biggest spend first. */
export function drawUsage(container: HTMLElement, u: Usage): void {
  skeleton(container);
  const label = (g: string) => u.labels?.[g] ?? (g || "(none)");
  const times = [...new Set(u.points.map((p) => p.bucket_start_ms))].sort((a, b) => a - b);
  const groups = [...new Set(u.points.map((p) => p.group))].sort((a, b) => label(a).localeCompare(label(b)));
  const sums = totalsOf(u, groups);
  const at = new Map(times.map((t, i) => [t, i]));
  const now = Date.now() / 1000;
  const per = u.bucket === "hour" ? "hour" : "day";
  for (const m of METRICS) {
    const series = groups.map((g) => {
      const values: Array<number | null> = new Array(times.length).fill(m.whole || m.id === "spend" ? 0 : null);
      for (const p of u.points) if (p.group === g) values[at.get(p.bucket_start_ms)!] = m.value(p);
      return { label: label(g), values };
    });
    document.getElementById(`chart-${m.id}-title`)!.textContent = `${m.title} per ${per} by ${u.group_by}, last ${u.days} days`;
    drawChart(document.getElementById(`chart-${m.id}`)!, {
      times: times.map((t) => t / 1000),
      series,
      range: [now - u.days * 86_400, now],
      unit: m.unit(),
      format: m.format,
      whole: m.whole,
      empty: `No ${m.empty} in the last ${u.days} days.`,
    });
    document.getElementById(`chart-${m.id}-summary`)!.textContent = groups.length ? `In ${u.days} days: ${groups.map((g) => `${label(g)} ${m.total(sums.get(g)!)}`).join("; ")}.` : "";
  }
  totals(container, u, groups, label, sums);
}

function totals(container: HTMLElement, u: Usage, groups: string[], label: (g: string) => string, sums: Map<string, Totals>): void {
  const head = container.querySelector("thead tr")!;
  const columns = [u.group_by === "key" ? "Key" : "Model", "Requests", "Errors", "p95 latency", "Cache hits", "Input tokens", "Output tokens", "Spend"];
  head.replaceChildren(...columns.map((h) => el("th", h, { scope: "col" })));
  const rows = groups
    .map((g) => ({ g, t: sums.get(g)! }))
    .sort((a, b) => b.t.spend - a.t.spend)
    .map(({ g, t }) => row([label(g), count(t.requests), count(t.errors), METRICS[4]!.total(t), METRICS[5]!.total(t), count(t.input), count(t.output), money(t.spend)]));
  fillTable(document.getElementById("usage-totals")!, rows, `Nothing used in the last ${u.days} days.`);
}
