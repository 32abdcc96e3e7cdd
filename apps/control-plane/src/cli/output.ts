/** The reader of standard output went away (a closed pipe: `gatewayctl … | head`). */
export class OutputClosedError extends Error {}

/**
 * Writes to standard output as fast as its reader takes it: a write that fills the stream's buffer
 * waits for it to drain, so a slow reader slows the producer instead of growing memory. Once the
 * reader has gone (EPIPE), every write rejects with {@link OutputClosedError}, and `onClosed` runs
 * (a follower waiting for input learns it at once, not at its next write).
 */
export function stdoutWriter(onClosed?: () => void, out: NodeJS.WriteStream = process.stdout): (text: string) => Promise<void> {
  let closed: Error | undefined;
  const waiting = new Set<() => void>();
  out.on("error", (err: NodeJS.ErrnoException) => {
    closed = err.code === "EPIPE" ? new OutputClosedError("standard output closed") : err;
    for (const wake of waiting) wake();
    onClosed?.();
  });
  return async (text) => {
    if (closed) throw closed;
    if (out.write(text)) return;
    await new Promise<void>((resolve) => {
      const wake = () => {
        waiting.delete(wake);
        out.off("drain", wake);
        resolve();
      };
      waiting.add(wake);
      out.once("drain", wake);
    });
    if (closed) throw closed;
  };
}

/** How a command prints its result: one line, with --json one JSON object, otherwise the human text. */
export interface Printer {
  json: boolean;
  print(obj: Record<string, unknown>, human: string): void;
}

export function printer(json: boolean): Printer {
  return { json, print: (obj, human) => process.stdout.write((json ? JSON.stringify(obj) : human) + "\n") };
}
