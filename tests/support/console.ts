import { startConsole, type ConsoleServer } from "@gateway/console";
import type { Stack } from "./stack.ts";

/** The `console` caller's tokens a stack is started with (StackOptions.serviceEnv) when a test runs the console. */
export const CONSOLE_TOKENS = { control: "test-console-control-token-0123", ledger: "test-console-ledger-token-0123" };
export const consoleServiceEnv = { CONTROL_PLANE_CONSOLE_TOKEN: CONSOLE_TOKENS.control, LEDGER_CONSOLE_TOKEN: CONSOLE_TOKENS.ledger };

/** The console's server over a running stack, on a free port. */
export function startConsoleFor(stack: Stack): Promise<ConsoleServer> {
  return startConsole({
    host: "127.0.0.1",
    port: 0,
    controlPlaneAddr: `127.0.0.1:${stack.control.grpcPort}`,
    ledgerAddr: `127.0.0.1:${stack.ledger().grpcPort}`,
    controlPlaneToken: CONSOLE_TOKENS.control,
    ledgerToken: CONSOLE_TOKENS.ledger,
    secret: "test-console-csrf-secret",
    secureCookies: false,
  });
}
