import { configOrExit } from "@gateway/config";
import { loadConfig } from "./config.js";
import { createDataPlane } from "./index.js";

const config = configOrExit(() => loadConfig(process.env));
const dataPlane = createDataPlane(config);
await dataPlane.start();
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  // A stop that hangs (a peer that never answers) must not keep a pod from terminating; it gets
  // the pause, the stream drain and the spool's shutdown replay, plus 15 s. Unreplayed usage stays
  // on disk either way.
  setTimeout(() => process.exit(1), 15_000 + config.shutdownPauseMs + config.shutdownStreamDrainMs + config.shutdownReplayMs).unref();
  void dataPlane.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
