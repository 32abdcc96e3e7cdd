import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import { GatewayError } from "@gateway/errors";
import type { AdminServiceMethods, ControlServiceMethods, LedgerServiceMethods } from "./messages.js";

/**
 * Who calls the gateway's gRPC services. `admin` (gatewayctl, the seed, an operator) may call every
 * method; every other identity only what {@link METHOD_GRANTS} gives it. The ledger and the
 * control-plane talk to each other over NATS only, so they hold no gRPC credentials.
 */
export const CALLER_IDENTITIES = ["admin", "data-plane", "console"] as const;
export type CallerIdentity = (typeof CALLER_IDENTITIES)[number];
/** An identity whose methods are listed one by one. */
export type ScopedIdentity = Exclude<CallerIdentity, "admin">;

type Grants<M> = { readonly [K in keyof M]?: readonly ScopedIdentity[] };

/**
 * The methods each non-admin identity may call, per service. Deny by default: a method not listed
 * here — a new RPC included — is admin-only until it is granted here, and a service not listed
 * here is admin-only as a whole. The data-plane holds what its hot path and video jobs need: it
 * cannot top up, list holds, create keys or change the catalog. The console (docs/console.md)
 * holds its sign-in and session calls and the ledger's reads it shows an organization; it always
 * names the organization of the signed-in member, which the control-plane's session answers.
 */
export const METHOD_GRANTS: {
  readonly "gateway.control.v1.ControlService": Grants<ControlServiceMethods>;
  readonly "gateway.control.v1.AdminService": Grants<AdminServiceMethods>;
  readonly "gateway.ledger.v1.LedgerService": Grants<LedgerServiceMethods>;
} = {
  "gateway.control.v1.ControlService": {
    AuthenticateKey: ["data-plane"],
    GetCatalog: ["data-plane"],
    GetTrialPolicy: ["data-plane"],
    CreateVideoJob: ["data-plane"],
    GetVideoJob: ["data-plane"],
    ClaimVideoJobs: ["data-plane"],
    UpdateVideoJob: ["data-plane"],
    ClaimVideoHolds: ["data-plane"],
    ReportMcpTools: ["data-plane"],
  },
  "gateway.control.v1.AdminService": {
    RedeemSignInLink: ["console"],
    StartOidcSession: ["console"],
    GetConsoleSession: ["console"],
    EndConsoleSession: ["console"],
    ConsoleListKeys: ["console"],
    ConsoleCreateKey: ["console"],
    ConsoleRevokeKey: ["console"],
    ConsoleListMembers: ["console"],
    ConsoleInviteMember: ["console"],
    ConsoleRemoveMember: ["console"],
    ConsoleListModels: ["console"],
    ConsoleGetOrg: ["console"],
    ConsoleSetBudget: ["console"],
    ConsoleGetGuardrails: ["console"],
    ConsoleListAudit: ["console"],
    ConsoleRecordAudit: ["console"],
    ConsoleListOrgs: ["console"],
    ConsoleGrantTopUp: ["console"],
    ConsoleGetCatalog: ["console"],
    ConsoleApplyCatalog: ["console"],
    // Operators' MCP tool approvals through the console: the control-plane checks the operator's
    // session on each call. ListMcpToolPins and ApproveMcpTool themselves stay the admin token's.
    ConsoleListPendingMcpTools: ["console"],
    ConsoleApproveMcpTool: ["console"],
    // Budgets through the console: the control-plane reads the session and checks its role on each
    // call. SetOrgBudgets, SetKeyBudget and the rest stay the admin token's (gatewayctl).
    ConsoleGetBudgets: ["console"],
    ConsoleSetOrgBudgets: ["console"],
    ConsoleSetKeyBudget: ["console"],
    ConsoleCreateProject: ["console"],
    ConsoleSetProjectBudget: ["console"],
    ConsoleSetEndUserBudget: ["console"],
    // Alerts: the control-plane checks the session and its role on each call.
    ConsoleGetAlertSettings: ["console"],
    ConsoleSetAlertSettings: ["console"],
    ConsoleListAlerts: ["console"],
    // Operators' money format and organization page: the control-plane checks the operator's session.
    ConsoleSetMoneyFormat: ["console"],
    ConsoleOperatorOrg: ["console"],
    // An operator's trace lookup: the control-plane checks the operator's session and audits it.
    ConsoleGrantTraceLookup: ["console"],
  },
  "gateway.ledger.v1.LedgerService": {
    AcquireLease: ["data-plane"],
    ReleaseLease: ["data-plane"],
    GetUsage: ["data-plane", "console"],
    GetCredits: ["data-plane", "console"],
    SpendSeries: ["console"],
    ListUsage: ["console"],
    // Operators' top-ups through the console: only with a grant the control-plane signed after checking
    // the operator's session (docs/security.md). TopUp itself is the admin token's (gatewayctl).
    TopUpWithGrant: ["console"],
    OrgBalances: ["console"],
    ProviderHealth: ["console"],
    GuardrailCounts: ["console"],
    ListBudgets: ["console"],
    // Any organization's record by request id, only with a trace grant the control-plane signed for
    // an operator's session (docs/console.md, "Trace lookup").
    LookupTrace: ["console"],
  },
};

