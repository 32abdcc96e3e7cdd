import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { handleChat } from "./openai-chat.js";
import { handleResponses } from "./openai-responses.js";
import { handleEmbeddings } from "./openai-embeddings.js";
import { handleAnthropic, handleAnthropicCountTokens, type PromptCache } from "./anthropic-messages.js";
import { flakyStatus, parseDirectives } from "./directives.js";
import { handleVideo } from "./video.js";
import { handleGemini } from "./gemini.js";
import { handleMcp, type FakeMcpState } from "./mcp.js";
import { StatefulMcp } from "./mcp-stateful.js";

export { parseDirectives, stripMarkers, type Directives } from "./directives.js";
export { countTokens } from "./tokens.js";
export { videoStatusEndpoint } from "./video.js";

/**
 * A fake model provider for tests, benchmarks and the local demo: OpenAI-compatible chat
 * completions (JSON and SSE with a final usage chunk), the Anthropic Messages API, Google's Gemini
 * API (under /gemini/v1beta), video APIs; deterministic, with fault injection.
 * Not part of a production deployment.
 */
export interface FakeUpstreamOptions {
  host?: string;
  port?: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /**
   * What the fake answered (the JSON or the whole event stream, up to 256 KiB), once the answer
   * ended: tests take the provider's own usage from it (`providerUsage`), not from the gateway.
   */
  answer?: string;
}

export interface FakeUpstream {
  readonly port: number;
  readonly url: string;
  /** The last requests received (at most 200), oldest first. */
  readonly requests: RecordedRequest[];
  /** TCP connections open now, and the most open at once (also served at GET /_fake/connections). */
  readonly connections: { readonly open: number; readonly peak: number };
  close(): Promise<void>;
}

const MAX_RECORDED = 200;
const MAX_ANSWER = 256 * 1024;

/** Keeps what the fake writes for one request on its record (bounded), complete when the answer ends. */
function recordAnswer(res: ServerResponse, entry: RecordedRequest): void {
  const parts: string[] = [];
  let size = 0;
  const keep = (chunk: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function" || size > MAX_ANSWER) return;
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    size += text.length;
    parts.push(text);
  };
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk);
    return write(chunk, ...rest);
  }) as ServerResponse["write"];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk);
    entry.answer = parts.join("");
    return end(chunk, ...rest);
  }) as ServerResponse["end"];
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeUpstream(opts: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const promptCache: PromptCache = new Set();
  const mcpState: FakeMcpState = { shifted: false };
  const statefulMcp = new StatefulMcp();
  const connections = { open: 0, peak: 0 };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const raw = await readBody(req);
      let body: unknown = undefined;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const entry: RecordedRequest = { method: req.method ?? "GET", path, headers: req.headers, body };
      requests.push(entry);
      recordAnswer(res, entry);
      if (requests.length > MAX_RECORDED) requests.shift();
      if (path === "/_fake/connections") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(connections));
        return;
      }
      if (path === "/healthz") {
        res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
        return;
      }
      // Any credential: what each organization's session sent is in `requests`.
      if (await statefulMcp.handle(req, res, path, body)) return;
      if (path === "/mcp" || path.startsWith("/_fake/mcp/")) {
        if (opts.apiKey && path === "/mcp" && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
          res.writeHead(401, { "content-type": "application/json" }).end('{"error":"missing or wrong upstream credential"}');
          return;
        }
        await handleMcp(req, res, path, body, mcpState);
        return;
      }
      if (req.method === "POST" && (path === "/v1/messages" || path === "/v1/messages/count_tokens") && body && typeof body === "object") {
        if (opts.apiKey && req.headers["x-api-key"] !== opts.apiKey) {
          res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }));
          return;
        }
        // What the gateway forwarded (top_k, cache_control, anthropic-beta …) is in `requests`.
        if (path === "/v1/messages") await handleAnthropic(body as never, res, promptCache);
        else handleAnthropicCountTokens(body as never, res);
        return;
      }
      // Video routes check their own credentials (fal's scheme is `Authorization: Key …`; files are public).
      if (await handleVideo(req, res, path, body, opts.apiKey)) return;
      // Gemini takes its key in x-goog-api-key.
      if (await handleGemini(req, res, path, body, opts.apiKey)) return;
      if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
        res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } }));
        return;
      }
      if (req.method === "POST" && path === "/v1/chat/completions" && body && typeof body === "object") {
        await handleChat(body as never, res, req);
        return;
      }
      if (req.method === "POST" && path === "/v1/responses" && body && typeof body === "object") {
        await handleResponses(body as never, res);
        return;
      }
      if (req.method === "POST" && (path === "/v1/embeddings" || path === "/v1/images/generations") && body && typeof body === "object") {
        // Fault injection as for chat: from the upstream model name and the prompt / input text.
        const b = body as { model?: unknown; input?: unknown; prompt?: unknown };
        const d = parseDirectives(String(b.model ?? ""), JSON.stringify(b.input ?? b.prompt ?? ""));
        if (d.delayMs) await new Promise((r) => setTimeout(r, d.delayMs));
        const failWith = flakyStatus(d);
        if (failWith !== undefined && failWith !== 200) {
          const headers: Record<string, string> = { "content-type": "application/json" };
          if (d.retryAfterS !== undefined) headers["retry-after"] = String(d.retryAfterS);
          res.writeHead(failWith, headers).end(JSON.stringify({ error: { message: `fake upstream status ${failWith}` } }));
          return;
        }
        if (d.malformed) {
          res.writeHead(200, { "content-type": "application/json" }).end('{"data": [');
          return;
        }
      }
      if (req.method === "POST" && path === "/v1/embeddings" && body && typeof body === "object") {
        handleEmbeddings(body as never, res);
        return;
      }
      if (req.method === "POST" && path === "/v1/images/generations" && body && typeof body === "object") {
        const b = body as { n?: number; response_format?: string; prompt?: string };
        const n = b.n ?? 1;
        // A 1×1 transparent PNG stands in for every generated image.
        const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
        const data = Array.from({ length: n }, (_, i) =>
          b.response_format === "b64_json" ? { b64_json: png, revised_prompt: b.prompt } : { url: `http://${req.headers.host}/files/image-${i}.png`, revised_prompt: b.prompt },
        );
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ created: Math.floor(Date.now() / 1000), data }));
        return;
      }
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `Unknown path ${path}`, type: "invalid_request_error" } }));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on("connection", (socket) => {
    connections.open++;
    connections.peak = Math.max(connections.peak, connections.open);
    socket.once("close", () => connections.open--);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // A provider's front door takes a burst of connections (Node's default backlog, 511, does not).
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", 4096, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    port,
    url: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    requests,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
