import { sql } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import type { AuthenticateKeyRequest, AuthenticateKeyResponse } from "@gateway/proto";
import type { ControlContext } from "../context.js";

interface Row {
  id: string;
  org_id: string;
  org_name: string;
  revoked: boolean;
  routes: string[];
  models: string[];
  enabled: string[];
  in_trial: boolean;
  rpm_limit: number;
  tpm_limit: number;
  monthly_budget_minor: number;
  output_limit: string;
  prefix: string;
  guardrails: unknown;
  guardrails_version: number | null;
  mcp_servers: string[];
  mcp_tools: string[];
  key_budget_minor: number;
  key_budget_window: string;
  project_id: string | null;
  project_budget_minor: number | null;
  project_budget_window: string | null;
  tags: string[];
  time_zone: string;
  org_budget_window: string;
  end_user_source: string;
  end_user_budget_minor: number;
  end_user_budget_window: string;
  end_user_overrides: Record<string, number>;
}

/**
 * One indexed query per cache miss: the key, its org, the org's enabled models and guardrail rules,
 * the key's project and the budgets of all three. The end users' own limits (at most 1,000) come as
 * one JSON object, and only while the organization reads end users at all.
 */
export function authenticateKey(ctx: ControlContext) {
  return async (req: AuthenticateKeyRequest): Promise<AuthenticateKeyResponse> => {
    if (!/^[0-9a-f]{64}$/.test(req.key_hash)) throw new GatewayError("invalid_request", "key_hash must be a hex SHA-256");
    const r = await sql<Row>`
      SELECT k.id, k.org_id, o.name AS org_name, (k.revoked_at IS NOT NULL) AS revoked, k.routes, k.models, k.mcp_tools,
             COALESCE((SELECT array_agg(m.model_id ORDER BY m.model_id) FROM org_models m WHERE m.org_id = k.org_id), '{}') AS enabled,
             o.in_trial, k.rpm_limit, k.tpm_limit, o.monthly_budget_minor, o.output_limit, k.prefix,
             g.rules AS guardrails, g.version AS guardrails_version,
             COALESCE((SELECT array_agg(s.server ORDER BY s.server) FROM org_mcp_servers s WHERE s.org_id = k.org_id), '{}') AS mcp_servers,
             k.budget_minor AS key_budget_minor, k.budget_window AS key_budget_window, k.project_id, k.tags,
             p.budget_minor AS project_budget_minor, p.budget_window AS project_budget_window,
             o.time_zone, o.budget_window AS org_budget_window, o.end_user_source, o.end_user_budget_minor, o.end_user_budget_window,
             CASE WHEN o.end_user_source = '' THEN '{}'::jsonb
                  ELSE COALESCE((SELECT jsonb_object_agg(e.end_user, e.limit_minor) FROM end_user_budgets e WHERE e.org_id = k.org_id), '{}'::jsonb) END AS end_user_overrides
      FROM api_keys k JOIN organizations o ON o.id = k.org_id
      LEFT JOIN guardrail_rules g ON g.org_id = k.org_id
      LEFT JOIN projects p ON p.id = k.project_id
      WHERE k.key_hash = ${req.key_hash}`.execute(ctx.db);
    const row = r.rows[0];
    if (!row) return { found: false, key: null };
    return {
      found: true,
      key: {
        key_id: row.id,
        org_id: row.org_id,
        org_name: row.org_name,
        revoked: row.revoked,
        routes: row.routes,
        model_allowlist: row.models,
        org_enabled_models: row.enabled,
        org_in_trial: row.in_trial,
        rpm_limit: row.rpm_limit,
        tpm_limit: row.tpm_limit,
        // For data-planes of the release before windows: the cap only when it is monthly.
        monthly_budget_minor: row.org_budget_window === "month" ? row.monthly_budget_minor : 0,
        display_prefix: row.prefix,
        guardrails_json: Array.isArray(row.guardrails) && row.guardrails.length > 0 ? JSON.stringify(row.guardrails) : "",
        guardrails_version: Number(row.guardrails_version ?? 0),
        org_mcp_servers: row.mcp_servers,
        mcp_tool_allowlist: row.mcp_tools,
        org_output_limit: row.output_limit,
        key_budget: { limit_minor: row.key_budget_minor, window: row.key_budget_window },
        project_id: row.project_id ?? "",
        // Always a budget (no project: no cap), so a reader never meets an absent one.
        project_budget: { limit_minor: row.project_budget_minor ?? 0, window: row.project_budget_window ?? "month" },
        key_tags: row.tags,
        org_time_zone: row.time_zone,
        org_budget: { limit_minor: row.monthly_budget_minor, window: row.org_budget_window },
        end_user_source: row.end_user_source,
        end_user_budget: { limit_minor: row.end_user_budget_minor, window: row.end_user_budget_window },
        end_user_overrides: row.end_user_overrides,
        alert_thresholds_pct: [],
        balance_alerts_minor: [],
      },
    };
  };
}
