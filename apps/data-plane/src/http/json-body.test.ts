import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import type { Server } from "node:http";
import type { Transform } from "node:stream";
import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from "node:zlib";
import express, { type NextFunction, type Request, type Response } from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Logger } from "@gateway/observability";
import { errorHandler } from "./errors.js";
import { charsetOf, JsonBodyError, jsonBody } from "./json-body.js";
import { requestOf, startRequest } from "./request-context.js";

/** Every gunzip stream the reader creates, with what it produced: the bomb test watches them. */
const inflaters = vi.hoisted(() => [] as { stream: Transform; produced: number }[]);
vi.mock("node:zlib", async (importOriginal) => {
  const zlib = await importOriginal<typeof import("node:zlib")>();
  return {
    ...zlib,
    createGunzip: () => {
      const watched = { stream: zlib.createGunzip(), produced: 0 };
      watched.stream.on("data", (c: Buffer) => (watched.produced += c.length));
      inflaters.push(watched);
      return watched.stream;
    },
  };
});

const LIMIT = 64 * 1024;
/** zlib's output chunk (`chunkSize`'s default), bytes. */
const ZLIB_CHUNK = 16 * 1024;

/** What the reader handed on: each call of `next`, and the request it read. */
let nexts: unknown[];
let lastReq: Request | undefined;
let listenersBefore: Record<string, number>;
let logged: unknown[];
let server: Server;

const EVENTS = ["data", "end", "error", "close"] as const;
const listenerCounts = (req: Request) => Object.fromEntries(EVENTS.map((e) => [e, req.listenerCount(e)]));

beforeAll(async () => {
  const app = express();
  const read = jsonBody(LIMIT);
  app.post(
    "/",
    (req: Request, res: Response, next: NextFunction) => {
      startRequest(res);
      lastReq = req;
      listenersBefore = listenerCounts(req);
      read(req, res, (err?: unknown) => {
        nexts.push(err);
        next(err);
      });
    },
    (req, res) => void res.json({ body: req.body === undefined ? "absent" : req.body, bodyBytes: requestOf(res).bodyBytes ?? null }),
  );
  app.use(errorHandler({ error: (o: unknown) => logged.push(o) } as unknown as Logger));
  server = await new Promise<Server>((r) => {
    const s = app.listen(0, "127.0.0.1", () => r(s));
  });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  nexts = [];
  lastReq = undefined;
  logged = [];
  inflaters.length = 0;
});

interface Sent {
  headers?: Record<string, string>;
  /** Sent with a content-length, or in these chunks with chunked transfer encoding; nothing: no body at all. */
  body?: Buffer | string;
  chunks?: (Buffer | string)[];
}

/** A raw HTTP/1.1 request, so the framing (length, chunks, none) is exactly the test's. */
async function send({ headers = {}, body, chunks }: Sent): Promise<{ status: number; json: { body?: unknown; bodyBytes?: number | null; error?: { code: string; message: string } } }> {
  const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
  const received: Buffer[] = [];
  socket.on("data", (c: Buffer) => received.push(c));
  const closed = new Promise<void>((r) => socket.on("close", () => r()));
  const all: Record<string, string> = { host: "test", connection: "close", "content-type": "application/json", ...headers };
  const head = ["POST / HTTP/1.1", ...Object.entries(all).map(([k, v]) => `${k}: ${v}`)];
  if (body !== undefined) head.push(`content-length: ${Buffer.byteLength(body)}`);
  if (chunks) head.push("transfer-encoding: chunked");
  socket.write(`${head.join("\r\n")}\r\n\r\n`);
  if (body !== undefined) socket.write(body);
  for (const c of chunks ?? []) socket.write(Buffer.concat([Buffer.from(`${Buffer.byteLength(c).toString(16)}\r\n`), Buffer.from(c), Buffer.from("\r\n")]));
  if (chunks) socket.write("0\r\n\r\n");
  await closed;
  const text = Buffer.concat(received).toString("utf8");
  return { status: Number(text.split(" ")[1]), json: JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) };
}

/** Waits for a condition (polled every 5 ms, 10 s at most: a deadline for a hang, not a timing target). */
const until = async (ok: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
};

/** After a read, the request carries none of the reader's listeners and `next` ran once. */
function expectSettledOnce(): void {
  expect(nexts).toHaveLength(1);
  expect(listenerCounts(lastReq!)).toEqual(listenersBefore);
}

const message = { a: 1, text: "héllo ✓" };
const raw = Buffer.from(JSON.stringify(message));

