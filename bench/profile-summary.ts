/**
 * Groups V8 CPU profiles (`--cpu-prof`, as the benchmarks' BENCH_CPU_PROF writes them) by where the
 * time went: the gateway's own files by folder and file, packages by name, node's internals by
 * module, V8 builtins (JSON.parse, a socket write) by function. Prints self time per group in ms
 * and as a share, per profile, and the top functions.
 *
 *   node bench/profile-summary.ts <dir or .cpuprofile files…> [--top=25] [--per=<count>]
 *
 * `--per=N` also divides by N (streams, requests) to print µs per unit.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const top = Number(args.find((a) => a.startsWith("--top="))?.slice(6) ?? 25);
const per = Number(args.find((a) => a.startsWith("--per="))?.slice(6) ?? 0);
const files = args
  .filter((a) => !a.startsWith("--"))
  .flatMap((a) =>
    statSync(a).isDirectory()
      ? readdirSync(a)
          .filter((f) => f.endsWith(".cpuprofile"))
          .map((f) => join(a, f))
      : [a],
  );

/** The group a frame's self time belongs to. */
export function groupOf(url: string, fn: string): string {
  if (!url) return fn === "(garbage collector)" || fn === "(program)" || fn === "(idle)" ? fn : `builtin ${fn || "(anonymous)"}`;
  const app = /\/(apps|packages)\/([^/]+)\/(?:dist|src)\/(.+?)\.[jt]s$/.exec(url);
  if (app) return `${app[2]}/${app[3]}`;
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith("node:")) return url.replace(/^node:(internal\/)?/, "node:").replace(/\/[^/]+$/, (m) => (url.includes("internal/") ? m : ""));
  return url.replace(/^file:\/\/.*\//, "");
}

for (const file of files) {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0));
  const groups = new Map<string, number>();
  const fns = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const { url, functionName, lineNumber } = n.callFrame;
    if (functionName === "(idle)") continue;
    total += us;
    const g = groupOf(url, functionName);
    groups.set(g, (groups.get(g) ?? 0) + us);
    const f = `${functionName || "(anonymous)"} ${g}:${lineNumber + 1}`;
    fns.set(f, (fns.get(f) ?? 0) + us);
  }
  const fmt = (us: number) => `${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %${per ? ` ${(us / per).toFixed(1).padStart(7)} µs/unit` : ""}`;
  console.log(`\n${file}: ${(total / 1000).toFixed(0)} ms busy`);
  for (const [g, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${fmt(us)}  ${g}`);
  console.log("  top functions:");
  for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${fmt(us)}  ${f}`);
}
