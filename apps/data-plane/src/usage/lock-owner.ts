import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

/*
 * Who holds a spool lock, and whether that process still runs: the identity the spool's locks carry
 * (usage/spool.ts). Only a process on the same host, boot and pid namespace can judge it; others
 * fall back to the lock's heartbeat.
 */

/** Who holds a lock: enough for a process in the same pid namespace to tell whether it still runs. */
export interface LockOwner {
  replica: string;
  host: string;
  /** Kernel boot id (`/proc/sys/kernel/random/boot_id`): pids mean nothing across boots. */
  boot: string;
  /** Pid namespace (`/proc/self/ns/pid`): pids mean nothing across namespaces (containers). */
  pidns: string;
  pid: number;
  /** Start of the process, clock ticks since boot (`/proc/<pid>/stat` field 22): a reused pid has another. */
  start: string;
  /** Random, so two holders are never mistaken for one another. */
  token: string;
}

const code = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

function readTrimmed(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}

/** Start time of a running process, undefined when there is none (or only its zombie). */
function processStart(pid: number): string | undefined {
  let s: string;
  try {
    s = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ")".
  const fields = s.slice(s.lastIndexOf(")") + 2).split(" ");
  if (fields[0] === "Z" || fields[0] === "X") return undefined;
  return fields[19] ?? "";
}

/** This process as a lock owner. */
export function currentLockOwner(replica: string): LockOwner {
  let pidns = "";
  try {
    pidns = readlinkSync("/proc/self/ns/pid");
  } catch {
    // No /proc (not Linux): pid checks fall back to signal 0 on the same host name.
  }
  return {
    replica,
    host: hostname(),
    boot: readTrimmed("/proc/sys/kernel/random/boot_id"),
    pidns,
    pid: process.pid,
    start: processStart(process.pid) ?? "",
    token: randomBytes(8).toString("hex"),
  };
}

/** Whether the owner process still runs (a reused pid has another start time). */
export function isRunning(o: LockOwner): boolean {
  if (existsSync("/proc/self/stat")) {
    const s = processStart(o.pid);
    return s !== undefined && (o.start === "" || s === o.start);
  }
  try {
    process.kill(o.pid, 0);
    return true;
  } catch (err) {
    return code(err) === "EPERM";
  }
}

/** A lock file's owner, or undefined when it is torn or foreign. */
export function parseOwner(text: string): LockOwner | undefined {
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (typeof o.pid === "number" && typeof o.host === "string" && typeof o.boot === "string" && typeof o.pidns === "string" && typeof o.start === "string") {
      return o as LockOwner;
    }
  } catch {
    // A lock torn by a crash right after its creation: judged by its heartbeat like a foreign one.
  }
  return undefined;
}
