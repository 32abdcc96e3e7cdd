/** Shared pieces of the ledger benchmarks: processes, CPU accounting, the consumer's progress. */
import { spawn, type ChildProcess } from "node:child_process";
import type { JetStreamManager } from "@nats-io/jetstream";
import { USAGE_STREAM } from "@gateway/events";
import { root, sleep, stopChild as stopProcess } from "../../../scripts/lib/bench.ts";

export { cpuMicros, pct, root, sleep, treeCpu, treeDelta } from "../../../scripts/lib/bench.ts";

export const step = (m: string) => process.stderr.write(`[bench] ${m}\n`);

export function spawnNode(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

/** A ledger gets 20 s to drain its batch before it is killed. */
export const stopChild = (c: ChildProcess) => stopProcess(c, 20_000);

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

