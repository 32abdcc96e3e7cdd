import { once } from "node:events";
import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { costMinor, estimateTextTokens } from "../credits/cost.js";
import type { Reservation } from "../credits/lease-manager.js";
import type { ChatAdapter, ChatRequestBody, NormalizedUsage, ParsedChatResponse, StreamParser, UpstreamTarget } from "../providers/index.js";
import { SseParser, type SseEvent } from "../providers/sse.js";
import { NEVER_ABORTED, classify, type UpstreamResponse } from "../providers/upstream-client.js";
import { locals } from "../http/request-context.js";
import { writeGatewayHeaders } from "../http/headers.js";
import { runStage, streamOutputChecker, TextCollector } from "../guardrails/index.js";
import { ClientGoneError, attemptAll, billUsage, clampedTimeout, clientSignal, toGatewayError, type Planned } from "./attempts.js";
import type { ClientShape } from "./client-shape.js";

/** The text of a chat completion's choices, for output guardrails (masking rewrites it). */
function completionTexts(body: Record<string, unknown>): TextCollector {
  const t = new TextCollector();
  for (const c of (body.choices as Array<{ message?: { content?: unknown } }> | undefined) ?? []) {
    const m = c.message;
    if (m) t.add(m.content, (v) => (m.content = v));
  }
  return t;
}

/** A non-200 answer as the adapter maps it (read whole: it is small). */
async function upstreamFailure(up: UpstreamResponse, mapError: (status: number, text: string, retryAfter: string | undefined) => GatewayError): Promise<GatewayError> {
  const text = await up.body.text().catch(() => "");
  const ra = up.headers["retry-after"];
  return mapError(up.status, text, typeof ra === "string" ? ra : undefined);
}

export interface ChatCall {
  body: ChatRequestBody;
  model: Model;
  planned: Planned<"chat">[];
  reservation: Reservation;
  /** Decoded body size, for the prompt estimate when a provider reports no usage. */
  bodyBytes: number;
  shape: ClientShape;
  /**
   * How one planned deployment is called, when that depends on it (/v1/messages goes natively to
   * an Anthropic deployment and is translated for the others); may throw a 400 for a body that
   * cannot go to that deployment. Default: the deployment's chat adapter, `body`, `shape`.
   */
  via?: (p: Planned<"chat">) => Via;
}

/** One deployment's adapter, the body it is sent and the client shape of its answer. */
export interface Via {
  adapter: ChatAdapter;
  body: ChatRequestBody;
  shape: ClientShape;
  /** The answer's texts for output guardrails, when the answer is not in the chat shape. */
  answerTexts?: (answer: Record<string, unknown>) => TextCollector;
}

/**
 * A chat request (chat completions or messages) over the attempt loop, in the client's shape. A
 * stream is held back until the upstream's first event, so a failed first attempt still falls
 * back; after that an upstream failure ends it with an explicit error event, and what was
 * delivered is billed (counted when the provider reported no usage).
 */
export async function runChat(ctx: DataPlaneContext, req: Request, res: Response, call: ChatCall): Promise<void> {
  const { body, model, reservation, shape } = call;
  const client = clientSignal(res);
  const timeoutMs = clampedTimeout(ctx, req);
  const bill = (target: UpstreamTarget, usage: NormalizedUsage, status = 200) =>
    billUsage(ctx, res, { model, route: shape.route, target, reservation, usage, costMinor: costMinor(usage, model), stream: body.stream === true, status });
  const counted = (text: string): NormalizedUsage => ({ input_tokens: Math.ceil(call.bodyBytes / 4), output_tokens: estimateTextTokens(text), cached_input_tokens: 0, estimated: true });
  try {
    if (body.stream) await stream(ctx, res, call, client, timeoutMs, bill, counted);
    else await complete(ctx, res, call, client, timeoutMs, bill, counted);
  } catch (err) {
    if (err instanceof ClientGoneError) return;
    throw err;
  }
}

function viaOf(call: ChatCall, p: Planned<"chat">): Via {
  return call.via ? call.via(p) : { adapter: p.adapter, body: call.body, shape: call.shape };
}

type Bill = (target: UpstreamTarget, usage: NormalizedUsage, status?: number) => Promise<void>;
type Count = (text: string) => NormalizedUsage;

