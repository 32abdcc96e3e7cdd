import { once } from "node:events";
import type { Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { NormalizedUsage, StreamParser, StreamPassthrough } from "../providers/index.js";
import { PassthroughScanner, SseParser, type PlainRun, type SseEvent } from "../providers/sse.js";
import { NEVER_ABORTED, classify, type UpstreamResponse } from "../providers/upstream-client.js";
import type { StreamWriter } from "../translate/client-shape.js";
import { utf8 } from "../http/utf8.js";
import { toGatewayError } from "./attempts.js";
import type { HiddenTime } from "./hidden-time.js";
import type { TrancheWatch } from "./tranches.js";

/** How a stream ended early: the provider failed, or a window-mode output guardrail refused a piece. */
export interface StreamEnd {
  failure?: GatewayError;
  denied?: GatewayError;
}

/** A step that ended nothing (shared: never written to). */
const GOING: StreamEnd = Object.freeze({});

const incomplete = () => new GatewayError("upstream_error", "The provider ended the stream before it was complete.");

/**
 * A failed read of the provider's stream: its read timeout as a timeout; anything else (the
 * connection broke, the body was destroyed) is a stream that broke off — the provider was reached
 * and answered, so not "could not be reached".
 */
function brokenOff(err: unknown): GatewayError {
  const e = err instanceof GatewayError ? err : classify(err, NEVER_ABORTED);
  if (e instanceof GatewayError) return e;
  return e.kind === "timeout" ? toGatewayError(e) : new GatewayError("upstream_error", "The provider's stream broke off before it was complete.");
}

/**
 * Client frames waiting to be sent, in order: text the gateway wrote (translated or parsed events)
 * and runs of the provider's own bytes (a passthrough's), taken as one write.
 */
export class Outbox {
  private parts: Array<string | Uint8Array> = [];
  private text = true;

  get empty(): boolean {
    return this.parts.length === 0;
  }

  add(frames: string | Uint8Array): void {
    if (frames.length === 0) return;
    if (typeof frames !== "string") this.text = false;
    this.parts.push(frames);
  }

  /** Drops what is waiting (a client that left gets nothing more). */
  clear(): void {
    this.parts = [];
    this.text = true;
  }

  /** Everything waiting, with `last` after it, as one write; the box is empty after. */
  take(last = ""): string | Uint8Array {
    const parts = this.parts;
    if (last) parts.push(last);
    this.parts = [];
    const text = this.text;
    this.text = true;
    if (parts.length === 1) {
      const p = parts[0]!;
      return typeof p === "string" ? utf8(p) : p;
    }
    if (text) return utf8(parts.join(""));
    return Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));
  }

  /** What is waiting, as text (tests). */
  peek(): string {
    return this.parts.map((p) => (typeof p === "string" ? p : Buffer.from(p).toString())).join("");
  }
}

/**
 * One upstream stream being relayed in the client's shape. Opened by an attempt (read until its
 * first client frame, so a failure before it can still fall back); relayed by the runner.
 */
export class OpenedStream {
  /** Client frames ready to send. */
  readonly pending = new Outbox();
  usage: NormalizedUsage | undefined;
  /** What the provider reported before its final usage (the floor of a stream that ends early). */
  reported: NormalizedUsage | undefined;
  /** Characters generated so far, for counting when the provider reports no usage. */
  generated = 0;
  /** Server-side searches seen run (billed per search), for a stream that ends without usage. */
  searches = 0;
  /** The client left: frames are no longer kept, and a usage report read from now on was drained. */
  clientLeft = false;
  /** The provider's usage was read after the client left (within the drain window). */
  drained = false;
  /** The terminal event was read: the stream is complete. */
  done = false;
  /** How the stream ends after the frames already read (read together with them, sent after them). */
  ending: StreamEnd | undefined;
  /** Held in tranches: the watch that extends the hold while the stream is read (ended with it). */
  tranches: TrancheWatch | undefined;
  /** Wakes `nextChunk` when the body becomes readable, ends, fails or closes. */
  private wake: (() => void) | undefined;
  private readonly parse: StreamParser;
  /** Splits upstream reads into events for the parser (and, in a passthrough, runs sent as they came). */
  private readonly scan: { push(chunk: Uint8Array): Array<SseEvent | PlainRun> };
  /** Events (and plain runs) of the last upstream read not handled yet, from `at` on. */
  private backlog: Array<SseEvent | PlainRun> = [];
  private at = 0;
  /** The first frame went out: from now on, what one upstream read brought goes out in one write. */
  private flowing = false;

