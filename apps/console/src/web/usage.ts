/**
 * An organization's (or a key's) usage over a window as the pages draw it, from the hourly rollups'
 * series: a chart each of spend, requests and tokens by model or key (keys by name), and a table of
 * each group's totals — the figures to read, at any width, without hovering a chart.
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
  cost_minor: number;
}
export interface Usage {
  days: number;
  bucket: "hour" | "day";
  group_by: "model" | "key";
  points: Point[];
  /** Each group's label (a key's name). */
  labels?: Record<string, string>;
}

/** Short numbers for axes: 1.2k, 3.4M. */
const compact = (v: number) => new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 }).format(v);

/** A spend tick: the operator's decimals, or as many more as the ticks differ by (small spends do not read 0.00, 0.00, 0.00). */
const spendTick = (v: number, step: number) => creditsText(Math.round(v * MINOR_PER_CREDIT), Math.min(6, Math.max(moneyFormatOf().decimals, Math.ceil(-Math.log10(step)))));

/** The charts, each a metric of the points. */
const METRICS: ReadonlyArray<{ id: string; title: string; unit: () => string; value: (p: Point) => number; format: (v: number, step: number) => string; whole?: true }> = [
  { id: "spend", title: "Spend", unit: () => moneyFormatOf().unit, value: (p) => p.cost_minor / MINOR_PER_CREDIT, format: spendTick },
  { id: "requests", title: "Requests", unit: () => "requests", value: (p) => p.requests, format: compact, whole: true },
  { id: "tokens", title: "Tokens (input + output)", unit: () => "tokens", value: (p) => p.input_tokens + p.output_tokens, format: compact, whole: true },
];

/** The charts' figures and the totals table, made once in `container`. */
function skeleton(container: HTMLElement): void {
  if (container.hasChildNodes()) return;
  const grid = el("div", "", { class: "charts" });
  for (const m of METRICS) {
    const figure = el("figure", "", { class: "card" });
    figure.append(el("figcaption", m.title, { id: `chart-${m.id}-title` }), el("div", "", { class: "chart", id: `chart-${m.id}` }));
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

/** Draws `u` into `container`: the three charts and each group's totals, biggest spend first. */
export function drawUsage(container: HTMLElement, u: Usage): void {
  skeleton(container);
  const label = (g: string) => u.labels?.[g] ?? (g || "(none)");
  const times = [...new Set(u.points.map((p) => p.bucket_start_ms))].sort((a, b) => a - b);
  const groups = [...new Set(u.points.map((p) => p.group))].sort((a, b) => label(a).localeCompare(label(b)));
  const at = new Map(times.map((t, i) => [t, i]));
  const now = Date.now() / 1000;
  const per = u.bucket === "hour" ? "hour" : "day";
  for (const m of METRICS) {
    const series = groups.map((g) => {
      const values: number[] = new Array(times.length).fill(0);
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
      empty: `No ${m.id === "spend" ? "spend" : m.id} in the last ${u.days} days.`,
    });
  }
  totals(container, u, groups, label);
}

function totals(container: HTMLElement, u: Usage, groups: string[], label: (g: string) => string): void {
  const head = container.querySelector("thead tr")!;
  head.replaceChildren(...[u.group_by === "key" ? "Key" : "Model", "Requests", "Input tokens", "Output tokens", "Spend"].map((h) => el("th", h, { scope: "col" })));
  const sum = (g: string, f: (p: Point) => number) => u.points.reduce((n, p) => (p.group === g ? n + f(p) : n), 0);
  const rows = groups
    .map((g) => ({ g, spend: sum(g, (p) => p.cost_minor) }))
    .sort((a, b) => b.spend - a.spend)
    .map(({ g, spend }) => row([label(g), count(sum(g, (p) => p.requests)), count(sum(g, (p) => p.input_tokens)), count(sum(g, (p) => p.output_tokens)), money(spend)]));
  fillTable(document.getElementById("usage-totals")!, rows, `Nothing used in the last ${u.days} days.`);
}
