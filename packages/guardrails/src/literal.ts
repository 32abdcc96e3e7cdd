/**
 * A literal every match of a pattern must contain, so texts without it skip the regex engine.
 * Conservative: only top-level runs of plain ASCII letters, digits, space, `_` and `-` (or escaped
 * ASCII punctuation) outside groups and classes, in a pattern with no top-level alternation; a
 * character followed by a quantifier ends the run and is dropped. Under `(?i)` the run is also cut
 * at `k` and `s`, whose case-fold orbits include non-ASCII letters (K Kelvin sign, ſ long s), so
 * comparing lower-cased text can never miss a match RE2 would find.
 */
export interface RequiredLiteral {
  text: string;
  caseInsensitive: boolean;
}

const PLAIN = /[A-Za-z0-9 _-]/;
const MIN = 3;

export function requiredLiteral(pattern: string): RequiredLiteral | undefined {
  let p = pattern;
  let ci = false;
  const flags = /^\(\?([imsU]+)\)/.exec(p);
  if (flags) {
    ci = flags[1]!.includes("i");
    p = p.slice(flags[0].length);
  }
  const runs: string[] = [];
  let run = "";
  const end = () => {
    if (run) runs.push(run);
    run = "";
  };
  let depth = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    const next = p[i + 1];
    if (c === "\\") {
      const e = p[i + 1];
      i++;
      // An escaped punctuation character is itself; \d, \w, \b, \Q … are not plain literals.
      const lit = e !== undefined && /[!-/:-@[-`{-~]/.test(e) ? e : undefined;
      const quantified = /[?*+{]/.test(p[i + 1] ?? "");
      if (depth === 0 && lit && !quantified) run += lit;
      else end();
      continue;
    }
    if (c === "[") {
      end();
      // Skip the class (a ] right after [ or [^ is a member).
      let j = i + 1;
      if (p[j] === "^") j++;
      if (p[j] === "]") j++;
      while (j < p.length && p[j] !== "]") j += p[j] === "\\" ? 2 : 1;
      i = j;
      continue;
    }
    if (c === "(") {
      depth++;
      end();
      continue;
    }
    if (c === ")") {
      depth = Math.max(0, depth - 1);
      end();
      continue;
    }
    if (c === "|") {
      if (depth === 0) return undefined; // top-level alternation: no single required literal
      end();
      continue;
    }
    if (depth > 0) continue;
    if (PLAIN.test(c) && !/[?*+{]/.test(next ?? "")) {
      run += c;
      continue;
    }
    end();
  }
  end();
  let best = "";
  for (const r of runs) {
    const pieces = ci ? r.split(/[ksKS]/) : [r];
    for (const piece of pieces) if (piece.length > best.length) best = piece;
  }
  if (best.length < MIN) return undefined;
  return { text: ci ? best.toLowerCase() : best, caseInsensitive: ci };
}
