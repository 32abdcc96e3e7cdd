import type { Readable, Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from "node:zlib";
import express, { type NextFunction, type Request, type Response } from "express";
import { parse as parseContentType } from "content-type";
import { requestOf } from "./request-context.js";

/**
 * The body-parser error types this reader produces; a decoding failure (a body that does not match
 * its Content-Encoding) has none, as in body-parser, and is known by its status alone.
 */
export type JsonBodyErrorType = "entity.too.large" | "entity.parse.failed" | "encoding.unsupported" | "charset.unsupported" | "request.aborted" | "request.size.invalid" | "stream.not.readable";

/**
 * A JSON body that could not be read or parsed. Shaped as body-parser's errors (`type`, `status`,
 * `limit`) so `fromParser` in errors.ts turns it into the same error the client saw when the routes
 * used `express.json()`, and the wire messages stay in one place.
 */
export class JsonBodyError extends Error {
  override readonly name = "JsonBodyError";
  constructor(
    readonly status: 400 | 413 | 415 | 500,
    readonly type: JsonBodyErrorType | undefined,
    message: string,
    /** The route's limit on the decoded body, bytes (413 only). */
    readonly limit?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * Reads and parses a JSON body for a route whose limit on the decoded body is `limit` bytes: what
 * `express.json({ limit, type: () => true })` did (body-parser 2: strict, `{}` for an empty body, a
 * UTF-8 byte order mark dropped; gzip, deflate, br and zstd inflated; charsets other than UTF-8
 * refused unless they are another UTF), without its per-request cost. Records the decoded size in
 * `requestOf(res).bodyBytes`.
 *
 * The usual request (identity, one chunk) is read without copying: the chunk is decoded once and
 * parsed once. A compressed body is measured as it inflates: the inflater is destroyed as soon as
 * the decoded size passes the limit, so a decompression bomb costs at most the limit plus one of
 * zlib's chunks (16 KiB). As body-parser did, a body that fails while being read is answered once the
 * client has finished sending it (the rest is read off and dropped), and a body that cannot be read at
 * all (415) is answered at once. The caller refuses a declared `content-length` over the limit first.
 */
export function jsonBody(limit: number): (req: Request, res: Response, next: NextFunction) => void {
  // JSON in another UTF (UTF-16, UTF-32, UTF-7; RFC 8259 allows only UTF-8 between systems, so this
  // is rare) is left to body-parser, which decodes it with iconv-lite: byte for byte as before.
  let otherUnicode: ReturnType<typeof express.json> | undefined;
  return (req, res, next) => {
    if (isFinished(req)) return next();
    // Neither a length nor chunks: no body at all (req.body stays undefined), unlike an empty one.
    if (req.headers["transfer-encoding"] === undefined && Number.isNaN(Number(req.headers["content-length"]))) return next();
    const charset = charsetOf(req.headers["content-type"]);
    if (charset && charset !== "utf-8") {
      if (charset.startsWith("utf-")) {
        otherUnicode ??= express.json({ limit, type: () => true, verify: (_req, res, buf) => void (requestOf(res as Response).bodyBytes = buf.length) });
        return otherUnicode(req, res, (err?: unknown) => {
          // The prompt bound is a token per byte of UTF-8, what tokenizers read: a UTF-16 body's bytes
          // would undercount CJK text by a third (3 UTF-8 bytes a character, 2 UTF-16 bytes).
          const l = requestOf(res);
          if (!err && l.bodyBytes !== undefined) l.bodyBytes = Math.max(l.bodyBytes, Buffer.byteLength(JSON.stringify(req.body) ?? ""));
          next(err);
        });
      }
      return next(new JsonBodyError(415, "charset.unsupported", `Unsupported charset "${charset}".`));
    }
    const encoding = req.headers["content-encoding"]?.toLowerCase() || "identity";
    if (encoding === "identity") {
      if (!req.readable) return next(new JsonBodyError(500, "stream.not.readable", "The request stream is not readable."));
      new BodyRead(req, res, next, limit, req.headers["content-length"] === undefined ? -1 : Number(req.headers["content-length"]), undefined).start();
      return;
    }
    const inflater = inflaterFor(encoding);
    if (!inflater) return next(new JsonBodyError(415, "encoding.unsupported", `Unsupported content encoding "${encoding}".`));
    new BodyRead(req, res, next, limit, -1, inflater).start();
  };
}

function inflaterFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case "gzip":
      return createGunzip();
    case "deflate":
      return createInflate();
    case "br":
      return createBrotliDecompress();
    case "zstd":
      return createZstdDecompress();
    default:
      return undefined;
  }
}

/** on-finished's test, which body-parser ran first: a request whose body is gone (or never coming) is passed on as it is. */
function isFinished(req: Request): boolean {
  const socket = req.socket;
  // `upgrade`: set by node on a request that asks for a protocol upgrade (not in its types).
  return Boolean((req as { upgrade?: boolean }).upgrade || !socket || !socket.readable || (req.complete && !req.readable));
}

/**
 * The `charset` parameter of a Content-Type, lowercased, exactly as body-parser reads it (content-type@2:
 * the first one that parses, quoted strings unescaped, `undefined` without one).
 */
export function charsetOf(header: string | undefined): string | undefined {
  // Without parameters (the usual `application/json`) there is nothing to parse.
  return header?.includes(";") ? parseContentType(header).parameters.charset?.toLowerCase() : undefined;
}

/**
 * Its listeners are shared functions that find the read through the stream that emitted (`this`):
 * no closures per request. A settled read is untagged, so a late event finds nothing to do.
 */
const READ = Symbol("json-body.read");
type Source = Readable & { [READ]?: BodyRead | undefined };

function onData(this: Source, chunk: Buffer): void {
  this[READ]?.push(chunk);
}
function onEnd(this: Source): void {
  this[READ]?.end();
}
function onInflaterError(this: Source, err: Error): void {
  // zlib's and brotli's failures are bare 400s in body-parser: `fromParser` maps them by status.
  this[READ]?.fail(new JsonBodyError(400, undefined, "The request body does not match its Content-Encoding.", undefined, { cause: err }));
}
function onRequestError(this: Source, err: Error): void {
  this[READ]?.fail(new JsonBodyError(400, "request.aborted", "The request was aborted.", undefined, { cause: err }));
}
function onRequestClose(this: Source & Request): void {
  // A request that closes once complete is not aborted: its body may still be inflating.
  if (!this.complete) this[READ]?.fail(new JsonBodyError(400, "request.aborted", "The request was aborted."));
}
function onDrained(this: Source): void {
  this[READ]?.settle();
}
function ignore(): void {}

const EMPTY = Buffer.alloc(0);

class BodyRead {
  /** Decoded bytes so far. */
  private received = 0;
  /** The body when it came in one chunk (the usual case); `rest` holds every chunk once a second came. */
  private first: Buffer | undefined = undefined;
  private rest: Buffer[] | undefined = undefined;
  private error: JsonBodyError | undefined = undefined;

  constructor(
    private readonly req: Request & Source,
    private readonly res: Response,
    private readonly next: NextFunction,
    private readonly limit: number,
    /** The declared content-length of an identity body, bytes; -1 without one. */
    private readonly declared: number,
    private readonly inflater: (Transform & Source) | undefined,
  ) {}

  start(): void {
    const { req, inflater } = this;
    req[READ] = this;
    req.on("error", onRequestError);
    req.on("close", onRequestClose);
    const source = inflater ?? req;
    if (inflater) inflater[READ] = this;
    source.on("data", onData);
    source.on("end", onEnd);
    if (inflater) {
      inflater.on("error", onInflaterError);
      req.pipe(inflater);
    }
  }

  push(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.received > this.limit) return this.fail(new JsonBodyError(413, "entity.too.large", `The decoded body exceeds the limit of ${this.limit} bytes.`, this.limit));
    if (this.first === undefined) this.first = chunk;
    else if (this.rest === undefined) this.rest = [this.first, chunk];
    else this.rest.push(chunk);
  }

  end(): void {
    if (this.declared !== -1 && this.received !== this.declared) {
      return this.fail(new JsonBodyError(400, "request.size.invalid", "The request body's size does not match its content-length."));
    }
    const body = this.rest ? Buffer.concat(this.rest, this.received) : (this.first ?? EMPTY);
    this.detach();
    // The rest of the request (after the end of a compressed stream) is read off unused.
    if (this.inflater) this.req.resume();
    this.req[READ] = undefined;
    requestOf(this.res).bodyBytes = body.length;
    let parsed: unknown;
    try {
      parsed = parseJson(body);
    } catch (err) {
      return this.next(new JsonBodyError(400, "entity.parse.failed", "The request body is not valid JSON.", undefined, { cause: err }));
    }
    this.req.body = parsed;
    this.next();
  }

  /** Stops reading and answers with `error` once the client has sent the rest, which is discarded. */
  fail(error: JsonBodyError): void {
    if (this.error) return;
    this.error = error;
    this.detach();
    const req = this.req;
    if (isFinished(req)) return this.settle();
    req.on("end", onDrained);
    req.on("close", onDrained);
    req.resume();
  }

  settle(): void {
    const req = this.req;
    req.removeListener("end", onDrained);
    req.removeListener("close", onDrained);
    req[READ] = undefined;
    this.next(this.error);
  }

  private detach(): void {
    const { req, inflater } = this;
    this.first = this.rest = undefined;
    req.removeListener("error", onRequestError);
    req.removeListener("close", onRequestClose);
    const source = inflater ?? req;
    source.removeListener("data", onData);
    source.removeListener("end", onEnd);
    if (inflater) {
      inflater.removeListener("error", onInflaterError);
      inflater[READ] = undefined;
      req.unpipe(inflater);
      // A write zlib still has in flight must not surface as an unhandled error.
      inflater.on("error", ignore);
      inflater.destroy();
    }
  }
}

const BOM = [0xef, 0xbb, 0xbf] as const;

/** body-parser's strict JSON: an object or an array; an empty body is `{}` (a common client mistake). */
function parseJson(body: Buffer): unknown {
  // iconv-lite, body-parser's decoder, dropped a UTF-8 byte order mark.
  const bom = body.length >= 3 && body[0] === BOM[0] && body[1] === BOM[1] && body[2] === BOM[2];
  const text = bom ? body.toString("utf8", 3) : body.toString("utf8");
  if (text.length === 0) return {};
  const first = text.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) {
    const c = text.charCodeAt(firstNonWhitespace(text));
    if (c !== 0x7b && c !== 0x5b) throw new SyntaxError("A JSON body must be an object or an array.");
  }
  return JSON.parse(text);
}

/** JSON's whitespace only (RFC 8259: space, tab, line feed, carriage return). */
function firstNonWhitespace(s: string): number {
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}
