export { SESSION_COOKIE, randomSecret, startConsole, type ConsoleConfig, type ConsoleServer } from "./server.js";
