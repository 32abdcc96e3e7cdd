/**
 * Baseline for the hot-path and stream benchmarks: the least an express + undici proxy can do
 * (parse JSON, forward, parse the answer, reply; pipe a stream's bytes as they come). The
 * data-plane's per-request CPU, per-chunk CPU and stream first byte are compared against this.
 * Chat completions and Messages, each to the same path upstream.
 */
import express from "express";
import { Agent, request } from "undici";

const upstream = process.env.BARE_UPSTREAM!;
const key = process.env.FAKE_UPSTREAM_API_KEY!;
/** Connections per upstream origin (BARE_CONNECTIONS; the stream concurrency bench gives it the gateway's 4,096). */
const agent = new Agent({ keepAliveTimeout: 30_000, connections: Number(process.env.BARE_CONNECTIONS ?? 512) });
const app = express();
app.use(express.json());
const proxy =
  (path: string, model: string, auth: Record<string, string>): express.RequestHandler =>
  async (req, res) => {
    const r = await request(`${upstream}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ ...req.body, model }),
      dispatcher: agent,
    });
    if (req.body.stream) {
      // Streams are piped as they arrive: the least a proxy hop adds to the first byte.
      res.writeHead(r.statusCode, { "content-type": "text/event-stream" });
      for await (const chunk of r.body) res.write(chunk);
      res.end();
      return;
    }
    res.status(r.statusCode).json(await r.body.json());
  };
app.post("/v1/chat/completions", proxy("/v1/chat/completions", "fake-chat", { authorization: `Bearer ${key}` }));
app.post("/v1/messages", proxy("/v1/messages", "fake-claude", { "x-api-key": key, "anthropic-version": "2023-06-01" }));
// The same listen backlog as the data-plane's (DATA_PLANE_LISTEN_BACKLOG).
const server = app.listen(Number(process.env.BARE_PORT), "127.0.0.1", 4096);
process.once("SIGTERM", () => server.close(() => process.exit(0)));
