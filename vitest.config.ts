import { defineConfig } from "vitest/config";
import { LongestFirst } from "./tests/support/sequencer.ts";

export default defineConfig({
  test: {
    include: ["apps/*/tests/**/*.test.ts", "apps/*/src/**/*.test.ts", "packages/*/src/**/*.test.ts", "tests/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    globalSetup: ["./tests/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two workers, each running its files one after another in one process (no module graph
    // re-imported per file: collecting 128 files took ~85 s of the workers' time, now ~15). Every
    // file starts its own servers on free ports and stops them; none relies on a fresh module state.
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    // Longest files first, in a fresh clone too (tests/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // The failures again as the last lines: CI keeps only the tail of the output.
    reporters: ["default", "./tests/support/failure-summary.ts"],
  },
});