/** Whether `identity` may call `method` of the service named `service` (a full proto name). */
export function mayCall(identity: CallerIdentity, service: string, method: string): boolean {
  if (identity === "admin") return true;
  const grants = (METHOD_GRANTS as Record<string, Record<string, readonly ScopedIdentity[] | undefined>>)[service];
  return grants !== undefined && Object.hasOwn(grants, method) && grants[method]!.includes(identity);
}

/** The tokens each identity may present; several per identity so a token can be rotated without downtime. */
export type CallerTokens = { readonly [I in CallerIdentity]?: readonly string[] };

const digest = (token: string) => createHash("sha256").update(token).digest();

/**
 * Maps a presented bearer token to its identity. Only SHA-256 digests are kept, and every digest is
 * compared (constant time, fixed length) whatever matched, so timing tells nothing about the tokens.
 */
export class CallerAuthenticator {
  private readonly known: { identity: CallerIdentity; digest: Buffer }[] = [];

  constructor(tokens: CallerTokens) {
    const seen = new Map<string, CallerIdentity>();
    for (const identity of CALLER_IDENTITIES) {
      for (const token of tokens[identity] ?? []) {
        const d = digest(token);
        const other = seen.get(d.toString("hex"));
        // One token naming two identities would make the caller's scope a matter of luck.
        if (other && other !== identity) throw new Error(`the same caller token is configured for ${other} and ${identity}`);
        seen.set(d.toString("hex"), identity);
        this.known.push({ identity, digest: d });
      }
    }
  }

  /** The identity holding `token`, or undefined. */
  identify(token: string | undefined): CallerIdentity | undefined {
    const got = digest(token ?? "");
    let found: CallerIdentity | undefined;
    for (const k of this.known) {
      if (timingSafeEqual(got, k.digest)) found ??= k.identity;
    }
    return token ? found : undefined;
  }

  /** The identities that have at least one token. */
  get identities(): CallerIdentity[] {
    return [...new Set(this.known.map((k) => k.identity))];
  }
}

export type RefusalReason = "unauthenticated" | "not_allowed";

/**
 * Callers that present no credentials at all, taken as one scoped identity (never admin): only for
 * the window of a rolling upgrade from a release that had no caller credentials, so its replicas
 * keep working beside the new ones. `admitted` counts them, so operators see when the window can
 * close. A wrong token is refused all the same.
 */
export interface UnauthenticatedCallers {
  as: ScopedIdentity;
  admitted(method: string): void;
}

/**
 * A ServeOptions guard for the service named `service`: a call without a known bearer token is
 * UNAUTHENTICATED (`unauthenticated_caller`), a known caller outside its grants PERMISSION_DENIED
 * (`caller_not_allowed`). It reads only the `authorization` metadata.
 */
