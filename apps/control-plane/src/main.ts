import { configOrExit } from "@gateway/config";
import { loadConfig } from "./config.js";
import { SchemaBehindError } from "@gateway/db";
import { createControlPlane, migrateControlSchema, SecretsKeyError } from "./index.js";

const config = configOrExit(() => loadConfig(process.env));
if (process.argv[2] === "migrate") {
  // The migrate step (the manifests' Job, before the services roll): exit 0 once the schema is current.
  await migrateControlSchema(config).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
const controlPlane = createControlPlane(config);
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  // A stop that hangs (a peer that never answers) must not keep a pod from terminating.
  setTimeout(() => process.exit(1), 20_000).unref();
  void controlPlane.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
// Waits (not ready) for Postgres and NATS if they are down; a stop during that wait ends it.
await controlPlane.start().catch((err: unknown) => {
  if (stopping) return;
  if (err instanceof SchemaBehindError || err instanceof SecretsKeyError) {
    // Refused, not crashed: the migrate step has not run for this release yet, or the secrets key is missing or wrong.
    console.error(err.message);
    process.exit(2);
  }
  throw err;
});
