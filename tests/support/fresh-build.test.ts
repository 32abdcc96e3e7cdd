import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { staleBuilds } from "./fresh-build.ts";

const root = mkdtempSync(join(tmpdir(), "fresh-build-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A package with a build script, one source file and one built file, at the given times (s). */
function pkg(name: string, sourceAt: number, builtAt: number | undefined, testAt?: number): void {
  const dir = join(root, "apps", name);
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, scripts: { build: "tsc" } }));
  writeFileSync(join(dir, "src", "index.ts"), "export {};\n");
  utimesSync(join(dir, "src", "index.ts"), sourceAt, sourceAt);
  if (testAt !== undefined) {
    writeFileSync(join(dir, "src", "index.test.ts"), "\n");
    utimesSync(join(dir, "src", "index.test.ts"), testAt, testAt);
  }
  if (builtAt !== undefined) {
    mkdirSync(join(dir, "dist"), { recursive: true });
    writeFileSync(join(dir, "dist", "index.js"), "export {};\n");
    utimesSync(join(dir, "dist", "index.js"), builtAt, builtAt);
  }
}

describe("the suite refuses a stale build", () => {
  it("names the packages whose sources changed after their build, or that were never built; a newer test file alone does not count", () => {
    pkg("fresh", 1_000, 2_000);
    pkg("edited", 3_000, 2_000);
    pkg("unbuilt", 1_000, undefined);
    pkg("tested", 1_000, 2_000, 5_000);
    expect(staleBuilds(root).sort()).toEqual(["apps/edited", "apps/unbuilt (never built)"]);
  });
});
