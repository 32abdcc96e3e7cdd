import { GatewayError } from "@gateway/errors";
import { sql, type Kysely } from "@gateway/db";
import {
  TOP_UP_GRANT_TTL_MS,
  signTopUpGrant,
  type ConsoleApplyCatalogRequest,
  type ConsoleCatalog,
  type ConsoleCatalogChange,
  type ConsoleGrantTopUpRequest,
  type ConsoleListOrgsRequest,
  type ListOrgsResponse,
  type TopUpGrant,
} from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { CatalogDocument, parseCatalogDocument } from "../catalog/document.js";
import type { ControlDb } from "../db/schema.js";
import { toOrgs } from "../orgs.js";
import { applyCatalog } from "./apply-catalog.js";
import { audited } from "./console-audit.js";
import { operatorOf } from "./console-session.js";

const MAX_ORGS = 100;
const MAX_DOCUMENT = 1024 * 1024;

/** Organizations whose id or name contains `query` (case-insensitive), newest first, at most 100: the operator's search. */
export function consoleListOrgs(ctx: ControlContext) {
  return async (req: ConsoleListOrgsRequest): Promise<ListOrgsResponse> => {
    await operatorOf(ctx, req.token);
    const q = req.query.trim().slice(0, 100);
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const orgs = await ctx.db
      .selectFrom("organizations")
      .selectAll()
      .$if(q !== "", (b) => b.where((eb) => eb.or([eb("id", "ilike", like), eb("name", "ilike", like)])))
      .orderBy("created_at", "desc")
      .limit(MAX_ORGS)
      .execute();
    return { orgs: await toOrgs(ctx.db, orgs) };
  };
}

/**
 * A grant for one top-up (docs/security.md, "Top-ups"), signed only for an operator's live session
 * and an organization that exists: the ledger credits the console's top-ups with nothing else.
 */
export function consoleGrantTopUp(ctx: ControlContext) {
  return async (req: ConsoleGrantTopUpRequest): Promise<TopUpGrant> => {
    const operator = await operatorOf(ctx, req.token);
    const key = ctx.config.grantSigningKey;
    if (!key) throw new GatewayError("service_unavailable", "Top-ups through the console are not configured: the control-plane has no CONTROL_PLANE_GRANT_SIGNING_KEY.");
    if (!Number.isSafeInteger(req.amount_minor) || req.amount_minor <= 0) throw new GatewayError("invalid_request", "amount_minor must be a positive integer");
    if (!req.idempotency_key) throw new GatewayError("invalid_request", "idempotency_key is required");
    const org = await ctx.db.selectFrom("organizations").select("id").where("id", "=", req.org_id).executeTakeFirst();
    if (!org) throw new GatewayError("not_found", `organization '${req.org_id}' does not exist`);
    const { grant, claims } = signTopUpGrant(key, {
      org_id: req.org_id,
      amount_minor: req.amount_minor,
      idempotency_key: req.idempotency_key,
      by: operator.email,
      exp_ms: Date.now() + TOP_UP_GRANT_TTL_MS,
    });
    return { grant, expires_at_ms: claims.exp_ms };
  };
}

/** The catalog as the document `catalog apply` takes (every field, defaults filled in), and its version. */
export async function catalogDocument(db: Kysely<ControlDb>): Promise<{ version: number; document: CatalogDocument }> {
  const [state, providers, models, deployments, mcpServers] = await Promise.all([
    db.selectFrom("catalog_state").select("version").where("id", "=", 1).executeTakeFirstOrThrow(),
    db.selectFrom("providers").selectAll().orderBy("code").execute(),
    db.selectFrom("models").selectAll().orderBy("id").execute(),
    db.selectFrom("deployments").selectAll().orderBy("model_id").orderBy("priority").orderBy("id").execute(),
    db.selectFrom("mcp_servers").selectAll().orderBy("name").execute(),
  ]);
  const raw = {
    providers: providers.map(({ updated_at: _u, ...p }) => p),
    models: models.map(({ updated_at: _u, video, ...m }) => ({
      ...m,
      ...(video ? { video } : {}),
      deployments: deployments
        .filter((d) => d.model_id === m.id)
        .map((d) => ({
          provider: d.provider_code,
          upstream_model: d.upstream_model,
          priority: d.priority,
          weight: d.weight,
          cost_input_price_minor_per_mtok: d.cost_input_price_minor_per_mtok,
          cost_output_price_minor_per_mtok: d.cost_output_price_minor_per_mtok,
          cost_cached_input_price_minor_per_mtok: d.cost_cached_input_price_minor_per_mtok,
          cost_cache_write_price_minor_per_mtok: d.cost_cache_write_price_minor_per_mtok,
          cost_reasoning_price_minor_per_mtok: d.cost_reasoning_price_minor_per_mtok,
        })),
    })),
    mcp_servers: mcpServers.map(({ updated_at: _u, ...m }) => m),
  };
  // Through the document's own schema, so it compares field by field with a document to apply (defaults alike).
  const parsed = CatalogDocument.safeParse(raw);
  return { version: Number(state.version), document: parsed.success ? parsed.data : (raw as unknown as CatalogDocument) };
}

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));

