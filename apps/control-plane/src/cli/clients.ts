/** gatewayctl's connections: the control-plane's AdminService, the ledger's LedgerService (NATS credentials: nats-env.ts). */
import { GatewayError } from "@gateway/errors";
import { adminService, bearer, channelCredentials, createClient, ledgerService, type AdminServiceMethods, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { type Env, UsageError } from "./command.js";

export interface Clients {
  admin: TypedClient<AdminServiceMethods>;
  ledger: TypedClient<LedgerServiceMethods>;
}

/** The clients, created by the first `get()` from the environment; `close()` closes them if they were. */
export function lazyClients(env: Env): { get(): Clients; close(): void } {
  let made: Clients | undefined;
  return {
    get: () => {
      if (made) return made;
      const token = env.GATEWAY_ADMIN_TOKEN;
      if (!token) throw new UsageError("GATEWAY_ADMIN_TOKEN is not set");
      const tls = env.GATEWAY_TLS_CA_FILE || env.GATEWAY_TLS_CERT_FILE ? { caFile: env.GATEWAY_TLS_CA_FILE, certFile: env.GATEWAY_TLS_CERT_FILE, keyFile: env.GATEWAY_TLS_KEY_FILE } : undefined;
      if (Boolean(env.GATEWAY_TLS_CERT_FILE) !== Boolean(env.GATEWAY_TLS_KEY_FILE)) throw new UsageError("GATEWAY_TLS_CERT_FILE and GATEWAY_TLS_KEY_FILE go together");
      const options = { timeoutMs: 10_000, metadata: bearer(token), credentials: channelCredentials(tls) };
      made = {
        admin: createClient(adminService(), env.GATEWAY_CONTROL_PLANE_ADDR || "127.0.0.1:50051", options),
        ledger: createClient(ledgerService(), env.GATEWAY_LEDGER_ADDR || "127.0.0.1:50052", options),
      };
      return made;
    },
    close: () => {
      made?.admin.close();
      made?.ledger.close();
    },
  };
}

/** An organization id: `org_…` as given, otherwise looked up by name. */
export async function resolveOrgId(c: Clients, ref: string): Promise<string> {
  if (ref.startsWith("org_")) return ref;
  const { orgs } = await c.admin.ListOrgs({});
  const org = orgs.find((o) => o.name === ref);
  if (!org) throw new GatewayError("not_found", `organization '${ref}' does not exist`);
  return org.id;
}

/** An organization by id or name that the control-plane knows (an unknown id is refused, not exported as empty). */
export async function existingOrgId(c: Clients, ref: string): Promise<string> {
  const { orgs } = await c.admin.ListOrgs({});
  const org = orgs.find((o) => o.id === ref || o.name === ref);
  if (!org) throw new GatewayError("not_found", `organization '${ref}' does not exist`);
  return org.id;
}
