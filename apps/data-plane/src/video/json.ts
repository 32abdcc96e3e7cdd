/** A JSON column of the job record (or a provider's answer); a value that does not parse reads as empty. */
export function column<T>(json: string, empty: T): T {
  try {
    return json ? (JSON.parse(json) as T) : empty;
  } catch {
    return empty;
  }
}
