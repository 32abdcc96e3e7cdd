import { isAscii } from "node:buffer";
import { GatewayError } from "@gateway/errors";

/** One server-sent event: its `event` field (undefined when it has none) and its data lines, joined. */
export interface SseEvent {
  event: string | undefined;
  data: string;
}

/**
 * Incremental server-sent-events parser: feed it byte chunks as they arrive, get complete events.
 * Handles events split across chunks and both \n and \r\n line endings; each read is decoded and
 * appended to what was left of the last, its complete blocks found with one search each (a stream
 * that uses \r\n, by a regular expression). An event the stream ends in the middle of (no blank
 * line after it) is never dispatched, as the SSE standard and the official SDKs' decoders have it.
 */
export class SseParser {
  private rest = "";
  private readonly decoder = new TextDecoder();
  /** The stream frames its events with \r\n (seen once, assumed from then on). */
  private crlf = false;

  push(chunk: Uint8Array): SseEvent[] {
    const t = this.rest + this.decoder.decode(chunk, { stream: true });
    if (!this.crlf && t.includes("\r")) this.crlf = true;
    const out: SseEvent[] = [];
    let at = 0;
    if (!this.crlf) {
      for (let i = t.indexOf("\n\n"); i !== -1; i = t.indexOf("\n\n", at)) {
        const ev = eventIn(t, at, i);
        if (ev) out.push(ev);
        at = i + 2;
      }
    } else {
      const sep = /\r?\n\r?\n/g;
      for (let m = sep.exec(t); m; m = sep.exec(t)) {
        const ev = parseBlock(t.slice(at, m.index));
        if (ev) out.push(ev);
        at = m.index + m[0].length;
      }
    }
    this.rest = at === 0 ? t : t.slice(at);
    return out;
  }
}

/**
 * The event of the block t[start, end) of a stream framed with \n alone (t[end] is the first
 * newline of the blank line that ends it): the usual shapes (`data: …`, `event: …\ndata: …`) are
 * read in place, without cutting the block out first; anything else by parseBlock.
 */
function eventIn(t: string, start: number, end: number): SseEvent | undefined {
  const nl = t.indexOf("\n", start);
  if (nl === end) {
    if (t.startsWith("data: ", start)) return { event: undefined, data: t.slice(start + 6, end) };
  } else if (t.startsWith("event: ", start) && t.startsWith("data: ", nl + 1) && t.indexOf("\n", nl + 1) === end) {
    return { event: t.slice(start + 7, nl), data: t.slice(nl + 7, end) };
  }
  return parseBlock(t.slice(start, end));
}

/**
 * One block's event. The usual shapes (`data: …`, `event: …\ndata: …`, one line each) are read
 * without splitting; anything else (comments, several data lines, other fields) line by line.
 */
export function parseBlock(block: string): SseEvent | undefined {
  const nl = block.indexOf("\n");
  if (nl === -1 && block.startsWith("data: ")) return { event: undefined, data: block.slice(6) };
  if (nl !== -1 && block.startsWith("event: ") && block.startsWith("data: ", nl + 1) && block.indexOf("\n", nl + 1) === -1 && !block.includes("\r")) {
    return { event: block.slice(7, nl), data: block.slice(nl + 7) };
  }
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

/**
 * A wire format's reading of a passthrough's text with one regular expression, no JSON parse: the
 * JSON string values of `keys` are what the model generated (their lengths summed, escapes
 * decoded); a match of `special` (a pattern source) marks a block the stream's parser must read
 * (usage, the end, an error, an unusual framing). The text is the bytes of complete blocks one per
 * character (latin1: no UTF-8 decoding); `ascii` says there is no byte over 0x7f, otherwise the
 * characters of multi-byte sequences are counted as UTF-16 would. `"key":"` can only be a key
 * followed by a string, and a special mark can only be matched outside the generated strings, which
 * the first alternative consumes whole: inside a JSON string every quote is escaped.
 */
export class PlainText {
  private readonly re: RegExp;
  /** The characters generated in what the last `scan` read: up to its mark, or to the end. */
  chars = 0;

  constructor(keys: string[], special: string) {
    this.re = new RegExp(`"(?:${keys.join("|")})":\\s*"([^"\\\\]*(?:\\\\.[^"\\\\]*)*)"|${special}`, "g");
  }

  /** Reads `text` from `from` on: where the first special mark is (-1: none), with `chars` counted before it. */
  scan(text: string, ascii: boolean, from = 0): number {
    const re = this.re;
    let n = 0;
    re.lastIndex = from;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const v = m[1];
      if (v === undefined) {
        this.chars = n;
        return m.index;
      }
      n += (ascii ? v.length : utf16Length(v)) - (v.includes("\\") ? escapeSurplus(v) : 0);
    }
    this.chars = n;
    return -1;
  }
}

/** The UTF-16 length of UTF-8 bytes held one per character: continuation bytes add nothing, a 4-byte sequence adds two. */
function utf16Length(bytes: string): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes.charCodeAt(i);
    if (b < 0x80 || b >= 0xc0) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

