import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/**
 * The alert rules of deploy/monitoring/alerts.yaml evaluated against a /metrics scrape, for the
 * forms they are written in: `max|min [by (label)] (metric[{label="value"}]) > | < | == number`.
 * Any other form is refused rather than guessed at. `for:` is the rule's own business: this says
 * whether the condition holds now, and for which groups.
 */
const ALERTS = readFileSync(resolve(import.meta.dirname, "../../deploy/monitoring/alerts.yaml"), "utf8");

export function alertExpr(name: string): string {
  const m = new RegExp(`- alert: ${name}\\n\\s+expr: (.+)\\n`).exec(ALERTS);
  if (!m) throw new Error(`no alert ${name} in deploy/monitoring/alerts.yaml`);
  return m[1]!.trim();
}

interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** The samples of metric `name` in a /metrics scrape. */
export function samples(metrics: string, name: string): Sample[] {
  const out: Sample[] = [];
  for (const line of metrics.split("\n")) {
    const m = /^([a-z_:][a-z0-9_:]*)(?:\{(.*)\})? (\S+)$/i.exec(line);
    if (!m || m[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-z_][a-z0-9_]*)="((?:[^"\\]|\\.)*)"/gi)) labels[l[1]!] = l[2]!;
    out.push({ labels, value: Number(m[3]) });
  }
  return out;
}

/** The groups (by the `by` label's value; "" without one) for which the alert's condition holds in `metrics`. */
export function firing(name: string, metrics: string): string[] {
  const expr = alertExpr(name);
  const m = /^(max|min)(?: by \((\w+)\))? ?\((\w+)(?:\{(\w+)="([^"]*)"\})?\) (>|<|==) ([\d.]+)$/.exec(expr);
  if (!m) throw new Error(`alert ${name}: expression form not evaluated here: ${expr}`);
  const [, agg, by, metric, selLabel, selValue, op, threshold] = m;
  const groups = new Map<string, number>();
  for (const s of samples(metrics, metric!)) {
    if (selLabel && s.labels[selLabel] !== selValue) continue;
    const key = by ? (s.labels[by] ?? "") : "";
    const prev = groups.get(key);
    groups.set(key, prev === undefined ? s.value : agg === "max" ? Math.max(prev, s.value) : Math.min(prev, s.value));
  }
  const t = Number(threshold);
  return [...groups].filter(([, v]) => (op === ">" ? v > t : op === "<" ? v < t : v === t)).map(([k]) => k);
}
