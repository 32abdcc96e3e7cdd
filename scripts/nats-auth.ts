/**
 * NATS users and permissions for a deployment (docs/operations.md, "NATS credentials and permissions"):
 *
 *   node scripts/nats-auth.ts conf           the `authorization` block deploy/k8s/nats.yaml carries as
 *                                            auth.conf (each password read from nats-server's environment)
 *   node scripts/nats-auth.ts secrets DIR    fresh random passwords in DIR/<user>/password, and the same
 *                                            block in DIR/auth.conf
 *
 * The test stack and `make up` use the same generator (scripts/lib/nats-auth.ts).
 */
import { resolve } from "node:path";
import { NATS_USERS, authorizationBlock, natsSecretName, writeNatsAuth } from "./lib/nats-auth.ts";

const [cmd, dir] = process.argv.slice(2);
if (cmd === "conf") {
  process.stdout.write(authorizationBlock());
} else if (cmd === "secrets" && dir) {
  const auth = writeNatsAuth(resolve(dir));
  process.stderr.write(`wrote ${auth.configFile} and a password for each of ${NATS_USERS.join(", ")} (owner-only files); for Kubernetes:\n`);
  for (const user of NATS_USERS) process.stderr.write(`  kubectl create secret generic ${natsSecretName(user)} --from-file=password=${resolve(dir, user, "password")}\n`);
} else {
  process.stderr.write("usage: node scripts/nats-auth.ts conf | secrets DIR\n");
  process.exitCode = 2;
}
