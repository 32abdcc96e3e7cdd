import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { z } from "zod";

/**
 * How every service reads its environment: the variables named with its prefix, each checked by a
 * schema; an empty (or blank) variable is unset, so a manifest's `FOO_PORT=` keeps the default
 * instead of turning into 0, which a number schema would otherwise read as "any free port" (or no
 * retries, no timeout); numbers are digits only, within their range; every problem is reported at
 * once, by variable, before the service starts.
 */

/** The variables of `env` whose names start with `prefix` and that hold something but blanks. */
export function presentVariables(prefix: string, env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (k.startsWith(prefix) && v !== undefined && v.trim() !== "") out[k] = v;
  return out;
}

/**
 * Problems for the variables among `names` that are set but blank: settings such as TLS files,
 * where reading a blank as unset would quietly mean plaintext, are refused instead.
 */
export function blankRefused(env: Record<string, string | undefined>, names: string[]): string[] {
  return names.filter((n) => env[n] !== undefined && env[n]!.trim() === "").map((n) => `${n}: must not be empty`);
}

/**
 * A whole number written in digits (no sign, exponent, hex or fraction: `1e3` or `0x10` in a
 * manifest is a mistake, not a number), from `min` to `max`; `def` when unset (none: optional).
 */
export function wholeNumber(def: number, min?: number, max?: number): z.ZodDefault<z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>>;
export function wholeNumber(def: undefined, min?: number, max?: number): z.ZodOptional<z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>>;
export function wholeNumber(def: number | undefined, min = 0, max = Number.MAX_SAFE_INTEGER) {
  const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
  const schema = z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max, { error: (iss) => `a whole number ${range}, not ${JSON.stringify(iss.input)}` })
    .transform(Number);
  return def === undefined ? schema.optional() : schema.default(def);
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const SIZE_BYTES = { KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 } as const;

/**
 * A duration of whole minutes, hours or days (`90m`, `72h`, `7d`), in ms, at least `minMs`; `def`
 * (written the same way) when unset. A bare number is refused: its unit would be a guess.
 */
export function duration(def: string, minMs = 60_000) {
  return z
    .string()
    .trim()
    .default(def)
    .refine((v) => /^\d+[mhd]$/.test(v) && parseInt(v, 10) * UNIT_MS[v.at(-1) as keyof typeof UNIT_MS] >= minMs, {
      error: (iss) => `a duration in whole minutes, hours or days (90m, 72h, 7d) of at least ${minMs / 60_000} minutes, not ${JSON.stringify(iss.input)}`,
    })
    .transform((v) => parseInt(v, 10) * UNIT_MS[v.at(-1) as keyof typeof UNIT_MS]);
}

/**
 * A size in bytes, as digits or with a binary unit as Kubernetes writes it (`512MiB`, `20GiB`, `20Gi`),
 * at least `min`; `def` (written the same way) when unset.
 */
export function byteSize(def: string, min = 0) {
  const parse = (v: string): number | undefined => {
    const m = /^(\d+)(?:(Ki|Mi|Gi|Ti)B?)?$/.exec(v);
    if (!m) return undefined;
    return Number(m[1]) * (m[2] ? SIZE_BYTES[`${m[2]}B` as keyof typeof SIZE_BYTES] : 1);
  };
  return z
    .string()
    .trim()
    .default(def)
    .refine((v) => (parse(v) ?? -1) >= min, { error: (iss) => `a size in bytes (digits, or with KiB, MiB, GiB or TiB) of at least ${min}, not ${JSON.stringify(iss.input)}` })
    .transform((v) => parse(v)!);
}

/** A TCP port to listen on; 0 = any free port (tests). */
export const port = (def: number) => wholeNumber(def, 0, 65_535);

/** A string schema's parameter: an unset variable is reported as `required: <what>`. */
export const required = (what: string) => ({ error: (issue: { input: unknown }) => (issue.input === undefined ? `required: ${what}` : undefined) });

/** One line per problem a schema found in the variables (none when they parsed), each naming its variable. */
export function problemsOf(parsed: { success: boolean; error?: z.ZodError }): string[] {
  return parsed.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];
}

/** Throws one error listing every problem of a service's configuration, if there is any. */
export function refuseProblems(service: string, problems: string[]): void {
  if (problems.length > 0) throw new Error(`invalid ${service} configuration:\n  ${problems.join("\n  ")}`);
}

/**
 * A service's configuration at start: read by `load`, or the process ends with code 2 and the
 * problems on stderr (one line each, no stack trace: they are the operator's to fix, not a bug).
 */
export function configOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
}

/** The items of a comma-separated setting, trimmed, blanks left out. */
export function commaList(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * An Ed25519 key of `kind` from PEM text (newlines may be written `\\n`, as an env file holds them),
 * or the problem with it, naming the variable; undefined when unset.
 */
export function ed25519Key(name: string, pem: string | undefined, kind: "private" | "public"): { key: KeyObject | undefined; problems: string[] } {
  if (!pem) return { key: undefined, problems: [] };
  try {
    const text = pem.replace(/\\n/g, "\n");
    const key = kind === "private" ? createPrivateKey(text) : createPublicKey(text);
    if (key.asymmetricKeyType !== "ed25519") return { key: undefined, problems: [`${name}: an Ed25519 ${kind} key (PEM), not ${key.asymmetricKeyType}`] };
    return { key, problems: [] };
  } catch {
    return { key: undefined, problems: [`${name}: not a PEM ${kind} key`] };
  }
}
