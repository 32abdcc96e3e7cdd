import { configOrExit } from "@gateway/config";
import { loadConfig } from "./config.js";
import { startConsole } from "./server.js";

/** The console's process: configuration from the environment (docs/console.md). */
const server = await startConsole(configOrExit(() => loadConfig(process.env)));
console.log(JSON.stringify({ level: "info", service: "console", url: server.url, msg: "console listening" }));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void server.close().then(() => process.exit(0)));
