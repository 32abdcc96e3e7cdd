import type { Request, Response } from "express";
import type { DataPlaneContext } from "../context.js";
import { visibleModelIds } from "../catalog/visibility.js";
import type { Authenticated } from "../http/request-context.js";

/**
 * GET /v1/models: exactly the models this key may call. In the OpenAI list shape, or in the
 * Anthropic one (`{data: [{type: "model", …}], has_more, first_id, last_id}`, paged by limit,
 * after_id, before_id) when the request carries `anthropic-version`, as the Anthropic SDK's does.
 * Both add the model's limits from the catalog (`context_window`, `max_output_tokens`; in the
 * Anthropic shape also as its `max_input_tokens` / `max_tokens`), so a client can size its context
 * and output request for a model id it does not know.
 */
export function listModels(ctx: DataPlaneContext) {
  return (req: Request, res: Response, { key }: Authenticated): void => {
    const catalog = ctx.catalog.current;
    const ids = visibleModelIds(key, catalog, ctx.catalog.trialPolicy);
    const limits = (id: string) => {
      const m = catalog.models.get(id);
      return { context_window: m?.context_window ?? 0, max_output_tokens: m?.max_output_tokens ?? 0 };
    };
    if (req.headers["anthropic-version"] === undefined) {
      res.json({ object: "list", data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "gateway", ...limits(id) })) });
      return;
    }
    const q = req.query as Record<string, unknown>;
    const limit = Math.min(Math.max(Number.parseInt(String(q.limit ?? "20"), 10) || 20, 1), 1000);
    let from = 0;
    let to = ids.length;
    if (typeof q.after_id === "string") from = ids.indexOf(q.after_id) + 1;
    if (typeof q.before_id === "string" && ids.includes(q.before_id)) to = ids.indexOf(q.before_id);
    const page = typeof q.before_id === "string" && typeof q.after_id !== "string" ? ids.slice(Math.max(from, to - limit), to) : ids.slice(from, Math.min(to, from + limit));
    const hasMore = typeof q.before_id === "string" && typeof q.after_id !== "string" ? to - limit > from : from + limit < to;
    res.json({
      data: page.map((id) => {
        const l = limits(id);
        return { type: "model", id, display_name: id, created_at: "1970-01-01T00:00:00Z", max_input_tokens: l.context_window, max_tokens: l.max_output_tokens, ...l };
      }),
      has_more: hasMore,
      first_id: page[0] ?? null,
      last_id: page.at(-1) ?? null,
    });
  };
}
