import type { ConsoleModel, ConsoleModels, ConsoleSessionRequest, ConsoleToolPrice } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import type { ModelRow } from "../db/schema.js";
import { orgMemberOf } from "./console-session.js";

/**
 * A published model as an organization reads it: every kind of price it pays (tokens by kind, long
 * context, audio, per image by size and quality, per second of video by resolution, per web search),
 * never the deployments behind it or what the providers charge the operator. A price the catalog
 * leaves unset is the one it falls back to (cache reads and writes: input; reasoning: output).
 */
export function consoleModel(m: ModelRow): ConsoleModel {
  return {
    id: m.id,
    routes: m.routes,
    context_window: m.context_window,
    max_output_tokens: m.max_output_tokens,
    input_price_minor_per_mtok: m.input_price_minor_per_mtok,
    output_price_minor_per_mtok: m.output_price_minor_per_mtok,
    cached_input_price_minor_per_mtok: m.cached_input_price_minor_per_mtok ?? m.input_price_minor_per_mtok,
    reasoning_price_minor_per_mtok: m.reasoning_price_minor_per_mtok ?? m.output_price_minor_per_mtok,
    web_search_price_minor: m.web_search_price_minor ?? 0,
    image_prices: m.routes.includes("images") ? m.image_prices.map((p) => ({ size: p.size, quality: p.quality, price_minor: p.price_minor })) : [],
    video_prices: (m.video?.prices ?? []).map((p) => ({
      resolution: p.resolution,
      price_minor_per_second: Number(p.price_minor_per_second),
      audio_price_minor_per_second: Number(p.audio_price_minor_per_second),
    })),
    cache_write_price_minor_per_mtok: m.cache_write_price_minor_per_mtok ?? m.input_price_minor_per_mtok,
    long_context_threshold_tokens: m.long_context_threshold_tokens,
    long_context_input_price_minor_per_mtok: m.long_context_threshold_tokens > 0 ? (m.long_context_input_price_minor_per_mtok ?? m.input_price_minor_per_mtok) : 0,
    long_context_output_price_minor_per_mtok: m.long_context_threshold_tokens > 0 ? (m.long_context_output_price_minor_per_mtok ?? m.output_price_minor_per_mtok) : 0,
    audio_input_price_minor_per_mtok: m.audio_input_price_minor_per_mtok ?? 0,
    audio_output_price_minor_per_mtok: m.audio_output_price_minor_per_mtok ?? 0,
  };
}

/** The published models the session member's organization may use, and the MCP tools it may call, with the prices it pays. */
export function consoleListModels(ctx: ControlContext) {
  return async (req: ConsoleSessionRequest): Promise<ConsoleModels> => {
    const live = await orgMemberOf(ctx, req.token);
    const [rows, servers] = await Promise.all([
      ctx.db
        .selectFrom("models")
        .innerJoin("org_models", "org_models.model_id", "models.id")
        .selectAll("models")
        .where("org_models.org_id", "=", live.org_id)
        .where("models.status", "=", "published")
        .orderBy("models.id")
        .execute(),
      ctx.db
        .selectFrom("mcp_servers")
        .innerJoin("org_mcp_servers", "org_mcp_servers.server", "mcp_servers.name")
        .select(["mcp_servers.name", "mcp_servers.tools"])
        .where("org_mcp_servers.org_id", "=", live.org_id)
        .orderBy("mcp_servers.name")
        .execute(),
    ]);
    const tools: ConsoleToolPrice[] = servers.flatMap((s) => s.tools.map((t) => ({ server: s.name, tool: t.name, price_minor: t.price_minor })));
    return { models: rows.map(consoleModel), tools };
  };
}
