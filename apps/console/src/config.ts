import { randomBytes } from "node:crypto";
import { blankRefused, port, presentVariables, problemsOf, refuseProblems, wholeNumber } from "@gateway/config";
import type { ClientTlsFiles } from "@gateway/proto";
import { z } from "zod";
import type { OidcConfig } from "./oidc.js";

/**
 * What the console runs with (docs/console.md, "Configuration"). It never reads Postgres: it talks
 * to the control-plane and the ledger as its own caller identity `console`.
 */
export interface ConsoleConfig {
  host: string;
  port: number;
  controlPlaneAddr: string;
  ledgerAddr: string;
  /** This service's caller tokens at the control-plane and the ledger (identity `console`). */
  controlPlaneToken: string;
  ledgerToken: string;
  /** gRPC to the control-plane and the ledger over TLS (mTLS with a certificate); plaintext when undefined. */
  grpcTls?: ClientTlsFiles;
  /** Keys the CSRF tokens; every replica needs the same. */
  secret: string;
  /** Set the cookie's Secure flag (behind TLS). */
  secureCookies: boolean;
  /**
   * Where people reach the console (CONSOLE_PUBLIC_URL): the origin of the sign-in links it makes.
   * Absent: the address it listens on. Never the request's Host header, which the caller chooses.
   */
  publicUrl?: string;
  /** Sign-in by OpenID Connect, besides one-time links; absent: links only. */
  oidc?: OidcConfig;
  /** The data-planes' circuit breaker (DATA_PLANE_BREAKER_THRESHOLD / _COOLDOWN_MS), to say which deployments' breakers are likely open. */
  breakerThreshold?: number;
  breakerCooldownMs?: number;
}

/** A CSRF key for a single replica when none is configured. */
export const randomSecret = () => randomBytes(32).toString("base64url");

const token = (whose: string) => z.string({ error: `required: ${whose} (at least 16 characters)` }).min(16, "at least 16 characters");
const url = z.url({ protocol: /^https?$/, error: "an http:// or https:// address" });

const Schema = z.object({
  CONSOLE_HOST: z.string().default("127.0.0.1"),
  CONSOLE_PORT: port(8090),
  CONSOLE_CONTROL_PLANE_ADDR: z.string().default("127.0.0.1:50051"),
  CONSOLE_LEDGER_ADDR: z.string().default("127.0.0.1:50052"),
  /** This service's caller tokens: CONTROL_PLANE_CONSOLE_TOKEN and LEDGER_CONSOLE_TOKEN there. */
  CONSOLE_CONTROL_PLANE_TOKEN: token("the console's control-plane token"),
  CONSOLE_LEDGER_TOKEN: token("the console's ledger token"),
  /** gRPC over TLS: the CA of the servers' certificates, and the console's own (mTLS), as the data-plane's DATA_PLANE_GRPC_TLS_*. */
  CONSOLE_GRPC_TLS_CA_FILE: z.string().optional(),
  CONSOLE_GRPC_TLS_CERT_FILE: z.string().optional(),
  CONSOLE_GRPC_TLS_KEY_FILE: z.string().optional(),
  /** Keys the CSRF tokens and the sign-in attempt cookie; one replica may do with a key of its own, several must share it. */
  CONSOLE_SECRET: z.string().min(16, "at least 16 characters").optional(),
  CONSOLE_PUBLIC_URL: url.optional(),
  CONSOLE_OIDC_ISSUER: url.optional(),
  CONSOLE_OIDC_CLIENT_ID: z.string().optional(),
  CONSOLE_OIDC_CLIENT_SECRET: z.string().optional(),
});

/** The data-planes' breaker settings (the same variables as theirs), to mark deployments whose breakers are likely open. */
const Breaker = z.object({
  DATA_PLANE_BREAKER_THRESHOLD: wholeNumber(5, 1),
  DATA_PLANE_BREAKER_COOLDOWN_MS: wholeNumber(30_000, 0),
});