export function callerGuard(
  service: string,
  auth: CallerAuthenticator,
  onRefused?: (reason: RefusalReason, method: string, identity: CallerIdentity | undefined) => void,
  unauthenticated?: UnauthenticatedCallers,
): (metadata: grpc.Metadata, method: string) => void {
  return (metadata, method) => {
    const token = bearerFromMetadata(metadata);
    let identity = auth.identify(token);
    if (!identity && unauthenticated && token === undefined && metadata.get("authorization").length === 0) {
      // The upgrade window: a caller of a release without credentials, within that identity's grants.
      identity = unauthenticated.as;
      unauthenticated.admitted(method);
    }
    if (!identity) {
      onRefused?.("unauthenticated", method, undefined);
      throw new GatewayError("unauthenticated_caller", "a valid caller token is required (authorization: Bearer <token>)");
    }
    if (!mayCall(identity, service, method)) {
      onRefused?.("not_allowed", method, identity);
      throw new GatewayError("caller_not_allowed", `${identity} may not call ${service}/${method}`);
    }
  };
}

/** The guard's setting for callers without credentials, counting each call admitted (undefined: refused). */
export function unauthenticatedCallers(as: ScopedIdentity | undefined, admitted: { inc(labels: { method: string }): void }): UnauthenticatedCallers | undefined {
  return as && { as, admitted: (method) => admitted.inc({ method }) };
}

/** The bearer token of `authorization: Bearer <token>` metadata. */
export function bearerFromMetadata(metadata: grpc.Metadata): string | undefined {
  const value = metadata.get("authorization")[0];
  if (typeof value !== "string") return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(value);
  return m?.[1];
}

/** `authorization` metadata for a caller token, for ClientOptions.metadata. */
export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** Server TLS: PEM file paths. With `clientCaFile`, every client must present a certificate it signed (mTLS). */
export interface ServerTlsFiles {
  certFile: string;
  keyFile: string;
  clientCaFile?: string | undefined;
}

/** Insecure without `tls`; TLS, or mTLS when a client CA is given, otherwise. Files are read once, here. */
export function serverCredentials(tls: ServerTlsFiles | undefined): grpc.ServerCredentials {
  if (!tls) return grpc.ServerCredentials.createInsecure();
  const ca = tls.clientCaFile ? readFileSync(tls.clientCaFile) : null;
  return grpc.ServerCredentials.createSsl(ca, [{ cert_chain: readFileSync(tls.certFile), private_key: readFileSync(tls.keyFile) }], ca !== null);
}

/** Client TLS: PEM file paths. `caFile` verifies the server (system roots without it); cert + key are this client's (mTLS). */
export interface ClientTlsFiles {
  caFile?: string | undefined;
  certFile?: string | undefined;
  keyFile?: string | undefined;
}

/** Insecure without `tls`; TLS otherwise, presenting a client certificate when one is given. */
export function channelCredentials(tls: ClientTlsFiles | undefined): grpc.ChannelCredentials {
  if (!tls) return grpc.credentials.createInsecure();
  const read = (f: string | undefined) => (f ? readFileSync(f) : null);
  return grpc.credentials.createSsl(read(tls.caFile), read(tls.keyFile), read(tls.certFile));
}

/**
 * Configuration problems of a server's TLS variables (`<prefix>TLS_CERT_FILE`, `_KEY_FILE`,
 * `_CLIENT_CA_FILE`), as "NAME: message" lines: a certificate needs its key, a client CA needs both.
 */
export function serverTlsProblems(prefix: string, env: Record<string, string | undefined>): string[] {
  const has = (name: string) => Boolean(env[`${prefix}${name}`]);
  const problems: string[] = [];
  if (has("TLS_CERT_FILE") !== has("TLS_KEY_FILE")) problems.push(`${prefix}TLS_CERT_FILE: needs ${prefix}TLS_KEY_FILE, and the other way round`);
  if (has("TLS_CLIENT_CA_FILE") && !has("TLS_CERT_FILE")) problems.push(`${prefix}TLS_CLIENT_CA_FILE: mTLS needs ${prefix}TLS_CERT_FILE and ${prefix}TLS_KEY_FILE`);
  return problems;
}

