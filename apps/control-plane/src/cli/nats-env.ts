/** gatewayctl's NATS settings from its environment (only the commands that read NATS load this, and NATS's client with it). */
import { natsCredentialsFromEnv, natsTlsFromEnv, type NatsCredentials, type NatsTls } from "@gateway/nats";
import { type Env, UsageError } from "./command.js";

/** GATEWAY_NATS_USER and GATEWAY_NATS_PASSWORD (both or neither): the read-only `gatewayctl` NATS user. */
export function natsCredentials(env: Env): NatsCredentials | undefined {
  const { credentials, problems } = natsCredentialsFromEnv("GATEWAY_", env);
  if (problems.length > 0) throw new UsageError(problems.join("; "));
  return credentials;
}

/** GATEWAY_NATS_TLS_CA_FILE, with _CERT_FILE and _KEY_FILE when NATS verifies clients: TLS to NATS. */
export function natsTls(env: Env): NatsTls | undefined {
  const { tls, problems } = natsTlsFromEnv("GATEWAY_", env);
  if (problems.length > 0) throw new UsageError(problems.join("; "));
  return tls;
}
