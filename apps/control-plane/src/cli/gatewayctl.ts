/**
 * gatewayctl: the admin CLI over the control-plane's AdminService and the ledger's top-up.
 * `gatewayctl GROUP ACTION [ARG…] [--FLAG…] [--json]`: the commands are the table in
 * commands/index.ts, one file each; gatewayctl reads their words and flags from commands/lazy.ts and
 * imports only the one it runs (the whole table only for the help). Scripts rely on the grammar; every command takes --json and then
 * prints one JSON object, except `usage export` and `journal tail`, which stream their data.
 * Exit codes: 0 ok, 1 the server refused or failed, 2 bad usage.
 */
import { parseArgs } from "node:util";
import { GatewayError } from "@gateway/errors";
import { lazyClients } from "./clients.js";
import { type Command, type Context, type Env, type FlagSpec, UsageError } from "./command.js";
import { lazyCommands } from "./commands/lazy.js";
import { OutputClosedError, printer } from "./output.js";

/** Where a summary starts in the help: beside a synopsis short enough, under a longer one. */
const SUMMARY_COLUMN = 35;

function helpLines(c: Command): string[] {
  const indent = " ".repeat(SUMMARY_COLUMN);
  return c.help.flatMap(({ synopsis, summary = [] }) => {
    const line = `  ${synopsis}`;
    const [first, ...rest] = summary;
    if (first === undefined) return [line];
    const head = line.length + 2 <= SUMMARY_COLUMN ? [line.padEnd(SUMMARY_COLUMN) + first] : [line, indent + first];
    return [...head, ...rest.map((l) => indent + l)];
  });
}

/** The help: the whole table of commands, loaded for it. */
const usage = async (): Promise<string> =>
  [
    "usage: gatewayctl <command> [--json]",
    "",
    ...(await import("./commands/index.js")).commands.flatMap(helpLines),
    "",
    "environment: GATEWAY_ADMIN_TOKEN (required), GATEWAY_CONTROL_PLANE_ADDR (127.0.0.1:50051),",
    "             GATEWAY_LEDGER_ADDR (127.0.0.1:50052), GATEWAY_NATS_URL (nats://127.0.0.1:4222) with GATEWAY_NATS_USER",
    "             + GATEWAY_NATS_PASSWORD (the read-only gatewayctl user); gRPC over TLS: GATEWAY_TLS_CA_FILE,",
    "             GATEWAY_TLS_CERT_FILE + GATEWAY_TLS_KEY_FILE (a client certificate, for mTLS); NATS over TLS:",
    "             GATEWAY_NATS_TLS_CA_FILE, GATEWAY_NATS_TLS_CERT_FILE + GATEWAY_NATS_TLS_KEY_FILE",
  ].join("\n");

/** Every command's flags and --json: a command line is parsed with all of them (a flag of another command is ignored). */
const FLAGS: Record<string, FlagSpec> = Object.assign({}, ...lazyCommands.map((c) => c.flags), { json: { type: "boolean" } });

/** Commands by their words joined with a space, as typed. */
const BY_WORDS = new Map(lazyCommands.map((c) => [c.words.join(" "), c]));

async function run(argv: string[], ctx: Omit<Context, "flags">): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const [group, action, ...pos] = parsed.positionals;
  const cmd = `${group ?? ""} ${action ?? ""}`.trim();
  const row = BY_WORDS.get(cmd);
  if (!row) throw new UsageError(group ? `unknown command '${cmd}'` : "no command given");
  const command = await row.load();
  await command.run(pos, { ...ctx, flags: parsed.values as Context["flags"] });
}

export async function main(argv: string[], env: Env): Promise<number> {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write((await usage()) + "\n");
    return argv.length === 0 ? 2 : 0;
  }
  const json = argv.includes("--json");
  const clients = lazyClients(env);
  try {
    await run(argv, { out: printer(json), clients: clients.get, env });
    return 0;
  } catch (err) {
    // The reader of our output went away (`… | head`): that ends the command, quietly.
    if (err instanceof OutputClosedError) return 0;
    const isUsage = err instanceof UsageError;
    const message = err instanceof Error ? err.message : String(err);
    const code = err instanceof GatewayError ? err.code : isUsage ? "usage" : "error";
    process.stderr.write(json ? JSON.stringify({ error: { message, code } }) + "\n" : `gatewayctl: ${message}${isUsage ? "\n\n" + (await usage()) : ""}\n`);
    return isUsage ? 2 : 1;
  } finally {
    clients.close();
  }
}

process.exitCode = await main(process.argv.slice(2), process.env);
