import { createHash } from "node:crypto";
import { adminService, bearer, channelCredentials, controlService, createClient, ledgerService, type ClientTlsFiles, type CreatedKey } from "@gateway/proto";
import { DEMO_MCP_SERVERS, DEMO_MODELS, demoCatalog } from "./demo-catalog.ts";

export interface SeedOptions {
  controlPlaneAddr: string;
  ledgerAddr: string;
  adminToken: string;
  fakeUpstreamUrl: string;
  orgName: string;
  /** Credits to make sure the org has been topped up with, minor units (idempotent). */
  topUpMinor: number;
  /** An existing secret to keep if it is still valid. */
  existingSecret?: string;
  /** gRPC over TLS (a client certificate when the services require mTLS). */
  tls?: ClientTlsFiles;
  /**
   * Provider kinds the control-plane being seeded does not know yet (an earlier release refuses the
   * whole catalog for one): their providers, and the models only they serve, are left out.
   */
  omitKinds?: readonly string[];
}

export interface SeedResult {
  orgId: string;
  keyId: string;
  secret: string;
}

/** Idempotent demo seed: catalog, org, enabled models, credits, one key. Safe to run on every start. */
export async function seedDemo(o: SeedOptions): Promise<SeedResult> {
  const options = { timeoutMs: 10_000, metadata: bearer(o.adminToken), credentials: channelCredentials(o.tls) };
  const admin = createClient(adminService(), o.controlPlaneAddr, options);
  const control = createClient(controlService(), o.controlPlaneAddr, options);
  const ledger = createClient(ledgerService(), o.ledgerAddr, options);
  try {
    const catalog = demoCatalog(o.fakeUpstreamUrl);
    const omitted = new Set(catalog.providers.filter((p) => o.omitKinds?.includes(p.kind)).map((p) => p.code));
    const providers = catalog.providers.filter((p) => !omitted.has(p.code));
    const models = catalog.models.map((m) => ({ ...m, deployments: m.deployments.filter((d) => !omitted.has(d.provider)) })).filter((m) => m.deployments.length > 0);
    await admin.ApplyCatalog({ document_json: JSON.stringify({ providers, models, mcp_servers: catalog.mcp_servers }) });
    const orgs = await admin.ListOrgs({});
    const org = orgs.orgs.find((x) => x.name === o.orgName) ?? (await admin.CreateOrg({ name: o.orgName }));
    await admin.EnableModels({ org: org.id, models: DEMO_MODELS.filter((id) => models.some((m) => m.id === id)) });
    // A control-plane from before the MCP gateway (a rolling upgrade's old release) has no such call: nothing to enable there.
    await admin.EnableMcpServers({ org: org.id, servers: DEMO_MCP_SERVERS }).catch((err: unknown) => {
      if (!(err instanceof Error && err.message.includes("does not implement the method"))) throw err;
    });
    await ledger.TopUp({ org_id: org.id, amount_minor: o.topUpMinor, idempotency_key: `seed-${org.id}-${o.topUpMinor}` });
    if (o.existingSecret) {
      const hash = createHash("sha256").update(o.existingSecret).digest("hex");
      const r = await control.AuthenticateKey({ key_hash: hash });
      if (r.found && r.key && !r.key.revoked && r.key.org_id === org.id) {
        return { orgId: org.id, keyId: r.key.key_id, secret: o.existingSecret };
      }
    }
    const created: CreatedKey = await admin.CreateKey({ org: org.id, routes: [], models: [], name: "demo" });
    return { orgId: org.id, keyId: created.key!.id, secret: created.secret };
  } finally {
    admin.close();
    control.close();
    ledger.close();
  }
}