async function complete(ctx: DataPlaneContext, res: Response, call: ChatCall, client: AbortSignal, timeoutMs: number, bill: Bill, counted: Count): Promise<void> {
  const { model } = call;
  // A non-streaming answer is charged by the provider whether or not the client waits for it: the
  // attempt in flight runs to its end and is billed (no new attempt starts once the client left).
  const { planned, value: [parsed, via] } = await attemptAll<"chat", [ParsedChatResponse, Via]>(ctx, res, call.planned, client, async (p) => {
    const { target } = p;
    const via = viaOf(call, p);
    const { adapter, body } = via;
    const { res: up } = await ctx.upstream.send(target.provider, adapter.buildChatRequest(body, target), timeoutMs, NEVER_ABORTED);
    if (up.status !== 200) throw await upstreamFailure(up, adapter.mapError);
    let json: unknown;
    try {
      json = await up.body.json();
    } catch {
      throw new GatewayError("upstream_error", "The provider returned an invalid response.");
    }
    return [adapter.parseChatResponse(json, model.id, body), via];
  });
  const { shape } = via;
  const usage = parsed.usage ?? counted(JSON.stringify(parsed.body.choices ?? parsed.body.content ?? parsed.body.output ?? ""));
  if (client.aborted) {
    // Nobody to answer, but the provider did the work: bill it.
    await bill(planned.target, usage, 499);
    return;
  }
  // Output guardrails: a denial still bills the work the model did (docs/guardrails.md).
  let denied: unknown;
  try {
    const pending = runStage(ctx, res, shape.route, "output", () => (via.answerTexts ?? completionTexts)(parsed.body));
    if (pending) await pending;
  } catch (err) {
    denied = err;
  }
  // Durable before the caller sees the answer: a response is never unbilled. The answer is
  // serialized while the usage event travels to JetStream (one microtask lets it reach the socket).
  const billed = bill(planned.target, usage, denied ? 400 : 200);
  if (denied) {
    await billed;
    throw denied;
  }
  await undefined;
  const out = shape.body(parsed.body, usage);
  let answer: string;
  if (shape.keep) {
    // Stored before it is released too, so an immediate GET or continuation finds it.
    await Promise.all([billed, shape.keep(out)]);
    answer = JSON.stringify(out);
  } else {
    answer = JSON.stringify(out);
    await billed;
  }
  writeGatewayHeaders(res);
  res.statusCode = 200;
  res.setHeader("content-type", "application/json; charset=utf-8");
  res.end(answer);
}

/** A stream whose first frames are ready: the rest is read from `chunks`. */
interface OpenedStream {
  chunks: AsyncIterator<unknown>;
  up: UpstreamResponse;
  parser: SseParser;
  parseEvent: StreamParser;
  writer: ReturnType<ClientShape["stream"]>;
  guard: ((delta: string) => string | undefined) | undefined;
  first: string;
  usage: NormalizedUsage | undefined;
  text: string;
  done: boolean;
  /** Events of the last upstream read not handled yet, from `at` on. */
  backlog: SseEvent[];
  at: number;
  /** The first frame went out: from now on, what one upstream read brought goes out in one write. */
  flowing: boolean;
  /** How the stream ends after the frames already read: read together with them, sent after them. */
  ending?: { failure?: GatewayError; denied?: GatewayError };
}

