/**
 * Baseline for the hot-path benchmark: the least an express + undici proxy can do (parse JSON,
 * forward, parse the answer, reply; pipe a stream). The data-plane's per-request CPU and stream
 * first byte are compared against this.
 */
import express from "express";
import { Agent, request } from "undici";

const upstream = process.env.BARE_UPSTREAM!;
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 512 });
const app = express();
app.use(express.json());
app.post("/v1/chat/completions", async (req, res) => {
  const r = await request(`${upstream}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${process.env.FAKE_UPSTREAM_API_KEY}` },
    body: JSON.stringify({ ...req.body, model: "fake-chat" }),
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
});
const server = app.listen(Number(process.env.BARE_PORT), "127.0.0.1");
process.once("SIGTERM", () => server.close(() => process.exit(0)));
