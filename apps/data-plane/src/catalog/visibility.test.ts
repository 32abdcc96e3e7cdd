import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import type { KeyContext, Model, TrialPolicy } from "@gateway/proto";
import type { CatalogView } from "./catalog-cache.js";
import { resolveModel } from "./visibility.js";

const model = (id: string) => ({ id, status: "published", routes: ["chat"] }) as unknown as Model;
const catalog: CatalogView = {
  version: 1,
  models: new Map([model("gw-a"), model("gw-b")].map((m) => [m.id, m])),
  providers: new Map(),
  publishedIds: ["gw-a", "gw-b"],
  mcpServers: new Map(),
};
const trial: TrialPolicy = { version: 1, scope: "chat", allowed_models: ["gw-a"], unlock_topup_minor: 5_000_000, policy_hash: "h" };

const key = (o: Partial<KeyContext>): KeyContext => ({
  key_id: "key_1",
  org_id: "org_1",
  org_name: "acme",
  revoked: false,
  routes: [],
  model_allowlist: [],
  org_enabled_models: ["gw-a", "gw-b"],
  org_in_trial: false,
  rpm_limit: 0,
  tpm_limit: 0,
  monthly_budget_minor: 0,
  display_prefix: "sk-gateway-x",
  guardrails_json: "",
  guardrails_version: 0,
  org_mcp_servers: [],
  mcp_tool_allowlist: [],
  org_output_limit: "",
  key_budget: null,
  project_id: "",
  project_budget: null,
  key_tags: [],
  org_time_zone: "",
  org_budget: null,
  end_user_source: "",
  end_user_budget: null,
  end_user_overrides: {},
  alert_thresholds_pct: [],
  balance_alerts_minor: [],
  ...o,
});

function refusal(k: KeyContext, id = "gw-b"): GatewayError {
  try {
    resolveModel(k, catalog, trial, "chat", id);
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error(`${id} was allowed`);
}

describe("a model the key cannot use names the layer that excludes it", () => {
  it("the organization has not enabled it: an operator's fix, not the key's", () => {
    const err = refusal(key({ org_enabled_models: ["gw-a"] }));
    expect(err.code).toBe("model_not_enabled");
    expect(err.message).toBe("The organization 'acme' has not enabled the model 'gw-b': an operator enables it (gatewayctl models enable acme gw-b).");
    expect(err.context).toMatchObject({ action: "contact_org_admin", allowed_models: ["gw-a"], param: "model" });
  });

  it("the organization is in trial: a top-up lifts it", () => {
    const err = refusal(key({ org_in_trial: true }));
    expect(err.code).toBe("model_not_in_trial");
    expect(err.message).toMatch(/^The organization 'acme' is in trial, which allows only gw-a\. Top-ups totalling 5000000 minor units \(5 credits\) end the trial/);
    expect(err.message).toContain("gatewayctl trial-policy set");
    expect(err.context).toMatchObject({ action: "top_up", allowed_models: ["gw-a"] });
  });

  it("the key's own allowlist excludes it", () => {
    const err = refusal(key({ model_allowlist: ["gw-a"] }));
    expect(err.code).toBe("model_not_allowed");
    expect(err.message).toMatch(/^This API key may not use the model 'gw-b': its model allowlist excludes it/);
    expect(err.context).toMatchObject({ action: "contact_org_admin", allowed_models: ["gw-a"] });
  });

  it("a new organization (in trial, nothing enabled) hears both, the enabling first", () => {
    const err = refusal(key({ org_in_trial: true, org_enabled_models: [] }), "gw-a");
    expect(err.code).toBe("model_not_enabled");
    expect(err.message).toContain("has not enabled the model 'gw-a'");
    expect(err.message).not.toContain("is in trial");
    const both = refusal(key({ org_in_trial: true, org_enabled_models: [] }), "gw-b");
    expect(both.message).toContain("has not enabled the model 'gw-b'");
    expect(both.message).toContain("is in trial, which allows only gw-a");
    expect(both.context).toMatchObject({ action: "contact_org_admin", allowed_models: [] });
  });
});
