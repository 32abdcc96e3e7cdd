/**
 * A gatewayctl command: one file under commands/, one row of the table in commands/index.ts and one
 * in commands/lazy.ts.
 * gatewayctl parses the command line, finds the command by its two words, and runs it with the
 * remaining positional arguments; the help lists the table's entries in its order.
 */
import type { Printer } from "./output.js";
import type { Clients } from "./clients.js";

/** A mistake in the command line or in a file it names: exit code 2, and the help after the message. */
export class UsageError extends Error {}

export type Env = Record<string, string | undefined>;

/** A flag as node:util's parseArgs takes it. */
export interface FlagSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
}
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;
/** The parsed flags: a string flag's text, a boolean flag's true; absent flags undefined. */
export type FlagValues<F extends FlagSpecs> = { [K in keyof F]?: F[K]["type"] extends "boolean" ? boolean : string };

export interface Context<F extends FlagSpecs = FlagSpecs> {
  flags: FlagValues<F>;
  /** Prints the command's result: with --json one JSON object, otherwise the human text. */
  out: Printer;
  /** The admin and ledger gRPC clients, created at the first call (GATEWAY_ADMIN_TOKEN is checked then); gatewayctl closes them. */
  clients(): Clients;
  env: Env;
}

/** One line of the help, and what it does under it or beside it (lines wrapped by hand, printed from column 35). */
export interface HelpEntry {
  readonly synopsis: string;
  readonly summary?: readonly string[];
}

export interface Command<F extends FlagSpecs = FlagSpecs> {
  /** `["key", "create"]`: the first two positional arguments. */
  readonly words: readonly [string, string];
  /** Its entries in the help: usually one; a command with two forms (console link) has two. */
  readonly help: readonly HelpEntry[];
  /**
   * The flags it reads (--json is everyone's). The command line is parsed with every command's flags
   * together, so a flag of another command is accepted and ignored; the same name declared by two
   * commands must be the same flag.
   */
  readonly flags: F;
  /** `args`: the positional arguments after the two words. Throws UsageError for a bad command line. */
  run(args: string[], ctx: Context<F>): Promise<void>;
}

/** Declares a command: infers its flags' types for `run`, and returns it as a row of the table. */
export function command<const F extends FlagSpecs>(c: Command<F>): Command {
  return c as unknown as Command;
}
