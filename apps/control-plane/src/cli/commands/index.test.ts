import { describe, expect, it } from "vitest";
import { commands } from "./index.js";
import { lazyCommands } from "./lazy.js";

describe("gatewayctl's command table", () => {
  it("has each pair of words once, and help that starts with them", () => {
    const words = commands.map((c) => c.words.join(" "));
    expect(new Set(words).size).toBe(words.length);
    for (const c of commands) {
      expect(c.help.length, c.words.join(" ")).toBeGreaterThan(0);
      for (const h of c.help) expect(h.synopsis === c.words.join(" ") || h.synopsis.startsWith(`${c.words.join(" ")} `), h.synopsis).toBe(true);
    }
  });

  it("declares a flag two commands share the same way (the command line is parsed with all of them)", () => {
    const seen = new Map<string, { spec: unknown; by: string }>();
    for (const c of commands) {
      for (const [name, spec] of Object.entries(c.flags)) {
        const first = seen.get(name);
        if (first) expect(spec, `--${name} of ${c.words.join(" ")} and of ${first.by}`).toEqual(first.spec);
        else seen.set(name, { spec, by: c.words.join(" ") });
      }
    }
    expect(seen.has("json"), "--json is gatewayctl's own").toBe(false);
  });

  it("is what gatewayctl reads at start: the same words and flags in lazy.ts, each loading its own command", async () => {
    expect(lazyCommands.map((c) => c.words)).toEqual(commands.map((c) => c.words));
    for (const [i, c] of commands.entries()) {
      const row = lazyCommands[i]!;
      expect(row.flags, c.words.join(" ")).toEqual(c.flags);
      expect(await row.load(), c.words.join(" ")).toBe(c);
    }
  });
});
