import { createHmac } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { adminService, bearer, channelCredentials, createClient, ledgerService, type AdminServiceMethods, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import type { ConsoleConfig } from "./config.js";
import { OidcSignIn } from "./oidc.js";

/** Every dependency of the console's routes, built once by `createContext`. */
export interface ConsoleContext {
  config: ConsoleConfig;
  /** The control-plane as caller `console`: sign-in, sessions and the session-scoped `Console*` calls (5 s deadline). */
  control: TypedClient<AdminServiceMethods>;
  /** The ledger as caller `console`: spend, requests, credits, provider health and top-ups (10 s deadline). */
  ledger: TypedClient<LedgerServiceMethods>;
  /** Sign-in by OpenID Connect (authorization code with PKCE); undefined: links only. */
  oidc: OidcSignIn | undefined;
  /** The built web app's folder (`dist/browser`), served as /assets: the pages (`web/`), their scripts, the shared money format and uPlot. */
  web: string;
  /** The session's CSRF token: an HMAC of the session token under the console's secret. */
  csrfOf(sessionToken: string): string;
  /** The origin of the links the console hands out: configured, or the address it listens on. */
  linkOrigin(): string;
  /** Told the address the server listens on once it does (with port 0, the port it was given). */
  listeningOn(url: string): void;
}

export function createContext(config: ConsoleConfig): ConsoleContext {
  let listening = `http://${config.host}:${config.port}`;
  const credentials = channelCredentials(config.grpcTls);
  return {
    config,
    control: createClient(adminService(), config.controlPlaneAddr, { timeoutMs: 5_000, metadata: bearer(config.controlPlaneToken), credentials }),
    ledger: createClient(ledgerService(), config.ledgerAddr, { timeoutMs: 10_000, metadata: bearer(config.ledgerToken), credentials }),
    oidc: config.oidc ? new OidcSignIn(config.oidc, config.secret) : undefined,
    web: join(dirname(fileURLToPath(import.meta.url)), "browser"),
    csrfOf: (sessionToken) => createHmac("sha256", config.secret).update(sessionToken).digest("base64url"),
    linkOrigin: () => (config.publicUrl ?? listening).replace(/\/$/, ""),
    listeningOn: (url) => {
      listening = url;
    },
  };
}

/** Closes the gRPC clients. */
export function closeContext(ctx: ConsoleContext): void {
  ctx.control.close();
  ctx.ledger.close();
}
