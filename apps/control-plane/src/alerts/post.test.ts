import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postOnce } from "./post.js";

/** One attempt over the wire: to the address checked for it, never following a redirect, within its deadline. */
let server: Server;
let port: number;
const seen: { host: string | undefined; body: string; headers: IncomingMessage["headers"] }[] = [];
let answer: (res: import("node:http").ServerResponse) => void = (res) => res.end("ok");

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ host: req.headers.host, body, headers: req.headers });
      answer(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("postOnce", () => {
  it("connects to the checked address, whatever the name would resolve to, and sends the JSON", async () => {
    // No resolver knows this name: the pinned lookup is what connects.
    const url = new URL(`http://hooks.never-resolved.invalid:${port}/in`);
    const r = await postOnce({ url, addresses: ["127.0.0.1"] }, { "gateway-event-id": "alert_x" }, '{"a":1}', AbortSignal.timeout(2_000));
    expect(r).toEqual({ ok: true, status: 200 });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ host: `hooks.never-resolved.invalid:${port}`, body: '{"a":1}' });
    expect(last.headers).toMatchObject({ "content-type": "application/json", "gateway-event-id": "alert_x" });
  });

  it("does not follow a redirect: a 3xx is a failed attempt naming where it pointed", async () => {
    answer = (res) => res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end();
    const before = seen.length;
    const r = await postOnce({ url: new URL(`http://127.0.0.1:${port}/`), addresses: ["127.0.0.1"] }, {}, "{}", AbortSignal.timeout(2_000));
    expect(r).toEqual({ ok: false, status: 302, error: "answered 302 (redirects are not followed: Location http://169.254.169.254/latest/meta-data)" });
    expect(seen.length).toBe(before + 1);
  });

  it("fails an attempt the receiver does not answer within the deadline, and one it refuses", async () => {
    answer = () => undefined;
    const started = Date.now();
    const r = await postOnce({ url: new URL(`http://127.0.0.1:${port}/`), addresses: ["127.0.0.1"] }, {}, "{}", AbortSignal.timeout(150));
    expect(r).toEqual({ ok: false, status: 0, error: "no answer within the attempt's deadline" });
    expect(Date.now() - started).toBeLessThan(2_000);
    answer = (res) => res.writeHead(500).end("boom");
    expect(await postOnce({ url: new URL(`http://127.0.0.1:${port}/`), addresses: ["127.0.0.1"] }, {}, "{}", AbortSignal.timeout(2_000))).toEqual({ ok: false, status: 500, error: "answered 500" });
    const closed = await postOnce({ url: new URL("http://127.0.0.1:1/"), addresses: ["127.0.0.1"] }, {}, "{}", AbortSignal.timeout(2_000));
    expect(closed).toMatchObject({ ok: false, status: 0, error: expect.stringMatching(/ECONNREFUSED/) });
  });
});
