import type { Kysely } from "@gateway/db";
import type { CatalogSnapshot, GetCatalogRequest } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import type { ControlDb } from "../db/schema.js";

/** The whole catalog, or not_modified when the caller already holds the current version. */
export function getCatalog(ctx: ControlContext) {
  return async (req: GetCatalogRequest): Promise<CatalogSnapshot> => {
    return ctx.db.transaction().execute(async (trx) => {
      const { version } = await trx.selectFrom("catalog_state").select("version").where("id", "=", 1).executeTakeFirstOrThrow();
      if (req.known_version === version) return { version, not_modified: true, models: [], providers: [], mcp_servers: [] };
      return readCatalog(trx, version);
    });
  };
}

/** The catalog as `trx` (a transaction: one snapshot) sees it, labelled `version`. */
export async function readCatalog(trx: Kysely<ControlDb>, version: number): Promise<CatalogSnapshot> {
  const [models, deployments, providers, mcpServers, pins, baselines] = await Promise.all([
    trx.selectFrom("models").selectAll().orderBy("id").execute(),
    trx.selectFrom("deployments").selectAll().orderBy("model_id").orderBy("priority").orderBy("id").execute(),
    trx.selectFrom("providers").selectAll().orderBy("code").execute(),
    trx.selectFrom("mcp_servers").selectAll().orderBy("name").execute(),
    trx.selectFrom("mcp_tool_pins").select(["server", "tool", "definition", "digest"]).execute(),
    trx.selectFrom("mcp_server_baselines").select(["server", "tools"]).execute(),
  ]);
  return {
    version,
    not_modified: false,
    models: models.map((m) => ({
      id: m.id,
      status: m.status,
      routes: m.routes,
      context_window: m.context_window,
      max_output_tokens: m.max_output_tokens,
      input_price_minor_per_mtok: m.input_price_minor_per_mtok,
      output_price_minor_per_mtok: m.output_price_minor_per_mtok,
      image_prices: m.image_prices,
      video: m.video,
      max_input_tokens_per_image: m.max_input_tokens_per_image,
      max_input_tokens_per_audio: m.max_input_tokens_per_audio,
      default_image_size: m.default_image_size,
      // Unset prices stay absent on the wire: the data-plane applies the defaults (also when an
      // older control-plane sends none).
      ...(m.cached_input_price_minor_per_mtok !== null ? { cached_input_price_minor_per_mtok: m.cached_input_price_minor_per_mtok } : {}),
      ...(m.cache_write_price_minor_per_mtok !== null ? { cache_write_price_minor_per_mtok: m.cache_write_price_minor_per_mtok } : {}),
      ...(m.reasoning_price_minor_per_mtok !== null ? { reasoning_price_minor_per_mtok: m.reasoning_price_minor_per_mtok } : {}),
      ...(m.web_search_price_minor !== null ? { web_search_price_minor: m.web_search_price_minor } : {}),
      long_context_threshold_tokens: m.long_context_threshold_tokens,
      ...(m.long_context_input_price_minor_per_mtok !== null ? { long_context_input_price_minor_per_mtok: m.long_context_input_price_minor_per_mtok } : {}),
      ...(m.long_context_output_price_minor_per_mtok !== null ? { long_context_output_price_minor_per_mtok: m.long_context_output_price_minor_per_mtok } : {}),
      ...(m.audio_input_price_minor_per_mtok !== null ? { audio_input_price_minor_per_mtok: m.audio_input_price_minor_per_mtok } : {}),
      ...(m.audio_output_price_minor_per_mtok !== null ? { audio_output_price_minor_per_mtok: m.audio_output_price_minor_per_mtok } : {}),
      reasoning: m.reasoning,
      max_output_tokens_per_second: m.max_output_tokens_per_second,
      max_input_tokens_per_pdf_page: m.max_input_tokens_per_pdf_page,
      max_input_tokens_per_media_second: m.max_input_tokens_per_media_second,
      max_input_tokens_per_url_part: m.max_input_tokens_per_url_part,
      max_input_tokens_per_web_search: m.max_input_tokens_per_web_search,
      tool_prompt_tokens: m.tool_prompt_tokens,
      anthropic_betas: m.anthropic_betas,
      deployments: deployments
        .filter((d) => d.model_id === m.id)
        .map((d) => ({
          provider: d.provider_code,
          upstream_model: d.upstream_model,
          priority: d.priority,
          weight: d.weight,
          ...(d.cost_input_price_minor_per_mtok !== null ? { cost_input_price_minor_per_mtok: d.cost_input_price_minor_per_mtok } : {}),
          ...(d.cost_output_price_minor_per_mtok !== null ? { cost_output_price_minor_per_mtok: d.cost_output_price_minor_per_mtok } : {}),
          ...(d.cost_cached_input_price_minor_per_mtok !== null ? { cost_cached_input_price_minor_per_mtok: d.cost_cached_input_price_minor_per_mtok } : {}),
          ...(d.cost_cache_write_price_minor_per_mtok !== null ? { cost_cache_write_price_minor_per_mtok: d.cost_cache_write_price_minor_per_mtok } : {}),
          ...(d.cost_reasoning_price_minor_per_mtok !== null ? { cost_reasoning_price_minor_per_mtok: d.cost_reasoning_price_minor_per_mtok } : {}),
        })),
    })),
    providers: providers.map((p) => ({
      code: p.code,
      kind: p.kind,
      base_url: p.base_url,
      credential_ref: p.credential_ref,
      auth_header: p.auth_header,
      max_connections: p.max_connections,
      http2: p.http2,
    })),
    // Each offered tool with its pinned definition (docs/mcp.md), once one was seen.
    mcp_servers: mcpServers.map((m) => ({
      name: m.name,
      url: m.url,
      credential_ref: m.credential_ref,
      auth_header: m.auth_header,
      session_scope: m.session_scope,
      identity_header: m.identity_header,
      org_credential_refs: m.org_credential_refs,
      tools: m.tools.map((t) => {
        const pin = pins.find((p) => p.server === m.name && p.tool === t.name);
        if (pin?.digest) return { ...t, definition_json: JSON.stringify(pin.definition), digest: pin.digest, awaiting_approval: false };
        // Trust on first use is the server's, once (rpc/mcp-pins.ts): after its first report, a tool its baseline does not name waits for an operator.
        const baseline = baselines.find((b) => b.server === m.name);
        return { ...t, definition_json: "", digest: "", awaiting_approval: pin !== undefined || (baseline !== undefined && !baseline.tools.includes(t.name)) };
      }),
    })),
  };
}
