import type { ApiKey } from "@gateway/proto";
import type { KeyRow } from "../db/schema.js";

/** The public view of a key: never the secret or its hash. */
export function toApiKey(k: KeyRow): ApiKey {
  return {
    id: k.id,
    org_id: k.org_id,
    name: k.name,
    prefix: k.prefix,
    routes: k.routes,
    models: k.models,
    revoked: k.revoked_at !== null,
    created_at_ms: k.created_at.getTime(),
    revoked_at_ms: k.revoked_at?.getTime() ?? 0,
    rpm_limit: k.rpm_limit,
    tpm_limit: k.tpm_limit,
    mcp_tools: k.mcp_tools,
    budget: { limit_minor: k.budget_minor, window: k.budget_window },
    project_id: k.project_id ?? "",
    tags: k.tags,
  };
}
