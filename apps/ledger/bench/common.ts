/** Shared pieces of the ledger benchmarks: processes, CPU accounting, the consumer's progress. */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { JetStreamManager } from "@nats-io/jetstream";
import { USAGE_STREAM } from "@gateway/events";

export const root = resolve(import.meta.dirname, "../../..");
const CLK_TCK = 100;

export const step = (m: string) => process.stderr.write(`[bench] ${m}\n`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** utime + stime of one process, µs (0 once it is gone). */
export function cpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) / CLK_TCK) * 1e6;
  } catch {
    return 0;
  }
}

/** CPU of a process tree (the postmaster and its backends), per pid, µs. */
export function treeCpu(rootPid: number): Map<number, number> {
  const out = new Map<number, number>([[rootPid, cpuMicros(rootPid)]]);
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === rootPid) out.set(Number(d), cpuMicros(Number(d)));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU a process tree spent between two snapshots, µs (processes born in between count from 0). */
export function treeDelta(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, cpu] of after) sum += cpu - (before.get(pid) ?? 0);
  return sum;
}

export function spawnNode(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

export async function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return;
  await new Promise<void>((r) => {
    const t = setTimeout(() => (c.kill("SIGKILL"), r()), 20_000);
    c.once("exit", () => (clearTimeout(t), r()));
    c.kill("SIGTERM");
  });
}

export async function waitReady(opsPort: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${opsPort}/readyz`).then((r) => r.ok, () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`ops port ${opsPort} not ready within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Unacknowledged usage events on the ledger's durable. */
export async function pending(jsm: JetStreamManager, durable = "ledger"): Promise<{ pending: number; ackFloor: number }> {
  const c = await jsm.consumers.info(USAGE_STREAM, durable);
  return { pending: c.num_pending + c.num_ack_pending, ackFloor: c.ack_floor.stream_seq };
}

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};
