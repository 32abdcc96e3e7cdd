export { loadConfig, randomSecret, type ConsoleConfig } from "./config.js";
export { SESSION_COOKIE } from "./cookies.js";
export { startConsole, type ConsoleServer } from "./server.js";
