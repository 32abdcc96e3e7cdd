import { execFileSync } from "node:child_process";
import { createServer, Server, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createSecureServer, type Http2SecureServer } from "node:http2";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Histogram, Registry } from "@gateway/observability";
import { NEVER_ABORTED, UpstreamClient, UpstreamTransportError, plainOrigin, type PoolSettings } from "./upstream-client.js";

/** A server that holds every request until the test releases it, counting connections. */
interface HoldingServer {
  url: string;
  connections: number;
  peakOpen: number;
  requests: number;
  held: ServerResponse[];
  release(): void;
  close(): Promise<void>;
}

function trackConnections(server: Server | Http2SecureServer | ReturnType<typeof createHttpsServer>, s: HoldingServer): void {
  let open = 0;
  const onSocket = (socket: { once(e: "close", f: () => void): void }) => {
    s.connections++;
    open++;
    s.peakOpen = Math.max(s.peakOpen, open);
    socket.once("close", () => open--);
  };
  server.on(server instanceof Server ? "connection" : "secureConnection", onSocket);
}

async function listen(server: Server | Http2SecureServer | ReturnType<typeof createHttpsServer>, scheme: string, s: HoldingServer): Promise<HoldingServer> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const addr = server.address();
  s.url = `${scheme}://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/v1/chat/completions`;
  s.close = () =>
    new Promise<void>((r) => {
      s.release();
      if ("closeAllConnections" in server) server.closeAllConnections();
      server.close(() => r());
    });
  return s;
}

function holdingState(): HoldingServer {
  const s: HoldingServer = {
    url: "",
    connections: 0,
    peakOpen: 0,
    requests: 0,
    held: [],
    release() {
      for (const r of s.held.splice(0)) r.end("{}");
    },
    close: async () => undefined,
  };
  return s;
}

function onRequest(s: HoldingServer) {
  return (req: IncomingMessage | import("node:http2").Http2ServerRequest, res: ServerResponse | import("node:http2").Http2ServerResponse) => {
    s.requests++;
    req.resume();
    req.on("end", () => {
      // Both response kinds answer the same calls; typed as the HTTP/1.1 one.
      const r = res as ServerResponse;
      r.writeHead(200, { "content-type": "application/json" });
      s.held.push(r);
    });
  };
}

async function holdingHttpServer(): Promise<HoldingServer> {
  const s = holdingState();
  const server = createServer(onRequest(s));
  trackConnections(server, s);
  return listen(server, "http", s);
}

const provider = (url: string, max_connections: number, http2 = false): PoolSettings => ({ code: "p", base_url: url.replace(/\/chat\/completions$/, ""), max_connections, http2 });
const post = (url: string) => ({ url, headers: { "content-type": "application/json" }, body: "{}" });

function client(): { upstream: UpstreamClient; registry: Registry } {
  const registry = new Registry();
  const connectionWait = new Histogram({ name: "gateway_upstream_connection_wait_seconds", help: "wait", labelNames: ["provider"], buckets: [0.01, 1], registers: [registry] });
  return { upstream: new UpstreamClient({ connectionWait }), registry };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error("condition not reached");
}

describe("provider URLs", () => {
  it("are split into origin and path by hand only when URL parsing would not change them", () => {
    const split = (u: string) => (plainOrigin(u) < 0 ? undefined : [u.slice(0, plainOrigin(u)), u.slice(plainOrigin(u))]);
    expect(split("https://api.openai.com/v1/chat/completions")).toEqual(["https://api.openai.com", "/v1/chat/completions"]);
    expect(split("http://127.0.0.1:8080/v1/videos/vid_1?x=1&y=%20")).toEqual(["http://127.0.0.1:8080", "/v1/videos/vid_1?x=1&y=%20"]);
    expect(split("http://[::1]:9/a")).toEqual(["http://[::1]:9", "/a"]);
    // Left to undici's URL parsing: credentials, no path, a query before the path, a fragment,
    // spaces, non-ASCII, backslashes, other schemes.
    for (const u of [
      "https://user:pw@host/a",
      "https://host",
      "https://host?x=/a",
      "https://host/a#frag",
      "https://host/a b",
      "https://host/modèle",
      "https://host\\a/b",
      "ftp://host/a",
      "HTTPS://host/a",
    ]) {
      expect(plainOrigin(u)).toBe(-1);
    }
  });
});

