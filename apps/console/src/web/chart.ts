/**
 * Line charts of usage over time (uPlot, loaded before the page's module): one series per model or
 * key, labelled by name. A chart follows its box's width (a window resized, a phone turned) and the
 * reader's light or dark scheme (axes, grid and series colors from the stylesheet's variables, drawn
 * again when the scheme changes). A chart with nothing to show says so in words.
 */
import type UPlot from "uplot";

const Plot = (globalThis as unknown as { uPlot: typeof UPlot }).uPlot;

export interface ChartSpec {
  /** Bucket starts, Unix seconds. */
  times: number[];
  /** A null value is a gap (nothing measured in that bucket). */
  series: Array<{ label: string; values: Array<number | null> }>;
  /** The window shown, Unix seconds. */
  range: [number, number];
  /** The y axis's name ("credits", "requests"). */
  unit: string;
  /** The y axis's ticks as text (`step`: the ticks' increment, to show as many decimals as they differ by). */
  format: (v: number, step: number) => string;
  /** Counts: ticks at whole numbers only. */
  whole?: boolean;
  /** Said instead of a chart when `times` is empty. */
  empty: string;
}

const HEIGHT = 220;
/** Tick increments of a count axis: 1, 2, 5, 10, 20, 50, … */
const WHOLE = Array.from({ length: 30 }, (_, i) => [1, 2, 5][i % 3]! * 10 ** Math.floor(i / 3));
const charts = new Map<HTMLElement, { spec: ChartSpec; plot?: UPlot; width: number }>();

/** The stylesheet's colors for the current scheme. */
function colors() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim();
  return { fg: v("--fg"), grid: v("--line"), series: [1, 2, 3, 4, 5, 6, 7, 8].map((i) => v(`--series-${i}`)) };
}

function build(target: HTMLElement, spec: ChartSpec): void {
  const chart = charts.get(target);
  chart?.plot?.destroy();
  target.replaceChildren();
  if (spec.times.length === 0) {
    target.append(Object.assign(document.createElement("p"), { className: "muted", textContent: spec.empty }));
    charts.set(target, { spec, width: 0 });
    return;
  }
  const c = colors();
  // Which scheme's colors it is drawn in (the browser tests read it).
  target.dataset.scheme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  const axis = { stroke: c.fg, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 } };
  const width = Math.max(240, target.clientWidth);
  const plot = new Plot(
    {
      width,
      height: HEIGHT,
      // Counts start at 0, and a window of zeros (no errors) reads 0 to 1, not uPlot's 0 to 100.
      scales: { x: { time: true, range: spec.range }, ...(spec.whole ? { y: { range: (_u: UPlot, _min: number, max: number) => (max > 0 ? Plot.rangeNum(0, max, 0.1, true) : [0, 1]) } } : {}) },
      legend: { live: false },
      cursor: { show: false },
      series: [{}, ...spec.series.map((s, i) => ({ label: s.label, stroke: c.series[i % c.series.length], width: 2, spanGaps: false, points: { show: spec.times.length < 40 } }))],
      axes: [
        axis,
        {
          ...axis,
          label: spec.unit,
          size: 72,
          ...(spec.whole ? { incrs: WHOLE } : {}),
          values: (_u: UPlot, ticks: number[]) => ticks.map((t) => spec.format(t, Math.abs((ticks[1] ?? t) - (ticks[0] ?? 0)) || 1)),
        },
      ],
    },
    [spec.times, ...spec.series.map((s) => s.values)],
    target,
  );
  charts.set(target, { spec, plot, width });
}

/** Draws (or draws again) the chart in `target`. */
export function drawChart(target: HTMLElement, spec: ChartSpec): void {
  if (!charts.has(target)) resized.observe(target);
  build(target, spec);
}

// A chart follows its box's width; the height stays.
const resized = new ResizeObserver((entries) => {
  for (const e of entries) {
    const chart = charts.get(e.target as HTMLElement);
    const width = Math.max(240, Math.floor(e.contentRect.width));
    if (!chart?.plot || width === chart.width) continue;
    chart.width = width;
    chart.plot.setSize({ width, height: HEIGHT });
  }
});

// The reader's scheme changed: every chart again, in the new colors.
matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
  for (const [target, chart] of charts) build(target, chart.spec);
});
