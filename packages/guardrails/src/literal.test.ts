import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { requiredLiteral } from "./literal.js";

describe("requiredLiteral", () => {
  it.each([
    ["secret-\\d+", "secret-", false],
    ["(?i)api[_-]?key\\s*[:=]", "api", true],
    ["BEGIN (RSA|EC) PRIVATE KEY", " PRIVATE KEY", false],
    ["ord-[0-9]{6}", "ord-", false],
    ["foo\\.bar", "foo.bar", false],
    ["(?i)password", "password".split(/s/).sort((a, b) => b.length - a.length)[0]!, true],
  ])("%s needs %j", (pattern, text, ci) => {
    expect(requiredLiteral(pattern)).toEqual({ text: ci ? text.toLowerCase() : text, caseInsensitive: ci });
  });

  it.each(["a|b|secret", "(a+)+$", "ab?c", "[abc]{3}", "\\d{4}-\\d{4}", "x*yzq?"])("%s has none", (pattern) => {
    expect(requiredLiteral(pattern)).toBeUndefined();
  });

  it("never misses a match RE2 finds (case folding included)", () => {
    const cases: Array<[string, string]> = [
      ["(?i)secret-\\d+", "my \u017Fecret-42"], // long s folds to s
      ["(?i)kelvin", "\u212Aelvin"], // Kelvin sign folds to k
      ["(?i)api[_-]?key", "API_KEY"],
      ["BEGIN (RSA|EC) PRIVATE KEY", "-----BEGIN EC PRIVATE KEY-----"],
      ["colou?r", "color"],
    ];
    for (const [pattern, text] of cases) {
      expect(RE2JS.compile(pattern).test(text)).toBe(true);
      const lit = requiredLiteral(pattern);
      if (lit) expect((lit.caseInsensitive ? text.toLowerCase() : text).includes(lit.text)).toBe(true);
    }
  });
});
