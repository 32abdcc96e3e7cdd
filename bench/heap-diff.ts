/**
 * Compares two V8 heap snapshots (.heapsnapshot, e.g. from bench/soak.ts with SOAK_SNAPSHOT_DIR) by
 * constructor: how many objects of each kind, and their own bytes, were added between them. A
 * per-request leak shows as a count that grows with the requests served (Timeout, AbortSignal,
 * closures of a handler, …). Prints the largest changes by count; offline, reads only the two files.
 *
 *   node bench/heap-diff.ts before.heapsnapshot after.heapsnapshot [rows=30]
 */
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Count and self size per "type:name" (strings and code lumped by type). */
function census(path: string): Map<string, { count: number; bytes: number }> {
  const s = JSON.parse(readFileSync(path, "utf8")) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt]!]!;
    const named = type === "object" || type === "closure" || type === "native" || type === "regexp";
    const key = named ? `${type}:${s.strings[s.nodes[i + nameAt]!]}` : `(${type})`;
    const e = out.get(key) ?? { count: 0, bytes: 0 };
    e.count++;
    e.bytes += s.nodes[i + sizeAt]!;
    out.set(key, e);
  }
  return out;
}

const [a, b, rows = "30"] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: heap-diff.ts before.heapsnapshot after.heapsnapshot [rows]");
  process.exit(2);
}
const before = census(a);
const after = census(b);
const total = (m: typeof before) => [...m.values()].reduce((n, e) => ({ count: n.count + e.count, bytes: n.bytes + e.bytes }), { count: 0, bytes: 0 });
const diff = [...new Set([...before.keys(), ...after.keys()])].map((k) => {
  const x = before.get(k) ?? { count: 0, bytes: 0 };
  const y = after.get(k) ?? { count: 0, bytes: 0 };
  return { k, count: y.count - x.count, bytes: y.bytes - x.bytes, now: y.count };
});
diff.sort((p, q) => Math.abs(q.count) - Math.abs(p.count));
const t0 = total(before);
const t1 = total(after);
console.log(`objects ${t0.count} → ${t1.count} (${t1.count - t0.count >= 0 ? "+" : ""}${t1.count - t0.count}), self size ${(t0.bytes / 2 ** 20).toFixed(1)} → ${(t1.bytes / 2 ** 20).toFixed(1)} MiB`);
console.log(`${"kind".padEnd(48)} ${"Δ count".padStart(10)} ${"Δ KiB".padStart(10)} ${"now".padStart(10)}`);
for (const d of diff.slice(0, Number(rows))) {
  console.log(`${d.k.slice(0, 48).padEnd(48)} ${String(d.count).padStart(10)} ${(d.bytes / 1024).toFixed(0).padStart(10)} ${String(d.now).padStart(10)}`);
}
