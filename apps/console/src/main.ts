import { randomSecret, startConsole } from "./server.js";

/** The console's process: configuration from the environment (docs/console.md). */
const env = process.env;
const need = (name: string): string => {
  const v = env[name];
  if (!v) {
    console.error(`console: ${name} is required`);
    process.exit(2);
  }
  return v;
};
const server = await startConsole({
  host: env.CONSOLE_HOST ?? "127.0.0.1",
  port: Number(env.CONSOLE_PORT ?? 8090),
  controlPlaneAddr: env.CONSOLE_CONTROL_PLANE_ADDR ?? "127.0.0.1:50051",
  ledgerAddr: env.CONSOLE_LEDGER_ADDR ?? "127.0.0.1:50052",
  controlPlaneToken: need("CONSOLE_CONTROL_PLANE_TOKEN"),
  ledgerToken: need("CONSOLE_LEDGER_TOKEN"),
  // One replica may do with a key of its own; several must share CONSOLE_SECRET.
  secret: env.CONSOLE_SECRET ?? randomSecret(),
  secureCookies: (env.CONSOLE_PUBLIC_URL ?? "").startsWith("https://"),
  // OpenID Connect sign-in: the issuer and this client's registration; the redirect URI is CONSOLE_PUBLIC_URL/oidc/callback.
  ...(env.CONSOLE_OIDC_ISSUER
    ? {
        oidc: {
          issuer: env.CONSOLE_OIDC_ISSUER,
          clientId: need("CONSOLE_OIDC_CLIENT_ID"),
          clientSecret: env.CONSOLE_OIDC_CLIENT_SECRET ?? "",
          publicUrl: need("CONSOLE_PUBLIC_URL"),
        },
      }
    : {}),
  // The data-planes' breaker settings, to mark deployments whose breakers are likely open.
  breakerThreshold: Number(env.DATA_PLANE_BREAKER_THRESHOLD ?? 5),
  breakerCooldownMs: Number(env.DATA_PLANE_BREAKER_COOLDOWN_MS ?? 30_000),
});
console.log(JSON.stringify({ level: "info", service: "console", url: server.url, msg: "console listening" }));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void server.close().then(() => process.exit(0)));