  /**
   * `read`: the stream's parser, or its passthrough (the client's shape is the provider's wire
   * format and no output guardrail reads the stream), whose plain runs go out without being parsed.
   */
  constructor(
    readonly up: UpstreamResponse,
    read: StreamParser | StreamPassthrough,
    readonly writer: StreamWriter,
    private readonly guard: ((delta: string) => string | undefined) | undefined,
    /** How long the provider may have reasoned unseen (started when the request was sent). */
    readonly hidden: HiddenTime,
  ) {
    // The body is read with read() on 'readable' rather than through its async iterator: an open
    // stream then waits on one promise instead of an async generator's three, and a chunk costs
    // no generator step (fewer objects per chunk, fewer survivors per young-generation collection
    // with thousands of streams open).
    const wake = () => {
      const w = this.wake;
      this.wake = undefined;
      w?.();
    };
    up.body.on("readable", wake).on("end", wake).on("error", wake).on("close", wake);
    const parser = typeof read === "function" ? read : read.parser;
    if (parser.announcesReasoning) hidden.announced();
    if (typeof read === "function") {
      this.parse = read;
      this.scan = new SseParser();
    } else {
      this.parse = read.parser;
      this.scan = new PassthroughScanner(read, writer.passed !== undefined);
    }
  }

  /** Set by `interrupt`: the next step ends the stream with it. */
  private interrupted: GatewayError | undefined;

