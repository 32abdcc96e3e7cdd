import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";

/**
 * Append-only local spool of usage events that could not be published (NATS unreachable). One
 * JSON line per event, fsync'd by appendFileSync's synchronous write before the caller continues,
 * replayed with the same message id so JetStream and the ledger drop duplicates.
 */
export class UsageSpool {
  private readonly file: string;
  private pending: string[] = [];

  constructor(dir: string, replicaId: string, private readonly maxEvents: number) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `usage-${replicaId.replace(/[^A-Za-z0-9_.-]/g, "_")}.jsonl`);
    if (existsSync(this.file)) {
      this.pending = readFileSync(this.file, "utf8").split("\n").filter((l) => l.trim() !== "");
    }
  }

  get size(): number {
    return this.pending.length;
  }

  get full(): boolean {
    return this.pending.length >= this.maxEvents;
  }

  append(line: string): void {
    appendFileSync(this.file, line + "\n");
    this.pending.push(line);
  }

  /** Oldest spooled lines first, without removing them. */
  peek(max: number): string[] {
    return this.pending.slice(0, max);
  }

  /** Drops the first `n` lines once they were published. */
  drop(n: number): void {
    this.pending = this.pending.slice(n);
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, this.pending.length ? this.pending.join("\n") + "\n" : "");
    renameSync(tmp, this.file);
  }
}