/** Reads the CONSOLE_* variables (docs/console.md); throws one error listing every problem. */
export function loadConfig(env: Record<string, string | undefined>): ConsoleConfig {
  const parsed = Schema.safeParse(presentVariables("CONSOLE_", env));
  const breaker = Breaker.safeParse(presentVariables("DATA_PLANE_BREAKER_", env));
  // A blank host once meant every interface, a blank secret an empty key: refused, not read as the defaults.
  // An empty TLS file is refused too: it must not quietly mean plaintext.
  const tlsFiles = ["CONSOLE_GRPC_TLS_CA_FILE", "CONSOLE_GRPC_TLS_CERT_FILE", "CONSOLE_GRPC_TLS_KEY_FILE"];
  const problems = [...problemsOf(parsed), ...problemsOf(breaker), ...blankRefused(env, ["CONSOLE_HOST", "CONSOLE_SECRET", ...tlsFiles])];
  const e = parsed.data;
  if (Boolean(e?.CONSOLE_GRPC_TLS_CERT_FILE) !== Boolean(e?.CONSOLE_GRPC_TLS_KEY_FILE)) problems.push("CONSOLE_GRPC_TLS_CERT_FILE: needs CONSOLE_GRPC_TLS_KEY_FILE, and the other way round");
  if (e?.CONSOLE_OIDC_ISSUER) {
    if (!e.CONSOLE_OIDC_CLIENT_ID) problems.push("CONSOLE_OIDC_CLIENT_ID: required with CONSOLE_OIDC_ISSUER");
    if (!e.CONSOLE_PUBLIC_URL) problems.push("CONSOLE_PUBLIC_URL: required with CONSOLE_OIDC_ISSUER (the redirect URI is it plus /oidc/callback)");
  } else if (e?.CONSOLE_OIDC_CLIENT_ID || e?.CONSOLE_OIDC_CLIENT_SECRET) {
    problems.push("CONSOLE_OIDC_ISSUER: required with CONSOLE_OIDC_CLIENT_ID or CONSOLE_OIDC_CLIENT_SECRET");
  }
  refuseProblems("console", problems);
  const c = e!;
  const b = breaker.data!;
  return {
    host: c.CONSOLE_HOST,
    port: c.CONSOLE_PORT,
    controlPlaneAddr: c.CONSOLE_CONTROL_PLANE_ADDR,
    ledgerAddr: c.CONSOLE_LEDGER_ADDR,
    controlPlaneToken: c.CONSOLE_CONTROL_PLANE_TOKEN,
    ledgerToken: c.CONSOLE_LEDGER_TOKEN,
    ...(c.CONSOLE_GRPC_TLS_CA_FILE || c.CONSOLE_GRPC_TLS_CERT_FILE
      ? { grpcTls: { caFile: c.CONSOLE_GRPC_TLS_CA_FILE, certFile: c.CONSOLE_GRPC_TLS_CERT_FILE, keyFile: c.CONSOLE_GRPC_TLS_KEY_FILE } }
      : {}),
    secret: c.CONSOLE_SECRET ?? randomSecret(),
    secureCookies: (c.CONSOLE_PUBLIC_URL ?? "").startsWith("https://"),
    ...(c.CONSOLE_PUBLIC_URL ? { publicUrl: c.CONSOLE_PUBLIC_URL } : {}),
    ...(c.CONSOLE_OIDC_ISSUER
      ? { oidc: { issuer: c.CONSOLE_OIDC_ISSUER, clientId: c.CONSOLE_OIDC_CLIENT_ID!, clientSecret: c.CONSOLE_OIDC_CLIENT_SECRET ?? "", publicUrl: c.CONSOLE_PUBLIC_URL! } }
      : {}),
    breakerThreshold: b.DATA_PLANE_BREAKER_THRESHOLD,
    breakerCooldownMs: b.DATA_PLANE_BREAKER_COOLDOWN_MS,
  };
}
