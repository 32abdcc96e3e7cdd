import { writeSync } from "node:fs";
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints the failed tests and unhandled errors again, briefly, as the run's very last lines: CI keeps
 * only the tail of a run's output, where the default reporter puts its totals. Prints nothing when
 * everything passed.
 */
export default class FailureSummary implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message?: string; name?: string }>): void {
    const lines: string[] = [];
    const first = (message: string | undefined) => (message ?? "").split("\n", 3).join(" | ").slice(0, 400);
    for (const m of modules) {
      for (const e of m.errors()) lines.push(`${relative(process.cwd(), m.moduleId)}: ${first(e.message)}`);
      for (const t of m.children.allTests("failed")) {
        const error = t.result().errors?.[0];
        // The failing line of the test file, from the stack.
        const at = error?.stack?.split(`${m.moduleId}:`)[1]?.match(/^\d+/)?.[0];
        lines.push(`${relative(process.cwd(), m.moduleId)}${at ? `:${at}` : ""} > ${t.fullName}: ${first(error?.message)}`);
      }
    }
    for (const e of unhandled) lines.push(`unhandled ${e.name ?? "error"}: ${first(e.message)}`);
    if (lines.length === 0) return;
    // At exit: the default reporter writes its totals after this hook returns.
    process.once("exit", () => writeSync(1, `\nFailures (${lines.length}):\n${lines.map((l) => `  ${l}`).join("\n")}\n`));
  }
}
