import { GatewayError } from "@gateway/errors";
import { inTransaction } from "@gateway/db";
import type { ApplyCatalogRequest, ApplyCatalogResponse } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { parseCatalogDocument } from "../catalog/document.js";
import { nextCatalogVersion } from "../catalog/price-sheets.js";

/** Upserts providers and models in one transaction; a listed model's deployments are replaced. */
export function applyCatalog(ctx: ControlContext) {
  return async (req: ApplyCatalogRequest): Promise<ApplyCatalogResponse> => {
    const doc = parseCatalogDocument(req.document_json);
    const version = await inTransaction(ctx.db, async (trx) => {
      for (const p of doc.providers) {
        await trx
          .insertInto("providers")
          .values({ ...p, updated_at: new Date() })
          .onConflict((oc) =>
            oc.column("code").doUpdateSet({
              kind: p.kind,
              base_url: p.base_url,
              credential_ref: p.credential_ref,
              auth_header: p.auth_header,
              max_connections: p.max_connections,
              http2: p.http2,
              updated_at: new Date(),
            }),
          )
          .execute();
      }
      const known = new Set((await trx.selectFrom("providers").select("code").execute()).map((p) => p.code));
      for (const [i, m] of doc.models.entries()) {
        for (const [j, d] of m.deployments.entries()) {
          if (!known.has(d.provider)) throw new GatewayError("invalid_request", `invalid catalog document: models[${i}].deployments[${j}].provider: unknown provider "${d.provider}"`);
        }
        const { deployments, image_prices, video, ...rest } = m;
        const model = { ...rest, image_prices: JSON.stringify(image_prices), video: video ? JSON.stringify(video) : null };
        await trx
          .insertInto("models")
          .values({ ...model, updated_at: new Date() })
          .onConflict((oc) => oc.column("id").doUpdateSet({ ...model, updated_at: new Date() }))
          .execute();
        await trx.deleteFrom("deployments").where("model_id", "=", m.id).execute();
        if (deployments.length) {
          await trx
            .insertInto("deployments")
            .values(
              deployments.map((d) => ({
                model_id: m.id,
                provider_code: d.provider,
                upstream_model: d.upstream_model,
                priority: d.priority,
                weight: d.weight,
                cost_input_price_minor_per_mtok: d.cost_input_price_minor_per_mtok,
                cost_output_price_minor_per_mtok: d.cost_output_price_minor_per_mtok,
                cost_cached_input_price_minor_per_mtok: d.cost_cached_input_price_minor_per_mtok,
                cost_cache_write_price_minor_per_mtok: d.cost_cache_write_price_minor_per_mtok,
                cost_reasoning_price_minor_per_mtok: d.cost_reasoning_price_minor_per_mtok,
              })),
            )
            .execute();
        }
      }
      for (const m of doc.mcp_servers) {
        const row = {
          url: m.url,
          credential_ref: m.credential_ref,
          auth_header: m.auth_header,
          session_scope: m.session,
          identity_header: m.identity_header,
          org_credential_refs: JSON.stringify(m.org_credential_refs),
          tools: JSON.stringify(m.tools),
          updated_at: new Date(),
        };
        await trx
          .insertInto("mcp_servers")
          .values({ name: m.name, ...row })
          .onConflict((oc) => oc.column("name").doUpdateSet(row))
          .execute();
      }
      return nextCatalogVersion(ctx, trx);
    });
    ctx.publishChange({ kind: "catalog", catalog_version: version });
    return { version, providers: doc.providers.length, models: doc.models.length, mcp_servers: doc.mcp_servers.length };
  };
}