/** A token configured for two identities, as "NAME: message" lines (`names` gives each identity's variable). */
export function callerTokenProblems(tokens: CallerTokens, names: { readonly [I in CallerIdentity]?: string }): string[] {
  const owner = new Map<string, CallerIdentity>();
  const problems: string[] = [];
  for (const identity of CALLER_IDENTITIES) {
    for (const token of tokens[identity] ?? []) {
      const other = owner.get(token);
      if (other && other !== identity) problems.push(`${names[identity] ?? identity}: a token of ${names[other] ?? other} cannot also be a ${identity} token`);
      owner.set(token, identity);
    }
  }
  return problems;
}

/** What a gRPC server's environment says about its callers. */
export interface ServerCallerSettings {
  /** Bearer tokens per caller identity (several while rotating). */
  callerTokens: CallerTokens;
  /** The identity callers without any credentials are taken as (a rolling upgrade from a release without them); undefined: refused. */
  unauthenticatedCallers: ScopedIdentity | undefined;
  /** gRPC over TLS (mTLS with a client CA); plaintext when undefined. */
  tls: ServerTlsFiles | undefined;
}

/**
 * The caller settings of a server whose variables start with `prefix` (the control-plane's and the
 * ledger's alike): `ADMIN_TOKEN` (required), `DATA_PLANE_TOKEN` and `CONSOLE_TOKEN`, comma-separated lists of tokens
 * of at least 16 characters; `UNAUTHENTICATED_CALLERS` (`data-plane` or unset); `TLS_CERT_FILE`,
 * `TLS_KEY_FILE`, `TLS_CLIENT_CA_FILE`. Every problem comes back as a "NAME: message" line.
 */
export function serverCallerSettings(prefix: string, env: Record<string, string | undefined>): { settings: ServerCallerSettings; problems: string[] } {
  const problems: string[] = [];
  const tokens = (identity: CallerIdentity, required: boolean): string[] => {
    const name = `${prefix}${identity === "admin" ? "ADMIN" : identity === "console" ? "CONSOLE" : "DATA_PLANE"}_TOKEN`;
    const raw = env[name];
    if (raw === undefined) {
      if (required) problems.push(`${name}: required: at least 16 characters each`);
      return [];
    }
    const list = raw
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    if (list.length === 0 || list.some((t) => t.length < 16)) problems.push(`${name}: at least 16 characters each`);
    return list;
  };
  const callerTokens: CallerTokens = { admin: tokens("admin", true), "data-plane": tokens("data-plane", false), console: tokens("console", false) };
  problems.push(...callerTokenProblems(callerTokens, { admin: `${prefix}ADMIN_TOKEN`, "data-plane": `${prefix}DATA_PLANE_TOKEN`, console: `${prefix}CONSOLE_TOKEN` }));
  const unauthenticated = env[`${prefix}UNAUTHENTICATED_CALLERS`];
  if (unauthenticated !== undefined && unauthenticated !== "data-plane") {
    problems.push(`${prefix}UNAUTHENTICATED_CALLERS: the only identity callers without credentials may be taken as is data-plane`);
  }
  problems.push(...serverTlsProblems(prefix, env));
  for (const name of ["CERT", "KEY", "CLIENT_CA"]) if (env[`${prefix}TLS_${name}_FILE`] === "") problems.push(`${prefix}TLS_${name}_FILE: must not be empty`);
  const file = (name: string) => env[`${prefix}TLS_${name}_FILE`] || undefined;
  const [certFile, keyFile] = [file("CERT"), file("KEY")];
  return {
    settings: {
      callerTokens,
      unauthenticatedCallers: unauthenticated === "data-plane" ? "data-plane" : undefined,
      tls: certFile && keyFile ? { certFile, keyFile, clientCaFile: file("CLIENT_CA") } : undefined,
    },
    problems,
  };
}