/**
 * What applying `next` would change: each provider, model and MCP server it lists, added or changed (with every
 * changed field's value before and after); unchanged ones are left out. Applying never deletes, so
 * the catalog's other entries stay as they are.
 */
export function catalogDiff(current: CatalogDocument, next: CatalogDocument): ConsoleCatalogChange[] {
  const changes: ConsoleCatalogChange[] = [];
  const compare = (kind: ConsoleCatalogChange["kind"], id: string, before: Record<string, unknown> | undefined, after: Record<string, unknown>) => {
    if (!before) return changes.push({ kind, id, change: "added", fields_json: "[]" });
    const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])]
      .sort()
      .filter((f) => stable(before[f]) !== stable(after[f]))
      .map((f) => ({ field: f, before: before[f] ?? null, after: after[f] ?? null }));
    if (fields.length) changes.push({ kind, id, change: "changed", fields_json: JSON.stringify(fields) });
  };
  for (const p of next.providers)
    compare(
      "provider",
      p.code,
      current.providers.find((c) => c.code === p.code),
      p,
    );
  for (const m of next.models)
    compare(
      "model",
      m.id,
      current.models.find((c) => c.id === m.id),
      m,
    );
  return changes;
}

/** The catalog document and its version, for the operator's editor. */
export function consoleGetCatalog(ctx: ControlContext) {
  return async (req: { token: string }): Promise<ConsoleCatalog> => {
    await operatorOf(ctx, req.token);
    const { version, document } = await catalogDocument(ctx.db);
    return { version, document_json: JSON.stringify(document, null, 2), changes: [], applied: false };
  };
}

/**
 * Validates a catalog document and answers what applying it would change (`dry_run`), or applies
 * it — only onto the version the operator saw (`base_version`: another change in between is a 409,
 * so no one applies a diff they did not see) — with an audit entry holding the diff, in one
 * transaction.
 */
export function consoleApplyCatalog(ctx: ControlContext) {
  return async (req: ConsoleApplyCatalogRequest): Promise<ConsoleCatalog> => {
    const operator = await operatorOf(ctx, req.token);
    if (req.document_json.length > MAX_DOCUMENT) throw new GatewayError("invalid_request", `catalog document is larger than ${MAX_DOCUMENT} bytes`);
    const next = parseCatalogDocument(req.document_json);
    if (req.dry_run) {
      const { version, document } = await catalogDocument(ctx.db);
      return { version, document_json: "", changes: catalogDiff(document, next), applied: false };
    }
    return audited(
      ctx,
      operator,
      async (tx) => {
        const locked = await sql<{ version: number }>`SELECT version FROM catalog_state WHERE id = 1 FOR UPDATE`.execute(tx.db);
        const version = Number(locked.rows[0]!.version);
        if (version !== req.base_version)
          throw new GatewayError("conflict", `the catalog changed since you read it (version ${req.base_version}, now ${version}): review the new difference and apply again`);
        const changes = catalogDiff((await catalogDocument(tx.db)).document, next);
        const applied = await applyCatalog(tx)({ document_json: req.document_json });
        return { version: applied.version, document_json: "", changes, applied: true };
      },
      (r) => ({
        org_id: null,
        action: "catalog_applied",
        target: `catalog v${r.version}`,
        detail: { changes: r.changes.map((c) => ({ kind: c.kind, id: c.id, change: c.change, fields: (JSON.parse(c.fields_json) as { field: string }[]).map((f) => f.field) })) },
      }),
    );
  };
}
