/**
 * Groups V8 CPU profiles (`--cpu-prof`, as the benchmarks' BENCH_CPU_PROF writes them) by where the
 * time went: the gateway's own files by folder and file, packages by name, node's internals by
 * module, V8 builtins (JSON.parse, a socket write) by function. Prints self time per group in ms
 * and as a share, per profile, and the top functions.
 *
 *   node bench/profile-summary.ts <dir or .cpuprofile files…> [--top=25] [--per=<count>] [--stages]
 *
 * `--per=N` also divides by N (streams, requests) to print µs per unit; `--stages` groups by the
 * stage of the path instead (stageOf).
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

/**
 * The stage of a stream's (or request's) path a frame belongs to, for `--stages`: what the issue
 * of a chunk costs, stage by stage (docs/performance.md, "Where a streamed chunk's CPU goes").
 */
export function stageOf(url: string, fn: string): string {
  const g = groupOf(url, fn);
  if (fn === "(garbage collector)") return "GC";
  if (fn === "(program)") return "V8 and native, unattributed";
  if (/^builtin RegExp: "\(\?:content|^builtin RegExp: "\(\?:text|^builtin RegExp: "\(\?:delta/.test(g)) return "passthrough scan (one regular expression per read)";
  if (/^builtin RegExp: "model"/.test(g)) return "model id rewrite";
  if (fn === "parseStreamEvent" || g === "builtin parse") return "JSON parse of stream events";
  if (g === "data-plane/providers/sse" || /RegExp: \\r\?\\n/.test(g) || g === "node:encoding") return "SSE framing (split, decode)";
  if (/^data-plane\/(providers|translate)\//.test(g)) return "reading and translating events (adapters, writers)";
  if (g === "builtin stringify") return "JSON serialization";
  if (/^data-plane\/guardrails/.test(g)) return "guardrail stream checks";
  if (g === "data-plane/pipeline/stream") return "relay loop (step, readable, relay)";
  if (/^builtin (writev|writeBuffer|writeUtf8String|writeLatin1String|writeAsciiString)$/.test(g) || /^node:(_http_outgoing|stream_base_commons|net|streams\/writable)$/.test(g))
    return "socket writes (syscalls and node's write path)";
  if (g === "undici" || g.startsWith("wasm://") || g === "builtin js-to-wasm" || g === "builtin wasm-to-js" || g === "node:streams/readable" || g === "node:buffer")
    return "reading the provider (undici, body stream)";
  if (/^node:(process\/task_queues|timers|events|async_hooks)$/.test(g) || g === "builtin runMicrotasks") return "promises, ticks, timers, events";
  if (/^node:(modules|bootstrap|deps\/amaro)/.test(g) || /^builtin (internalModuleStat|readFileUtf8|lstat|readlink|Module)$/.test(g) || g === "node:fs" || g === "node:path")
    return "start-up (module loading)";
  if (
    /^@nats-io|usage\/|^@protobufjs|protobufjs|@grpc|^zod$|prom-client|^data-plane\/(admission|auth|credits|http|catalog|pipeline|usage|context)|^express$|^router$|^body-parser|^raw-body|^node:_http_server|^node:_http_common|^node:_http_incoming|^node:crypto/.test(
      g,
    )
  )
    return "per request (auth, admission, hold, usage event, metrics, HTTP parsing)";
  return "other";
}

const args = process.argv.slice(2);
const top = Number(args.find((a) => a.startsWith("--top="))?.slice(6) ?? 25);
const per = Number(args.find((a) => a.startsWith("--per="))?.slice(6) ?? 0);
const stages = args.includes("--stages");
/** `--within=<stage>`: only that stage's frames, grouped by module (what a stage is made of). */
const within = args.find((a) => a.startsWith("--within="))?.slice(9);
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
    if (within && stageOf(url, functionName) !== within) continue;
    const g = stages ? stageOf(url, functionName) : groupOf(url, functionName);
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
