import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** The newest modification time of the files under `dir` that `keep` accepts (0 when none). */
function newest(dir: string, keep: (file: string) => boolean): number {
  let at = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) at = Math.max(at, newest(p, keep));
    else if (keep(e.name)) at = Math.max(at, statSync(p).mtimeMs);
  }
  return at;
}

/**
 * The workspace packages whose build is older than their sources (or missing): the end-to-end
 * suites start the services from `dist`, so running them against a stale build tests old code.
 * A package counts when it has a `build` script and a `src` folder; test files do not count.
 */
export function staleBuilds(root: string): string[] {
  const stale: string[] = [];
  for (const group of ["apps", "packages"]) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group))) {
      const dir = join(root, group, name);
      const manifest = join(dir, "package.json");
      if (!existsSync(manifest) || !existsSync(join(dir, "src"))) continue;
      const scripts = (JSON.parse(readFileSync(manifest, "utf8")) as { scripts?: Record<string, string> }).scripts;
      if (!scripts?.build) continue;
      if (!existsSync(join(dir, "dist"))) {
        stale.push(`${group}/${name} (never built)`);
        continue;
      }
      const source = newest(join(dir, "src"), (f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
      if (source > newest(join(dir, "dist"), () => true)) stale.push(`${group}/${name}`);
    }
  }
  return stale;
}
