import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Longest files first: two workers take files from one queue, and the run ends when the busier
 * one does, so the last files to start should be short ones. Vitest orders by the durations in
 * its cache, which a fresh clone (CI) has not: it then ordered by file size, and a 13 kB suite of
 * 25 s started late while short unit files ran first. Here a file's duration is the cache's when
 * it has one, else the seconds recorded in durations.json (files of a second or more, from a full
 * run: refresh it from node_modules/.vite/vitest/<hash>/results.json now and then); the files it
 * knows neither way come after those, largest first as Vitest has them.
 */
const recorded = JSON.parse(readFileSync(new URL("./durations.json", import.meta.url), "utf8")) as Record<string, number>;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const root = this.ctx.config.root;
    const durationMs = (f: TestSpecification): number | undefined => {
      const path = relative(root, f.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${path}`);
      if (cached && !cached.failed) return cached.duration;
      const seconds = recorded[path];
      return seconds === undefined ? undefined : seconds * 1_000;
    };
    const known = bySize.filter((f) => durationMs(f) !== undefined).sort((a, b) => durationMs(b)! - durationMs(a)!);
    return [...known, ...bySize.filter((f) => durationMs(f) === undefined)];
  }
}
