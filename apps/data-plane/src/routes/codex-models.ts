import type { Request, Response } from "express";
import { GatewayError, invalidParam } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { visibleModelIds } from "../catalog/visibility.js";
import type { Authenticated } from "../http/request-context.js";

/**
 * POST /v1/codex/models: the key's models in Codex's model catalog format (docs/agents.md, "Codex's
 * model metadata"), for Codex's `model_catalog_json` setting. Codex looks a model's metadata up by
 * its slug in a catalog it bundles (`codex debug models` prints it); a gateway model id is not in it,
 * so Codex warns that it falls back to default metadata and guesses the context window. The body is
 * the caller's own Codex catalog (`codex debug models | curl --data-binary @- …`): one of its
 * entries (`?template=<slug>`, else the first listed one the API serves in the plain Responses API) is the template, so what
 * only Codex knows (its instructions, its tool and shell settings, in its own version's fields) stays
 * Codex's, and the gateway writes what it knows of each model: its id, its context window, whether it
 * takes images and reasoning efforts. Nothing is stored. Fixture of the format: fixtures/codex-models-0.169.0.json.
 */

/** One model entry of Codex's catalog: the fields the gateway writes; every other field is the template's, kept as is. */
export interface CodexModelEntry {
  slug: string;
  display_name: string;
  description: string | null;
  context_window: number | null;
  visibility: string;
  supported_in_api: boolean;
  priority: number;
  input_modalities: string[];
  supported_reasoning_levels: unknown[];
  [field: string]: unknown;
}

function isEntry(v: unknown): v is CodexModelEntry {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const e = v as Record<string, unknown>;
  return typeof e.slug === "string" && (typeof e.base_instructions === "string" || typeof e.model_messages === "object");
}

/**
 * Whether an entry makes Codex speak only the Responses API the gateway serves: not its "lite"
 * variant (tools sent as `additional_tools` input items) nor its code-only tool mode.
 */
const plainResponses = (e: CodexModelEntry) => e.use_responses_lite !== true && (e.tool_mode ?? null) === null;

/**
 * The template entry: the one named, else the first the picker lists and the API serves whose
 * settings speak the plain Responses API, else the first listed one.
 */
function templateOf(body: unknown, named: string | undefined): CodexModelEntry {
  const models = (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(models) || !models.some(isEntry)) {
    throw invalidParam(
      "models",
      "The body must be your Codex's model catalog ({\"models\": [...]}, as `codex debug models` prints it): the gateway takes Codex's own settings from one of its entries.",
    );
  }
  const entries = models.filter(isEntry);
  if (named !== undefined) {
    const found = entries.find((e) => e.slug === named);
    if (!found) throw invalidParam("template", `The catalog has no model '${named}' to take Codex's settings from (it has: ${entries.map((e) => e.slug).join(", ")}).`);
    return found;
  }
  const listed = entries.filter((e) => e.visibility === "list" && e.supported_in_api === true);
  return listed.find(plainResponses) ?? listed[0] ?? entries[0]!;
}

/**
 * A gateway model as a Codex catalog entry, built on the template. The gateway's own facts replace
 * the template's; what would make Codex ask for more than the gateway bills is cleared: service tiers
 * (a priority tier costs more at the provider than the catalog price) and a larger window to grow into.
 */
export function codexEntry(template: CodexModelEntry, model: Model, priority: number): CodexModelEntry {
  const efforts = template.supported_reasoning_levels;
  const entry: CodexModelEntry = {
    ...template,
    slug: model.id,
    display_name: model.id,
    description: `${model.id} through the AI gateway`,
    context_window: model.context_window > 0 ? model.context_window : null,
    visibility: "list",
    supported_in_api: true,
    priority,
    upgrade: null,
    input_modalities: model.max_input_tokens_per_image > 0 ? ["text", "image"] : ["text"],
    // A model without reasoning takes no effort: Codex then sends none.
    supported_reasoning_levels: model.reasoning ? efforts : [],
    default_reasoning_level: model.reasoning ? (template.default_reasoning_level ?? null) : null,
  };
  if ("max_context_window" in template) entry.max_context_window = entry.context_window;
  // Codex compacts at 90 % of the window when it has no limit of its own: the template's was for another window.
  delete entry.auto_compact_token_limit;
  if ("service_tiers" in template) entry.service_tiers = [];
  if ("additional_speed_tiers" in template) entry.additional_speed_tiers = [];
  if ("availability_nux" in template) entry.availability_nux = null;
  // The plain Responses API whatever the template: the gateway does not take the "lite" variant's items.
  if ("use_responses_lite" in template) entry.use_responses_lite = false;
  if ("tool_mode" in template) entry.tool_mode = null;
  // No freeform (custom, grammar) apply_patch tool: providers behind the gateway take function tools;
  // Codex then edits files through its shell tool, as with its fallback metadata.
  if ("apply_patch_tool_type" in template) entry.apply_patch_tool_type = null;
  // Nor OpenAI's hosted tool search (a `tool_search` tool only OpenAI's Responses API runs).
  if ("supports_search_tool" in template) entry.supports_search_tool = false;
  return entry;
}

export function codexModels(ctx: DataPlaneContext) {
  return (req: Request, res: Response, { key }: Authenticated): void => {
    const named = typeof req.query.template === "string" ? req.query.template : undefined;
    const template = templateOf(req.body, named);
    const catalog = ctx.catalog.current;
    // The models the key may call on /v1/responses, the API Codex speaks.
    const ids = visibleModelIds(key, catalog, ctx.catalog.trialPolicy, "responses");
    if (ids.length === 0) throw new GatewayError("model_not_allowed", "This key may not use any model on /v1/responses, the API Codex speaks.", { allowed_models: [] });
    const models = ids.flatMap((id, i) => {
      const m = catalog.models.get(id);
      return m ? [codexEntry(template, m, i)] : [];
    });
    res.json({ models });
  };
}
