/** Deterministic token count the fake upstream reports: whitespace-separated words. */
export function countTokens(text: string): number {
  const t = text.trim();
  return t === "" ? 0 : t.split(/\s+/).length;
}
