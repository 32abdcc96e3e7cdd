import { loadConfig } from "./config.js";
import { createDataPlane } from "./index.js";

const dataPlane = createDataPlane(loadConfig(process.env));
await dataPlane.start();
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  // A stop that hangs (a peer that never answers) must not keep a pod from terminating.
  setTimeout(() => process.exit(1), 20_000).unref();
  void dataPlane.stop().then(() => process.exit(0), () => process.exit(1));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