  /** Ends the stream at its next step with `err` (the replica is shutting down), waking a waiting read. */
  interrupt(err: GatewayError): void {
    this.interrupted = err;
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** The client left: nothing more is kept for it; the stream is read on until it ends or is cancelled. */
  leave(): void {
    if (this.clientLeft) return;
    this.clientLeft = true;
    this.pending.clear();
  }

  /** Stops reading the provider (a stream that did not complete). */
  abandon(): void {
    this.hidden.stop();
    this.tranches?.end();
    if (!this.done) this.up.body.destroy();
  }

  /**
   * Reads upstream chunks until at least one client frame is ready (in `pending`), the stream ends
   * (`done`), a window-mode guardrail refuses a piece (not sent), or the upstream fails. The
   * stream's first frame is handed over as soon as it is ready, even when the same read brought
   * more (a provider's burst, or a whole short answer): the rest waits in the backlog for the next
   * call, so the time to first byte never includes translating what follows it.
   */
  async advance(): Promise<StreamEnd> {
    for (;;) {
      const r = this.step();
      if (r) return r;
      await this.readable();
    }
  }

  /**
   * `advance` without waiting: how it ends, or undefined when the body has nothing more yet
   * (`readable()` settles when it may). The relay calls this directly, so a chunk that arrives costs
   * it one promise (the wait), not two.
   */
  step(): StreamEnd | undefined {
    if (this.interrupted) return { failure: this.interrupted };
    try {
      // A client that left gets no frames: the stream is read on (drained) to its end or failure.
      while ((this.pending.empty || this.clientLeft) && !this.done) {
        if (this.at === this.backlog.length) {
          const next = this.nextChunk();
          if (next === undefined) return undefined;
          if (next === null) {
            // Providers whose streams end with the connection say here whether it was complete.
            const last = this.parse.end?.();
            if (!last?.done) return { failure: incomplete() };
            this.take(last);
            return GOING;
          }
          this.backlog = this.scan.push(next);
          this.at = 0;
        }
        while (this.at < this.backlog.length) {
          const item = this.backlog[this.at++]!;
          if ("frames" in item) {
            if (!this.clientLeft) this.pending.add(item.frames);
            if (item.chars > 0) {
              this.generated += item.chars;
              this.hidden.visible();
            }
            if (item.events) this.writer.passed?.(item.events);
          } else {
            const denied = this.take(this.parse(item.data));
            if (denied) return { denied };
          }
          if (this.done) break;
          if (!this.pending.empty && !this.flowing && !this.clientLeft) {
            this.flowing = true;
            break;
          }
        }
      }
      return GOING;
    } catch (err) {
      return { failure: brokenOff(err) };
    }
  }

  /** Settles when the body has more, ended, failed or closed. */
  readable(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  /**
   * The body's next bytes (what it has buffered, at once), null at its end, undefined when nothing
   * came yet (wait for `wake`); throws what it failed with, or a premature close when it was
   * destroyed before its end (as its async iterator would).
   */
  private nextChunk(): Uint8Array | null | undefined {
    const body = this.up.body;
    if (body.errored) throw body.errored;
    const chunk = body.destroyed ? null : (body.read() as Uint8Array | null);
    if (chunk !== null) return chunk;
    if (body.readableEnded) return null;
    if (body.destroyed) throw Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" });
    return undefined;
  }

  /** One parsed event: usage, counted text, the end, or frames for the client (unless a guardrail refuses them). */
  private take(parsed: ReturnType<StreamParser>): GatewayError | undefined {
    if (parsed.usage) {
      this.usage = parsed.usage;
      if (this.clientLeft) this.drained = true;
    } else if (parsed.reported) this.reported = parsed.reported;
    this.generated += parsed.text.length;
    if (parsed.thinking !== undefined) this.hidden.thinking(parsed.thinking);
    else if (parsed.text) this.hidden.visible();
    if (parsed.searches) this.searches += parsed.searches;
    if (parsed.done) {
      this.done = true;
      this.hidden.stop();
      this.tranches?.end();
      this.writer.done?.(parsed);
      return undefined;
    }
    const frames = this.writer.chunk(parsed);
    // The window-mode rules read what the client would see: text that is counted but never sent
    // (hidden thinking, a structured answer's preamble) is not theirs to refuse.
    const violation = this.guard && frames && parsed.text ? this.guard(parsed.text) : undefined;
    if (violation) return new GatewayError("guardrail_denied", violation);
    if (!this.clientLeft) this.pending.add(frames);
    return undefined;
  }
}

/**
 * Sends the stream's frames to the client as they are read, until it completes, fails, is refused
 * or the client leaves; what one upstream read brought goes out in one write. Frames read together
 * with the end stay in `pending`: the ending sends them with its last frame, in one write, once the
 * usage event is durable.
 *
 * A client that leaves stops the writes, not the reading: the provider's stream is read on (drained,
 * nothing forwarded) until it ends with the provider's own usage, or until the attempt's upstream
 * signal cancels it at the end of the drain window (`drainSignal`), which fails the read.
 */
export async function relay(res: Response, s: OpenedStream, client: AbortSignal, shutdown?: AbortSignal): Promise<StreamEnd> {
  let { failure, denied } = s.ending ?? {};
  // The replica's stream drain on shutdown ended: the stream ends with its error event, billed for what it did.
  const stop = () => s.interrupt(new GatewayError("service_unavailable", "The gateway is restarting: this stream was ended. Retry the request.", { retry_after_s: 1 }));
  if (shutdown?.aborted) stop();
  else shutdown?.addEventListener("abort", stop, { once: true });
  while (!s.done && !failure && !denied) {
    if (client.aborted) s.leave();
    else if (!s.pending.empty) {
      const flowing = res.write(s.pending.take());
      // Node holds a response's writes until the next tick (it corks the socket), and the frames
      // that came in the same read as the first one are translated before that tick: sent now.
      res.socket?.uncork();
      if (!flowing) await once(res, "drain", { signal: client }).catch(() => undefined);
      if (client.aborted) s.leave();
    }
    let next = s.step();
    while (next === undefined) {
      await s.readable();
      next = s.step();
    }
    ({ failure, denied } = next);
  }
  shutdown?.removeEventListener("abort", stop);
  s.abandon();
  // Nothing to tell a client that left; what the drain read is billed by the ending.
  if (client.aborted) return {};
  if (!s.done && !failure && !denied) failure = incomplete();
  return { ...(failure ? { failure } : {}), ...(denied ? { denied } : {}) };
}

/**
 * The signal an attempt's upstream request follows: it aborts `drainMs` after the client went away
 * (at once when 0), so a stream whose client left is read on for that long, for the provider's
 * own usage report, and cancelled after. One timer, and only once the client left.
 */
export function drainSignal(client: AbortSignal, drainMs: number): AbortSignal {
  if (drainMs <= 0) return client;
  const upstream = new AbortController();
  const cancel = () => upstream.abort(client.reason);
  if (client.aborted) setTimeout(cancel, drainMs).unref();
  else client.addEventListener("abort", () => setTimeout(cancel, drainMs).unref(), { once: true });
  return upstream.signal;
}
