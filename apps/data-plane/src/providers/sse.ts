import { GatewayError } from "@gateway/errors";

/**
 * Incremental server-sent-events parser: feed it byte chunks as they arrive, get complete events.
 * Handles events split across chunks and both \n and \r\n line endings.
 */
export interface SseEvent {
  event: string | undefined;
  data: string;
}

export class SseParser {
  private buffer = "";
  private readonly decoder = new TextDecoder();

  push(chunk: Uint8Array): SseEvent[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    const out: SseEvent[] = [];
    for (;;) {
      const m = /\r?\n\r?\n/.exec(this.buffer);
      if (!m) break;
      const block = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      const ev = parseBlock(block);
      if (ev) out.push(ev);
    }
    return out;
  }

  /** Whatever is left when the stream ends (an unterminated last event). */
  flush(): SseEvent[] {
    const rest = this.buffer + this.decoder.decode();
    this.buffer = "";
    const ev = rest.trim() ? parseBlock(rest) : undefined;
    return ev ? [ev] : [];
  }
}

function parseBlock(block: string): SseEvent | undefined {
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(":")) continue;
    const i = line.indexOf(":");
    const field = i === -1 ? line : line.slice(0, i);
    let value = i === -1 ? "" : line.slice(i + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
  }
  if (data.length === 0 && event === undefined) return undefined;
  return { event, data: data.join("\n") };
}

/** One stream event's JSON payload; a payload that is not JSON is the provider's failure (retryable before the first frame). */
export function parseStreamEvent<T>(data: string): T {
  try {
    return JSON.parse(data) as T;
  } catch {
    throw new GatewayError("upstream_error", "The provider sent an invalid stream event.");
  }
}
