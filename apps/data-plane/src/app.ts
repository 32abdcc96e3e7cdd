import express, { type NextFunction, type Request, type Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { DataPlaneContext } from "./context.js";
import { authenticate } from "./http/auth.js";
import { anthropicErrors, errorHandler, notFound } from "./http/errors.js";
import { authenticated, requestOf, startRequest, type Authenticated, type RequestContext } from "./http/request-context.js";
import { inRequestContext, traceRequests } from "./http/tracing.js";
import { chatCompletions } from "./routes/chat-completions.js";
import { credits } from "./routes/credits.js";
import { listModels } from "./routes/models.js";
import { trialPolicy } from "./routes/trial-policy.js";
import { usage } from "./routes/usage.js";
import { messages } from "./routes/messages.js";
import { countTokens } from "./routes/count-tokens.js";
import { deleteStoredResponse, responses, responsesWebSocket, storedInputItems, storedResponse } from "./routes/responses.js";
import { embeddings } from "./routes/embeddings.js";
import { mcpOther, mcpPost } from "./mcp/route.js";
import { codexModels } from "./routes/codex-models.js";
import { images } from "./routes/images.js";
import { formOrJson } from "./http/form-body.js";
import { jsonBody } from "./http/json-body.js";
import { cancelVideo, createVideo, getVideo, videoBodyGuard, videoContent } from "./routes/video.js";

type Handler = (req: Request, res: Response, rq: RequestContext) => unknown;

/**
 * A handler gets the request's context as an argument. Express 5 forwards rejected promises to the
 * error handler; this keeps sync throws going there too.
 */
const h = (fn: Handler) => (req: Request, res: Response, next: NextFunction) => {
  try {
    const rq = requestOf(res);
    // Traced: the handler runs in the request's context (the body parser's callbacks lost it).
    const r = rq.trace ? inRequestContext(rq, () => fn(req, res, rq)) : fn(req, res, rq);
    if (r instanceof Promise) r.catch(next);
  } catch (err) {
    next(err);
  }
};

/** A handler behind `auth`: its context has the key. */
const signedIn = (fn: (req: Request, res: Response, rq: Authenticated) => unknown) => h((req, res, rq) => fn(req, res, authenticated(rq)));

export function createApp(ctx: DataPlaneContext, isReady: () => boolean, isStopping: () => boolean = () => false): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");

  app.use((req, res, next) => {
    const l = startRequest(res);
    res.setHeader("x-gateway-trace-id", l.requestId);
    // The official SDKs surface these on responses and errors (OpenAI: requestID; Anthropic: request_id).
    res.setHeader("x-request-id", l.requestId);
    res.setHeader("request-id", l.requestId);
    // A stopping replica answers what still reaches it and tells the client not to reuse the
    // connection: its next request opens a new one, which the balancer sends elsewhere.
    if (isStopping()) res.setHeader("connection", "close");
    res.on("finish", () => {
      // A response begun before the stop (a stream) kept its keep-alive: its connection ends with it
      // rather than go idle, where a client could reuse it just as the server closes it.
      if (isStopping()) req.socket.end();
      const route = req.route?.path ? String(req.route.path) : "unmatched";
      const seconds = Number(process.hrtime.bigint() - l.startedHr) / 1e9;
      ctx.metrics.httpRequests.inc({ route, status: String(res.statusCode) });
      ctx.metrics.httpDuration.observe({ route }, seconds);
      if (ctx.log.isLevelEnabled("info"))
        ctx.log.info(
          { request_id: l.requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(seconds * 1e4) / 10, org_id: l.key?.org_id, key_id: l.key?.key_id, model: l.model },
          "request",
        );
    });
    next();
  });
  if (ctx.tracing) {
    // The API's requests only: probes and scrapes start no traces.
    const traced = traceRequests(ctx.tracing);
    app.use((req, res, next) => (req.path.startsWith("/v1/") || req.path === "/mcp" || req.path.startsWith("/mcp/") ? traced(req, res, next) : next()));
  }

  const auth = authenticate(ctx.keys);
  const json = (route: keyof typeof ctx.config.bodyLimits) => {
    const limit = ctx.config.bodyLimits[route];
    // The limit and the prompt bound apply to the decoded body: a compressed body is measured
    // while it inflates (a decompression bomb stops at the limit with a 413).
    const read = jsonBody(limit);
    return (req: Request, res: Response, next: NextFunction) => {
      // Refuse by declared size before reading a byte, whatever the body type.
      const declared = Number(req.headers["content-length"]);
      if (Number.isFinite(declared) && declared > limit) {
        return next(new GatewayError("request_too_large", `Request body exceeds the limit of ${limit} bytes.`));
      }
      const type = req.headers["content-type"];
      if (type && !/^application\/([a-z0-9.+-]*\+)?json\b/i.test(type)) {
        return next(new GatewayError("unsupported_media_type", `This route takes a JSON body (Content-Type: application/json), not '${type.split(";")[0]}'.`));
      }
      read(req, res, next);
    };
  };

  // The model routes first: express tries routes in the order they were added and nearly every
  // request is one of these. A route matches its own method only, so no answer depends on the order.
  app.post("/v1/chat/completions", auth, json("chat"), signedIn(chatCompletions(ctx)));
  app.post("/v1/messages", anthropicErrors, auth, json("messages"), signedIn(messages(ctx)));
  app.post("/v1/messages/count_tokens", anthropicErrors, auth, json("messages"), signedIn(countTokens(ctx)));
  app.post("/v1/responses", auth, json("responses"), signedIn(responses(ctx)));
  app.post("/v1/embeddings", auth, json("embeddings"), signedIn(embeddings(ctx)));
  app.post("/v1/images/generations", auth, formOrJson(ctx.config.bodyLimits.images), signedIn(images(ctx)));
  app.post("/v1/video/generations", auth, videoBodyGuard, json("video"), signedIn(createVideo(ctx)));
  // The MCP gateway (docs/mcp.md): every server the key may use, or one.
  app.post(["/mcp", "/mcp/:server"], auth, json("mcp"), signedIn(mcpPost(ctx)));
  app.all(["/mcp", "/mcp/:server"], auth, mcpOther);

  app.get("/healthz", (_req, res) => void res.json({ status: "ok" }));
  app.get("/readyz", (_req, res) => {
    const ok = isReady();
    res.status(ok ? 200 : 503).json({ status: ok ? "ready" : "not_ready" });
  });
  // With a metrics port of its own (DATA_PLANE_METRICS_PORT) the API's port does not show them.
  if (ctx.config.metricsPort === undefined) {
    app.get(
      "/metrics",
      h(async (_req, res) => {
        res.setHeader("content-type", ctx.metrics.registry.contentType);
        res.end(await ctx.metrics.registry.metrics());
      }),
    );
  }
  app.get("/v1/trial-policy", h(trialPolicy(ctx)));
  app.get("/v1/models", auth, signedIn(listModels(ctx)));
  app.post("/v1/codex/models", auth, json("responses"), signedIn(codexModels(ctx)));
  app.get("/v1/credits", auth, signedIn(credits(ctx)));
  app.get("/v1/usage/:requestId", auth, signedIn(usage(ctx)));
  app.get("/v1/responses", h(responsesWebSocket));
  app.get("/v1/responses/:responseId", auth, signedIn(storedResponse(ctx)));
  app.get("/v1/responses/:responseId/input_items", auth, signedIn(storedInputItems(ctx)));
  app.delete("/v1/responses/:responseId", auth, signedIn(deleteStoredResponse(ctx)));
  app.get("/v1/video/generations/:jobId", auth, signedIn(getVideo(ctx)));
  app.get("/v1/video/generations/:jobId/content", auth, signedIn(videoContent(ctx)));
  app.post("/v1/video/generations/:jobId/cancel", auth, signedIn(cancelVideo(ctx)));

  app.use(notFound);
  app.use(errorHandler(ctx.log));
  return app;
}
