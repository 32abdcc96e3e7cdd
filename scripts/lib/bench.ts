/**
 * What every benchmark needs of the processes it starts (bench/):
 * their CPU and memory from /proc, stopping them, percentiles, and the commit a figure belongs to.
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

export const root = resolve(import.meta.dirname, "../..");
const CLK_TCK = 100;

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

/** Resident memory of a process, MiB: now and its peak (VmRSS, VmHWM). */
export function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export async function stopChild(c: ChildProcess, graceMs = 10_000): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return;
  await new Promise<void>((r) => {
    const t = setTimeout(() => (c.kill("SIGKILL"), r()), graceMs);
    c.once("exit", () => (clearTimeout(t), r()));
    c.kill("SIGTERM");
  });
}

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

/** The checkout's short commit, for the JSON summary ("unknown" outside a checkout). */
export function gitCommit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/**
 * The environments of a bench's control-plane and ledger (each its own process, as deployed) and
 * what its data-plane needs to reach them: the database, NATS, the ports and the internal tokens
 * wired together once. The data-plane's own port, spool and log level stay the bench's.
 */
const BENCH_USAGE_KEY = "bench-usage-signing-key-0123456789abcdef";

export function serviceEnv(o: { db: string; natsUrl: string; controlPort: number; ledgerPort: number; ledgerOpsPort?: number; adminToken: string; dpToken: string; logLevel: string }) {
  return {
    control: {
      CONTROL_PLANE_DATABASE_URL: o.db,
      CONTROL_PLANE_MIGRATE_ON_START: "true",
      CONTROL_PLANE_NATS_URL: o.natsUrl,
      CONTROL_PLANE_GRPC_PORT: String(o.controlPort),
      CONTROL_PLANE_OPS_PORT: "0",
      CONTROL_PLANE_ADMIN_TOKEN: o.adminToken,
      CONTROL_PLANE_DATA_PLANE_TOKEN: o.dpToken,
      CONTROL_PLANE_LOG_LEVEL: o.logLevel,
    },
    ledger: {
      LEDGER_DATABASE_URL: o.db,
      LEDGER_MIGRATE_ON_START: "true",
      LEDGER_NATS_URL: o.natsUrl,
      LEDGER_GRPC_PORT: String(o.ledgerPort),
      LEDGER_OPS_PORT: String(o.ledgerOpsPort ?? 0),
      LEDGER_ADMIN_TOKEN: o.adminToken,
      LEDGER_DATA_PLANE_TOKEN: o.dpToken,
      LEDGER_LOG_LEVEL: o.logLevel,
      // Usage signed and checked, as in deploy/ (docs/security.md).
      LEDGER_USAGE_SIGNING_KEYS: BENCH_USAGE_KEY,
    },
    dataPlane: {
      DATA_PLANE_CONTROL_PLANE_ADDR: `127.0.0.1:${o.controlPort}`,
      DATA_PLANE_LEDGER_ADDR: `127.0.0.1:${o.ledgerPort}`,
      DATA_PLANE_CONTROL_PLANE_TOKEN: o.dpToken,
      DATA_PLANE_LEDGER_TOKEN: o.dpToken,
      DATA_PLANE_NATS_URL: o.natsUrl,
      DATA_PLANE_USAGE_SIGNING_KEY: BENCH_USAGE_KEY,
    },
  };
}
