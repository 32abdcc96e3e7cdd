import { configOrExit } from "@gateway/config";
import { loadConfig } from "./config.js";
import { createLedger } from "./index.js";

const ledger = createLedger(configOrExit(() => loadConfig(process.env)));
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  // A stop that hangs (a peer that never answers) must not keep a pod from terminating.
  setTimeout(() => process.exit(1), 20_000).unref();
  void ledger.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
// Waits (not ready) for Postgres and NATS if they are down; a stop during that wait ends it.
await ledger.start().catch((err: unknown) => {
  if (!stopping) throw err;
});