describe("jsonBody", () => {
  it.each([
    ["identity", {}, raw],
    ["gzip", { "content-encoding": "gzip" }, gzipSync(raw)],
    ["deflate", { "content-encoding": "deflate" }, deflateSync(raw)],
    ["br", { "content-encoding": "br" }, brotliCompressSync(raw)],
    ["zstd", { "content-encoding": "zstd" }, zstdCompressSync(raw)],
    ["GZIP (any case)", { "content-encoding": "GZIP" }, gzipSync(raw)],
  ])("parses a %s body and records its decoded size", async (_name, headers, body) => {
    expect(await send({ headers, body })).toEqual({ status: 200, json: { body: message, bodyBytes: raw.length } });
    expectSettledOnce();
  });

  it("joins a body sent in many chunks, characters split across them included", async () => {
    const chunks = [raw.subarray(0, 17), raw.subarray(17, 18), raw.subarray(18)];
    expect(await send({ chunks })).toEqual({ status: 200, json: { body: message, bodyBytes: raw.length } });
    expect(await send({ headers: { "content-encoding": "gzip" }, chunks: [gzipSync(raw).subarray(0, 9), gzipSync(raw).subarray(9)] })).toMatchObject({ status: 200, json: { body: message } });
  });

  it("takes UTF-8 by any spelling body-parser took, and drops a byte order mark", async () => {
    for (const type of ["application/json; charset=utf-8", 'application/json; charset="UTF-8"', "application/json;charset=", "application/vnd.api+json"]) {
      expect(await send({ headers: { "content-type": type }, body: raw })).toMatchObject({ status: 200, json: { body: message } });
    }
    expect(await send({ body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), raw]) })).toEqual({ status: 200, json: { body: message, bodyBytes: raw.length + 3 } });
  });

  it("still decodes the other UTF encodings body-parser decoded", async () => {
    const utf16 = Buffer.from(JSON.stringify(message), "utf16le");
    expect(await send({ headers: { "content-type": "application/json; charset=utf-16le" }, body: utf16 })).toEqual({ status: 200, json: { body: message, bodyBytes: utf16.length } });
  });

  it("measures a UTF-16 body at least by its UTF-8 bytes, what the prompt bound counts a token per", async () => {
    // CJK: 3 UTF-8 bytes a character, 2 in UTF-16; a tokenizer may read a token per UTF-8 byte.
    const cjk = { model: "m", messages: [{ role: "user", content: "漢字仮名交じり文".repeat(50) }] };
    const utf8 = Buffer.byteLength(JSON.stringify(cjk));
    const utf16 = Buffer.from(JSON.stringify(cjk), "utf16le");
    expect(utf16.length).toBeLessThan(utf8);
    expect(await send({ headers: { "content-type": "application/json; charset=utf-16le" }, body: utf16 })).toEqual({ status: 200, json: { body: cjk, bodyBytes: utf8 } });
  });

  it("refuses another charset with a 415, before reading the body", async () => {
    for (const charset of ["latin1", "utf8", "utf-foo"]) {
      const r = await send({ headers: { "content-type": `application/json; charset=${charset}` }, body: raw });
      expect(r).toEqual({ status: 415, json: { error: expect.objectContaining({ code: "unsupported_media_type", message: "Unsupported request body charset: send UTF-8." }) } });
    }
    expect(nexts).toHaveLength(3);
  });

  it("refuses an unknown content-encoding with a 415", async () => {
    for (const encoding of ["x-gzip", "compress", "gzip, br"]) {
      const r = await send({ headers: { "content-encoding": encoding }, body: gzipSync(raw) });
      expect(r).toEqual({
        status: 415,
        json: { error: expect.objectContaining({ code: "unsupported_media_type", message: "Unsupported Content-Encoding: send the body as identity, gzip, deflate or br." }) },
      });
    }
    expect(nexts).toHaveLength(3);
  });

  it("answers a body that does not match its content-encoding with a 400", async () => {
    for (const [encoding, body] of [
      ["gzip", raw],
      ["br", gzipSync(raw)],
      ["gzip", gzipSync(raw).subarray(0, 15)],
    ] as const) {
      const r = await send({ headers: { "content-encoding": encoding }, body });
      expect(r).toEqual({
        status: 400,
        json: { error: expect.objectContaining({ code: "invalid_request", message: "The request body could not be decoded: it does not match its Content-Encoding." }) },
      });
      expectSettledOnce();
      nexts = [];
    }
    expect(inflaters.every((i) => i.stream.destroyed)).toBe(true);
  });

  it("answers invalid JSON and a top level other than an object or an array with a 400 invalid_json", async () => {
    for (const body of ['{"model": "x", "messages": [', '"text"', "42", "null", " true", "   ", "\ufeff\ufeff{}"]) {
      const r = await send({ body });
      expect(r).toEqual({ status: 400, json: { error: expect.objectContaining({ code: "invalid_json", message: "Request body is not valid JSON." }) } });
    }
    expect(await send({ body: ' \r\n\t[1, {"b": 2}]' })).toMatchObject({ status: 200, json: { body: [1, { b: 2 }] } });
    expect(logged).toEqual([]);
  });

  it("reads an empty body as {} and a request without one leaves the body absent", async () => {
    expect(await send({ body: "" })).toEqual({ status: 200, json: { body: {}, bodyBytes: 0 } });
    expect(await send({ headers: { "content-encoding": "gzip" }, body: gzipSync("") })).toEqual({ status: 200, json: { body: {}, bodyBytes: 0 } });
    expect(await send({})).toEqual({ status: 200, json: { body: "absent", bodyBytes: null } });
  });

  it("takes a body of exactly the limit and refuses one byte more with a 413", async () => {
    const exact = Buffer.from(`{"a":"${"x".repeat(LIMIT - 8)}"}`);
    expect(exact.length).toBe(LIMIT);
    expect(await send({ chunks: [exact] })).toMatchObject({ status: 200, json: { bodyBytes: LIMIT } });
    nexts = [];
    const over = await send({ chunks: [exact.subarray(0, 1000), exact.subarray(1000), " "] });
    expect(over).toEqual({ status: 413, json: { error: expect.objectContaining({ code: "request_too_large", message: `Request body exceeds the limit of ${LIMIT} bytes (decoded).` }) } });
    expectSettledOnce();
  });

  it("stops inflating a decompression bomb at the limit: 413, and at most one more zlib chunk produced", async () => {
    const decoded = 32 * 1024 * 1024;
    const bomb = gzipSync(Buffer.alloc(decoded, 0x20));
    expect(bomb.length).toBeLessThan(LIMIT);
    const r = await send({ headers: { "content-encoding": "gzip" }, body: bomb });
    expect(r).toEqual({ status: 413, json: { error: expect.objectContaining({ code: "request_too_large", message: `Request body exceeds the limit of ${LIMIT} bytes (decoded).` }) } });
    expectSettledOnce();
    expect(inflaters).toHaveLength(1);
    const [inflater] = inflaters;
    expect(inflater!.stream.destroyed).toBe(true);
    expect(inflater!.produced).toBeGreaterThan(LIMIT);
    expect(inflater!.produced).toBeLessThanOrEqual(LIMIT + ZLIB_CHUNK);
    await new Promise((r) => setTimeout(r, 50));
    expect(inflater!.produced).toBeLessThanOrEqual(LIMIT + ZLIB_CHUNK);
  });

  it("answers a body over the limit once the client has sent the rest, which is read off and dropped", async () => {
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
    let answer = "";
    socket.on("data", (c: Buffer) => (answer += c.toString()));
    const closed = new Promise<void>((r) => socket.on("close", () => r()));
    socket.write("POST / HTTP/1.1\r\nhost: test\r\nconnection: close\r\ntransfer-encoding: chunked\r\n\r\n");
    const part = `${"x".repeat(LIMIT + 1).length.toString(16)}\r\n${"x".repeat(LIMIT + 1)}\r\n`;
    socket.write(part);
    await until(() => nexts.length === 0 && lastReq !== undefined);
    await new Promise((r) => setTimeout(r, 50));
    expect(answer).toBe("");
    socket.write(part);
    socket.write("0\r\n\r\n");
    await closed;
    expect(answer).toMatch(/^HTTP\/1.1 413 /);
    expectSettledOnce();
  });

  it.each<[string, Record<string, string>]>([
    ["identity", {}],
    ["gzip", { "content-encoding": "gzip" }],
  ])("cleans up after a client that aborts mid-body (%s): next once, with an aborted error, and no listeners left", async (_name, headers) => {
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
    const body = headers["content-encoding"] ? gzipSync(raw) : raw;
    socket.write(
      `POST / HTTP/1.1\r\nhost: test\r\ncontent-length: ${body.length}\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("")}\r\n`,
    );
    socket.write(body.subarray(0, 10));
    await until(() => lastReq !== undefined);
    await new Promise((r) => setTimeout(r, 20));
    expect(nexts).toEqual([]);
    socket.destroy();
    await until(() => nexts.length === 1);
    await new Promise((r) => setTimeout(r, 50));
    expectSettledOnce();
    expect(nexts[0]).toBeInstanceOf(JsonBodyError);
    expect(nexts[0]).toMatchObject({ status: 400, type: "request.aborted" });
    expect(inflaters.every((i) => i.stream.destroyed)).toBe(true);
    expect(logged).toEqual([]);
  });
});

describe("charsetOf", () => {
  it.each([
    [undefined, undefined],
    ["application/json", undefined],
    ["application/json; charset=UTF-8", "utf-8"],
    ['application/json; charset="utf-16"', "utf-16"],
    ['application/json; charset="ut\\f-8"', "utf-8"],
    ["application/json ;  CharSet = Latin1 ; x=1", "latin1"],
    ["application/json; charset=utf-8; charset=latin1", "utf-8"],
    ['application/json; x="a;charset=latin1"; charset=utf-8', "utf-8"],
    ["application/json; charset; charset=latin1", "latin1"],
    ['application/json; charset="latin1', undefined],
    ["application/json; charset=", ""],
  ])("%s → %s (as content-type@2 reads it)", (header, charset) => {
    expect(charsetOf(header)).toBe(charset);
  });
});