/** How many more characters a JSON string body's escapes take than what they stand for (\uXXXX: 5, the others: 1). */
function escapeSurplus(v: string): number {
  let surplus = 0;
  for (let b = v.indexOf("\\"); b !== -1; b = v.indexOf("\\", b)) {
    const u = v.charCodeAt(b + 1) === 117;
    surplus += u ? 5 : 1;
    b += u ? 6 : 2;
  }
  return surplus;
}

/** A plain run of a passthrough: the client frames of consecutive plain blocks, the provider's bytes as they came. */
export interface PlainRun {
  frames: Uint8Array;
  /** The characters the model generated in them (for counting when the provider reports no usage). */
  chars: number;
  /** How many events they are (counted only for a scanner asked to). */
  events: number;
}

const LFLF = Buffer.from("\n\n");

/** How a passthrough reads its plain runs (providers/types.ts StreamPassthrough adds the parser of the rest). */
export interface PlainReading {
  plain: PlainText;
  /** Told the characters generated in each run that goes out as it came (the parser does not see them). */
  counted?: (chars: number) => void;
  /**
   * Applied to plain runs before they go out (the public model id in place of the provider's), on
   * their bytes read one per character (latin1): what it writes must be in that form too.
   */
  rewrite?: (latin1: string) => string;
}

/**
 * The passthrough reading of a stream whose wire format is the client's: blocks that only carry
 * what the model generated go out as the provider's bytes (no UTF-8 decoding, JSON parse,
 * serialization or encoding). The complete blocks of a read are scanned once, as one text (their
 * bytes one per character); usually none is special and the read goes out as one run. A block with
 * a special mark comes back as an event for the stream's parser, in order, and the blocks around
 * it as runs; the scan goes on after it (the plain blocks before a mark are counted by the same
 * pass, less what its own block generated before the mark). `rewrite` (the public model id in
 * place of the provider's, on the same one-byte text) is applied to each run. A stream framed with
 * \r\n is parsed block by block.
 */
export class PassthroughScanner {
  /** The bytes of an event still to come (after the last complete block of a read). */
  private rest: Buffer | undefined;
  /** Set once a \r is seen: from then on every block is parsed (SseParser's framing). */
  private crlf: SseParser | undefined;

  /** `countEvents`: count the events of each run (for shapes that number their events). */
  constructor(
    private readonly pass: PlainReading,
    private readonly countEvents = false,
  ) {}

  push(chunk: Uint8Array): Array<PlainRun | SseEvent> {
    if (this.crlf) return this.crlf.push(chunk);
    let buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.rest) {
      buf = Buffer.concat([this.rest, buf]);
      this.rest = undefined;
    }
    if (buf.indexOf(13) !== -1) {
      this.crlf = new SseParser();
      return this.crlf.push(buf);
    }
    const end = buf.lastIndexOf(LFLF) + 2;
    if (end === 1) {
      this.rest = Buffer.from(buf);
      return [];
    }
    if (end < buf.length) this.rest = Buffer.from(buf.subarray(end));
    const complete = buf.subarray(0, end);
    const text = complete.toString("latin1");
    const ascii = isAscii(complete);
    const plain = this.pass.plain;
    const out: Array<PlainRun | SseEvent> = [];
    for (let at = 0; at < end; ) {
      const mark = plain.scan(text, ascii, at);
      if (mark === -1) {
        out.push(this.run(complete, text, at, end, plain.chars));
        break;
      }
      // text[at, mark) has no mark: the blocks before the mark's own go out as they came.
      const before = text.lastIndexOf("\n\n", mark);
      const start = before === -1 || before + 2 < at ? at : before + 2;
      if (start > at) {
        let chars = plain.chars;
        if (start < mark) {
          plain.scan(text.slice(start, mark), ascii);
          chars -= plain.chars;
        }
        out.push(this.run(complete, text, at, start, chars));
      }
      const stop = text.indexOf("\n\n", mark);
      const ev = parseBlock(complete.toString("utf8", start, stop));
      if (ev) out.push(ev);
      at = stop + 2;
    }
    return out;
  }

  /** The run of blocks [from, to) of a read. */
  private run(bytes: Buffer, text: string, from: number, to: number, chars: number): PlainRun {
    const whole = from === 0 && to === text.length;
    const latin1 = whole ? text : text.slice(from, to);
    const { rewrite, counted } = this.pass;
    counted?.(chars);
    return {
      frames: rewrite ? Buffer.from(rewrite(latin1), "latin1") : whole ? bytes : bytes.subarray(from, to),
      chars,
      events: this.countEvents ? count(latin1, "\n\n") : 0,
    };
  }
}

function count(text: string, of: string): number {
  let n = 0;
  for (let i = text.indexOf(of); i !== -1; i = text.indexOf(of, i + of.length)) n++;
  return n;
}
