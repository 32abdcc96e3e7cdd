import { loadConfig } from "./config.js";
import { createDataPlane } from "./index.js";

const dataPlane = createDataPlane(loadConfig(process.env));
await dataPlane.start();
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void dataPlane.stop().then(() => process.exit(0), () => process.exit(1));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
