/** Reading gatewayctl's arguments and the files they name; every mistake is a UsageError (exit code 2). */
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { UsageError } from "./command.js";
import { parseInstant } from "./timestamps.js";

export function need<T>(v: T | undefined, what: string): T {
  if (v === undefined || v === "") throw new UsageError(`missing ${what}`);
  return v;
}

/** A non-negative integer flag; absent → fallback. */
export function intFlag(v: string | undefined, flag: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (!/^[0-9]+$/.test(v) || !Number.isSafeInteger(Number(v))) throw new UsageError(`${flag} must be a non-negative integer, got '${v}'`);
  return Number(v);
}

export function instantFlag(v: string | undefined, flag: string): number {
  const ms = parseInstant(need(v, flag));
  if (ms === undefined) throw new UsageError(`${flag} must be an ISO-8601 date (2026-11-01) or date and time with a zone (2026-11-01T09:30:00Z), got '${v}'`);
  return ms;
}

/** --from and --to: the window [from, to) as Unix ms, not empty. */
export function timeWindow(from: string | undefined, to: string | undefined): { fromMs: number; toMs: number } {
  const fromMs = instantFlag(from, "--from");
  const toMs = instantFlag(to, "--to");
  if (fromMs >= toMs) throw new UsageError(`--from must be before --to (the window is [from, to)), got ${new Date(fromMs).toISOString()} and ${new Date(toMs).toISOString()}`);
  return { fromMs, toMs };
}

/** A comma-separated flag: its trimmed, non-empty items; absent → []. */
export const list = (v: string | undefined) =>
  v
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

export function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
}

/** A YAML (or JSON) file; an empty one is {}. */
export function readDocument(file: string): unknown {
  const text = readText(file);
  try {
    return parseYaml(text) ?? {};
  } catch (err) {
    throw new UsageError(`${file} is not valid YAML or JSON: ${(err as Error).message}`);
  }
}

/** An optional non-negative integer flag: undefined when absent. */
export const optionalInt = (v: string | undefined, flag: string): number | undefined => (v === undefined ? undefined : intFlag(v, flag, 0));

const WINDOWS = ["day", "week", "month", "none"];
/** A budget window flag (day, week, month or none): undefined when absent. */
export function windowFlag(v: string | undefined, flag = "--window"): string | undefined {
  if (v !== undefined && !WINDOWS.includes(v)) throw new UsageError(`${flag} must be day, week, month or none, got '${v}'`);
  return v;
}

/** The one thing a command acts on, given as its positional argument or as its flag (`ORG` or `--org ORG`), not both. */
export function positionalOrFlag(args: string[], flag: string | undefined, command: string, what: string, flagName: string): string {
  if (args.length > 1 || (args.length === 1 && flag !== undefined)) throw new UsageError(`${command} takes exactly one ${what} (or ${flagName} ${what})`);
  return need(args[0] ?? flag, what);
}
