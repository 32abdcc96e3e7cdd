import { open } from "node:fs/promises";
import { join } from "node:path";

/**
 * Whether NATS refused a usage publish for good: the message is larger than the server's
 * max_payload (the client refuses it before sending) or than the stream's max_msg_size (JetStream
 * answers err_code 10054). Sending it again can never succeed, so it must not wait in the spool
 * in front of the events behind it.
 */
export function refusedForGood(err: unknown): boolean {
  const m = err instanceof Error ? err.message : String(err);
  return /max_payload|maximum payload|message size exceeds|10054/i.test(m);
}

/**
 * Usage events NATS refused for good, kept for the billing team: one JSON line each in
 * `<spool dir>/dead-letter.jsonl` ({dead_lettered_at, reason, event}), appended and fdatasync'd
 * before the event counts as handled. Nothing replays them: an operator reads them (and can
 * publish them by hand once the limit is raised; the ledger deduplicates by request id).
 */
export class DeadLetterFile {
  readonly path: string;

  constructor(dir: string) {
    this.path = join(dir, "dead-letter.jsonl");
  }

  async write(line: string, reason: string): Promise<void> {
    const f = await open(this.path, "a", 0o600);
    try {
      await f.appendFile(`{"dead_lettered_at":${JSON.stringify(new Date().toISOString())},"reason":${JSON.stringify(reason.slice(0, 500))},"event":${line}}\n`);
      await f.datasync();
    } finally {
      await f.close();
    }
  }
}
