import { configOrExit } from "@gateway/config";
import { loadConfig } from "./config.js";
import { createDataPlane } from "./index.js";
import { drainSpool } from "./usage/drain.js";

const config = configOrExit(() => loadConfig(process.env));
if (process.argv[2] === "drain-spool") {
  // A departed replica's spool volume, mounted at DATA_PLANE_SPOOL_DIR: publish it all, then exit
  // (0: drained; 1: events left, NATS did not take them in time, or files another process still holds).
  const r = await drainSpool(config, 10 * 60_000);
  console.log(JSON.stringify({ msg: "usage spool drained", spool_dir: config.spoolDir, ...r }));
  process.exit(r.left === 0 && r.heldElsewhere === 0 ? 0 : 1);
}
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