async function stream(ctx: DataPlaneContext, res: Response, call: ChatCall, client: AbortSignal, timeoutMs: number, bill: Bill, counted: Count): Promise<void> {
  const { model } = call;
  const l = locals(res);
  // The attempt opens the stream and reads until its first frame; only then is it "served".
  const { planned, value: s } = await attemptAll<"chat", OpenedStream>(ctx, res, call.planned, client, async (p) => {
    const { target } = p;
    const { adapter, body, shape } = viaOf(call, p);
    const { res: up } = await ctx.upstream.send(target.provider, adapter.buildChatRequest(body, target), timeoutMs, client);
    if (up.status !== 200) throw await upstreamFailure(up, adapter.mapError);
    const opened: OpenedStream = {
      chunks: up.body[Symbol.asyncIterator](),
      up,
      parser: new SseParser(),
      parseEvent: adapter.streamParser(model.id, target.deployment.upstream_model, body),
      writer: shape.stream(),
      guard: streamOutputChecker(res, shape.route),
      first: "",
      usage: undefined,
      text: "",
      done: false,
      backlog: [],
      at: 0,
      flowing: false,
    };
    const step = await advance(opened);
    if (step.denied && !opened.first) {
      // The model produced text a window-mode rule refuses before anything was sent: billed, 400.
      up.body.destroy();
      await bill(target, opened.usage ?? counted(opened.text), 400);
      throw step.denied;
    }
    if (!opened.first) {
      up.body.destroy();
      throw opened.done ? new GatewayError("upstream_error", "The provider sent an empty stream.") : (step.failure ?? new GatewayError("upstream_error", "The provider ended the stream before it was complete."));
    }
    // Frames to send, and maybe the end that came with them: the stream has started either way.
    if (step.denied || step.failure) opened.ending = step;
    return opened;
  });
  writeGatewayHeaders(res);
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" });
  let failure = s.ending?.failure;
  let denied = s.ending?.denied;
  let pending = s.first;
  s.first = "";
  for (;;) {
    if (pending) {
      const flowing = res.write(pending);
      // Node holds a response's writes until the next tick (it corks the socket), and the frames
      // that came in the same read as the first one are translated before that tick: sent now.
      res.socket?.uncork();
      if (!flowing) await once(res, "drain", { signal: client }).catch(() => undefined);
    }
    pending = "";
    if (s.done || client.aborted || failure || denied) break;
    const step = await advance(s);
    pending = s.first;
    s.first = "";
    // Frames read before an end go out first (next turn of the loop), then the end.
    denied = step.denied;
    failure = step.failure;
  }
  if (!s.done) s.up.body.destroy();
  if (!s.done && !failure && !denied && !client.aborted) failure = new GatewayError("upstream_error", "The provider ended the stream before it was complete.");
  const billed = s.usage ?? counted(s.text);
  // A complete answer is stored (when the shape keeps answers) before its last frames say so.
  const kept = !denied && !failure && !client.aborted ? s.writer.keep?.(billed) : undefined;
  await bill(planned.target, billed, denied ? 400 : 200);
  await kept;
  if (client.aborted) return;
  if (denied) res.end(s.writer.error(denied, l.requestId));
  else res.end(failure ? s.writer.error(failure, l.requestId) : s.writer.end(billed));
}

/**
 * Reads upstream chunks until at least one client frame is ready (in `s.first`), the stream ends
 * (`s.done`), a window-mode guardrail refuses a piece (not sent), or the upstream fails. The
 * stream's first frame is handed over as soon as it is ready, even when the same read brought more
 * (a provider's burst, or a whole short answer): the rest waits in `s.backlog` for the next call,
 * so the time to first byte never includes translating what follows it.
 */
async function advance(s: OpenedStream): Promise<{ failure?: GatewayError; denied?: GatewayError }> {
  try {
    while (!s.first && !s.done) {
      if (s.at === s.backlog.length) {
        const next = await s.chunks.next();
        if (next.done) {
          // A provider whose streams end by closing (no terminal event) says whether this one was complete.
          const last = s.parseEvent.end?.();
          if (!last?.done) return { failure: new GatewayError("upstream_error", "The provider ended the stream before it was complete.") };
          if (last.usage) s.usage = last.usage;
          s.done = true;
          s.writer.done?.(last);
          break;
        }
        s.backlog = s.parser.push(next.value as Uint8Array);
        s.at = 0;
      }
      while (s.at < s.backlog.length) {
        const parsed = s.parseEvent(s.backlog[s.at++]!.data);
        if (parsed.usage) s.usage = parsed.usage;
        s.text += parsed.text;
        if (parsed.done) {
          s.done = true;
          s.writer.done?.(parsed);
          break;
        }
        const violation = s.guard && parsed.text ? s.guard(parsed.text) : undefined;
        if (violation) return { denied: new GatewayError("guardrail_denied", violation) };
        s.first += s.writer.chunk(parsed);
        if (s.first && !s.flowing) {
          s.flowing = true;
          break;
        }
      }
    }
    return {};
  } catch (err) {
    return { failure: toGatewayError(err instanceof GatewayError ? err : classify(err, NEVER_ABORTED)) };
  }
}
