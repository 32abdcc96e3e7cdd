/**
 * ISO-8601 instants as the CLI accepts them: a date (`2026-11-01`, midnight UTC) or a date and time
 * with an explicit zone (`2026-11-01T09:30:00Z`, `2026-11-01T10:30:00.250+01:00`). A time without a
 * zone is refused rather than read in the machine's local zone, and so is a date that does not
 * exist (JavaScript would roll 2026-02-30 over to March 2).
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** Unix milliseconds (fractions beyond milliseconds dropped), or undefined when `text` is not such an instant. */
export function parseInstant(text: string): number | undefined {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = m;
  const parts = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  const utc = new Date(Date.UTC(...parts, Number(frac.slice(0, 3).padEnd(3, "0"))));
  utc.setUTCFullYear(parts[0]); // Date.UTC maps years 0-99 to 1900-1999
  const back = [utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate(), utc.getUTCHours(), utc.getUTCMinutes(), utc.getUTCSeconds()];
  if (back.some((v, i) => v !== parts[i])) return undefined;
  let offsetMin = 0;
  if (zone && zone !== "Z") {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
    if (Number(z[2]) > 23 || Number(z[3]) > 59) return undefined;
    offsetMin = (z[1] === "-" ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3]));
  }
  return utc.getTime() - offsetMin * 60_000;
}
