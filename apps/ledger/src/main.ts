import { loadConfig } from "./config.js";
import { createLedger } from "./index.js";

const ledger = createLedger(loadConfig(process.env));
await ledger.start();
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void ledger.stop().then(() => process.exit(0), () => process.exit(1));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
