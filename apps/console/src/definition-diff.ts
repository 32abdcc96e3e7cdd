/**
 * How the operator's page shows an MCP tool's pending definition against the approved one: both
 * pretty-printed from their canonical JSON (keys sorted, as pinned), and a line difference of the
 * two with the unchanged runs folded. Definitions come from upstream servers and are read by
 * people deciding whether to trust them, so characters a reader would not see — controls, format
 * characters such as bidirectional overrides and zero-width spaces, Unicode tags, variation
 * selectors, fillers — are shown as their JSON `\uXXXX` escapes (the text stays the same JSON).
 */

/** One line of a difference: kept (" "), removed ("-"), added ("+"), or a run of `count` unchanged lines left out ("…"). */
export type DiffLine = { op: " " | "-" | "+"; text: string } | { op: "…"; count: number };

/** Characters a reader would not see, or that reorder what is shown around them. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Variation_Selector}\u115F\u1160\u3164\uFFA0]/gu;
const escapeHidden = (line: string) => line.replace(HIDDEN, (c) => [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`).join(""));

/** Sorts object keys at every depth (what the pins' canonical JSON does). */
const sortedKeys = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortedKeys)
    : v && typeof v === "object"
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([k, x]) => [k, sortedKeys(x)]),
        )
      : v;

/** A definition's JSON ("" = none) as the lines a person reads: canonical key order, two-space indents, hidden characters escaped. */
export function prettyDefinition(json: string): string[] {
  if (json === "") return [];
  return JSON.stringify(sortedKeys(JSON.parse(json)), null, 2)
    .split("\n")
    .map(escapeHidden);
}

/** Above this many cells (lines × lines of the part that differs), the difference is all removed then all added. */
const MAX_CELLS = 1_000_000;

const kept = (text: string): DiffLine => ({ op: " ", text });
const removed = (text: string): DiffLine => ({ op: "-", text });
const added = (text: string): DiffLine => ({ op: "+", text });

/** `after` against `before`, line by line: a longest common subsequence of the lines between their common start and end. */
export function lineDiff(before: string[], after: string[]): DiffLine[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  const a = before.slice(start, endBefore);
  const b = after.slice(start, endAfter);
  const middle = a.length * b.length > MAX_CELLS ? [...a.map(removed), ...b.map(added)] : commonSubsequence(a, b);
  return [...before.slice(0, start).map(kept), ...middle, ...before.slice(endBefore).map(kept)];
}

function commonSubsequence(a: string[], b: string[]): DiffLine[] {
  const width = b.length + 1;
  // lengths[i * width + j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push(kept(a[i]!));
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) out.push(removed(a[i++]!));
    else out.push(added(b[j++]!));
  }
  return [...out, ...a.slice(i).map(removed), ...b.slice(j).map(added)];
}

/** Leaves out runs of more than one unchanged line farther than `context` lines from any change. */
export function folded(lines: DiffLine[], context = 3): DiffLine[] {
  const changed = lines.map((l) => l.op === "-" || l.op === "+");
  const far = (k: number) => !changed.slice(Math.max(0, k - context), k + context + 1).some(Boolean);
  const out: DiffLine[] = [];
  let run: DiffLine[] = [];
  const flush = () => {
    out.push(...(run.length > 1 ? [{ op: "…", count: run.length } as const] : run));
    run = [];
  };
  for (const [k, line] of lines.entries()) {
    if (far(k)) run.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}

/** The difference a person reads: the approved definition's lines against the pending one's (a new tool's are all added), folded. */
export function definitionDiff(approvedJson: string, pendingJson: string): DiffLine[] {
  return folded(lineDiff(prettyDefinition(approvedJson), prettyDefinition(pendingJson)));
}