describe("upstream client pools", () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0).reverse()) await c();
  });

  it("opens at most the provider's max_connections; the rest queue and are served as connections free", async () => {
    const server = await holdingHttpServer();
    const { upstream, registry } = client();
    closers.push(
      () => server.close(),
      () => upstream.close(),
    );
    const calls = Array.from({ length: 5 }, () => upstream.send(provider(server.url, 2), post(server.url), 30_000, NEVER_ABORTED));
    await until(() => server.held.length === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(server.requests).toBe(2);
    while (server.requests < 5) {
      server.release();
      await until(() => server.held.length > 0 || server.requests === 5);
    }
    server.release();
    const done = await Promise.all(calls);
    for (const d of done) await d.res.body.text();
    expect(done.map((d) => d.res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(server.connections).toBe(2);
    const metrics = await registry.metrics();
    expect(metrics).toContain('gateway_upstream_connection_wait_seconds_count{provider="p"} 5');
  });

  it("fails a request still waiting for a connection at its timeout, and never sends it", async () => {
    const server = await holdingHttpServer();
    const { upstream } = client();
    closers.push(
      () => server.close(),
      () => upstream.close(),
    );
    const first = upstream.send(provider(server.url, 1), post(server.url), 30_000, NEVER_ABORTED);
    await until(() => server.held.length === 1);
    const queued = upstream.send(provider(server.url, 1), post(server.url), 1_000, NEVER_ABORTED);
    const err = await queued.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamTransportError);
    expect((err as UpstreamTransportError).kind).toBe("timeout");
    server.release();
    await (await first).res.body.text();
    // The connection is reused by the next request: the expired one was dropped, not written.
    const next = upstream.send(provider(server.url, 1), post(server.url), 30_000, NEVER_ABORTED);
    await until(() => server.held.length === 1);
    server.release();
    await (await next).res.body.text();
    expect(server.requests).toBe(2);
    expect(server.connections).toBe(1);
  });

  it("a client that leaves while its request is queued releases it without sending it", async () => {
    const server = await holdingHttpServer();
    const { upstream } = client();
    closers.push(
      () => server.close(),
      () => upstream.close(),
    );
    const first = upstream.send(provider(server.url, 1), post(server.url), 30_000, NEVER_ABORTED);
    await until(() => server.held.length === 1);
    const gone = new AbortController();
    const queued = upstream.send(provider(server.url, 1), post(server.url), 30_000, gone.signal);
    gone.abort();
    // Not sent: nothing the provider could bill (a stream's client gone before its answer is billed only when sent).
    expect(await queued.catch((e: unknown) => e)).toMatchObject({ kind: "aborted", sent: false });
    server.release();
    await (await first).res.body.text();
    expect(server.requests).toBe(1);
  });

  it("a client that leaves after its request was written: the abort says it was sent (the provider had it)", async () => {
    const server = await holdingHttpServer();
    const { upstream } = client();
    closers.push(
      () => server.close(),
      () => upstream.close(),
    );
    const gone = new AbortController();
    const written = upstream.send(provider(server.url, 1), post(server.url), 30_000, gone.signal);
    await until(() => server.held.length === 1);
    gone.abort();
    expect(await written.catch((e: unknown) => e)).toMatchObject({ kind: "aborted", sent: true });
    server.release();
  });

  it("rebuilds a provider's pool when the catalog changes its limit", async () => {
    const server = await holdingHttpServer();
    const { upstream } = client();
    closers.push(
      () => server.close(),
      () => upstream.close(),
    );
    const one = Array.from({ length: 3 }, () => upstream.send(provider(server.url, 1), post(server.url), 30_000, NEVER_ABORTED));
    await until(() => server.held.length === 1);
    // The same provider now allows 3: new calls go to a new pool while the old one drains.
    const three = Array.from({ length: 3 }, () => upstream.send(provider(server.url, 3), post(server.url), 30_000, NEVER_ABORTED));
    await until(() => server.held.length === 4);
    while (server.requests < 6) {
      server.release();
      await until(() => server.held.length > 0 || server.requests === 6);
    }
    server.release();
    for (const c of await Promise.all([...one, ...three])) await c.res.body.text();
    expect(server.requests).toBe(6);
    expect(upstream.poolCount).toBe(1);
  });
});

describe("HTTP/2 providers", () => {
  let dir: string;
  let cert: Buffer;
  let key: Buffer;
  const rejectUnauthorized = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "h2-cert-"));
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=127.0.0.1"], {
      stdio: "ignore",
    });
    cert = readFileSync(join(dir, "cert.pem"));
    key = readFileSync(join(dir, "key.pem"));
    // A self-signed test certificate.
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  });
  afterAll(() => {
    if (rejectUnauthorized === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = rejectUnauthorized;
    rmSync(dir, { recursive: true, force: true });
  });

  it("multiplexes concurrent POSTs on one session", async () => {
    const s = holdingState();
    const server = createSecureServer({ cert, key }, onRequest(s));
    trackConnections(server, s);
    await listen(server, "https", s);
    const { upstream } = client();
    try {
      const calls = Array.from({ length: 5 }, () => upstream.send(provider(s.url, 1, true), post(s.url), 30_000, NEVER_ABORTED));
      await until(() => s.held.length === 5);
      s.release();
      for (const c of await Promise.all(calls)) await c.res.body.text();
      expect(s.connections).toBe(1);
    } finally {
      await upstream.close();
      await s.close();
    }
  });

  it("refuses a provider marked http2 that answers in HTTP/1.1", async () => {
    const s = holdingState();
    const server = createHttpsServer({ cert, key }, onRequest(s));
    trackConnections(server, s);
    await listen(server, "https", s);
    const { upstream } = client();
    try {
      const err = await upstream.send(provider(s.url, 1, true), post(s.url), 30_000, NEVER_ABORTED).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamTransportError);
      expect((err as UpstreamTransportError).message).toMatch(/did not negotiate HTTP\/2/);
      expect(s.requests).toBe(0);
    } finally {
      await upstream.close();
      await s.close();
    }
  });
});
