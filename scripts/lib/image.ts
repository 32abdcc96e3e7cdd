import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/**
 * What deploy/Dockerfile gives each service's image, read from the file itself (no Docker engine
 * runs here): the environment of the stage named after the service, with what it inherits from the
 * stages it is built on. The manifest checks, the deploy-layout test and the benchmarks read the
 * node flags from here, so the image is the one place they are set.
 */

const root = resolve(import.meta.dirname, "../..");
export const DOCKERFILE = resolve(root, "deploy/Dockerfile");

interface Stage {
  base: string;
  env: Record<string, string>;
}

/** The stages of a Dockerfile by name (unnamed ones by their index), with the ENV each one sets itself. */
export function parseStages(text: string): Map<string, Stage> {
  const stages = new Map<string, Stage>();
  let current: Stage | undefined;
  // Continuation lines joined, comments dropped.
  const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/);
  for (const raw of lines) {
    const line = raw.trim();
    const from = /^FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) {
      current = { base: from[1]!, env: {} };
      stages.set(from[2] ?? String(stages.size), current);
      continue;
    }
    const env = /^ENV\s+(.*)$/i.exec(line);
    if (env && current) {
      for (const m of env[1]!.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(?:"((?:[^"\\]|\\.)*)"|(\S*))/g)) current.env[m[1]!] = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3]!;
    }
  }
  return stages;
}

/** The environment the image of `service` starts with (its stage's ENV over its base stages'); undefined when the Dockerfile has no stage for it. */
export function imageEnv(service: string, text = readFileSync(DOCKERFILE, "utf8")): Record<string, string> | undefined {
  const stages = parseStages(text);
  if (!stages.has(service)) return undefined;
  const chain: Stage[] = [];
  for (let name: string | undefined = service; name !== undefined && stages.has(name) && chain.length <= stages.size; name = stages.get(name)?.base) chain.unshift(stages.get(name)!);
  return Object.assign({}, ...chain.map((s) => s.env)) as Record<string, string>;
}

/** The node flags the image of `service` runs with (its NODE_OPTIONS), one per element. */
export function imageNodeFlags(service: string, text?: string): string[] {
  return (imageEnv(service, text)?.NODE_OPTIONS ?? "").split(/\s+/).filter(Boolean);
}
