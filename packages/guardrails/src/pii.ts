import type { PiiType } from "./rules.js";

/**
 * Detectors for personal data: a simple linear pattern per type plus a validation step (Luhn for
 * cards, mod-97 for IBANs, area rules for SSNs, digit counts for phone numbers), so plain numbers
 * that merely look similar are left alone.
 */
interface Detector {
  type: PiiType;
  /** A character every match contains: texts without it are skipped without a scan. */
  needs?: string;
  /** Custom scanner returning [start, end) ranges, used instead of the pattern when present. */
  scan?: (text: string) => Array<[number, number]>;
  label: string;
  placeholder: string;
  pattern: RegExp;
  valid(match: string): boolean;
}

function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

function ibanValid(raw: string): boolean {
  const s = raw.replace(/ /g, "").toUpperCase();
  if (s.length < 15 || s.length > 34) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const c = ch.charCodeAt(0);
    const v = c >= 65 ? String(c - 55) : ch;
    for (const d of v) rem = (rem * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

const digitsOf = (s: string) => s.replace(/\D/g, "");

const LOCAL = /[A-Za-z0-9._%+-]/;
const DOMAIN = /[A-Za-z0-9-]/;

/** E-mail addresses, found from each `@` outwards: linear in the text, cheap without an `@`. */
function scanEmails(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = 0;
  for (let at = text.indexOf("@", from); at !== -1; at = text.indexOf("@", from)) {
    let start = at;
    while (start > 0 && at - start < 64 && LOCAL.test(text[start - 1]!)) start--;
    let end = at + 1;
    let dots = 0;
    let label = 0;
    while (end < text.length && end - at <= 255) {
      const c = text[end]!;
      if (DOMAIN.test(c)) label++;
      else if (c === "." && label > 0 && end + 1 < text.length && DOMAIN.test(text[end + 1]!)) {
        dots++;
        label = 0;
      } else break;
      end++;
    }
    if (start < at && dots > 0 && label > 0 && (out.length === 0 || start >= out[out.length - 1]![1])) out.push([start, end]);
    from = Math.max(at + 1, end);
  }
  return out;
}

/** In masking order: longer, more specific identifiers first, so a card is not read as a phone. */
export const DETECTORS: readonly Detector[] = [
  {
    type: "email",
    label: "e-mail address",
    placeholder: "[EMAIL]",
    needs: "@",
    pattern: /@/g,
    scan: scanEmails,
    valid: () => true,
  },
  {
    type: "iban",
    label: "IBAN",
    placeholder: "[IBAN]",
    pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g,
    valid: ibanValid,
  },
  {
    type: "card",
    label: "payment card number",
    placeholder: "[CARD]",
    pattern: /\b\d(?:[ -]?\d){12,18}\b/g,
    valid: (m) => {
      const d = digitsOf(m);
      return d.length >= 13 && d.length <= 19 && luhn(d);
    },
  },
  {
    type: "ssn",
    label: "social security number",
    placeholder: "[SSN]",
    pattern: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g,
    valid: () => true,
  },
  {
    type: "phone",
    label: "phone number",
    placeholder: "[PHONE]",
    pattern: /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,5}){1,4}(?![\w-])/g,
    valid: (m) => {
      const d = digitsOf(m);
      if (d.length < 7 || d.length > 15) return false;
      // International (+CC) or area-code (…) forms; otherwise a national number of 10–11 digits in
      // at most three groups (555-123-4567), so dates, amounts and ids are not phones.
      if (m.startsWith("+") || m.includes("(")) return true;
      return d.length >= 10 && d.length <= 11 && m.split(/[ .-]/).length <= 3;
    },
  },
  {
    type: "ip",
    label: "IP address",
    placeholder: "[IP]",
    pattern: /\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\b/g,
    valid: () => true,
  },
];

export function detectorsFor(types: readonly PiiType[]): Detector[] {
  return DETECTORS.filter((d) => types.includes(d.type));
}

/** The label of the first valid match of any detector, or undefined. */
export function findPii(text: string, detectors: readonly Detector[]): string | undefined {
  for (const d of detectors) {
    if (d.needs && !text.includes(d.needs)) continue;
    if (d.scan) {
      if (d.scan(text).length > 0) return d.label;
      continue;
    }
    d.pattern.lastIndex = 0;
    for (let m = d.pattern.exec(text); m; m = d.pattern.exec(text)) {
      if (d.valid(m[0])) return d.label;
    }
  }
  return undefined;
}

/** Replaces every valid match with its typed placeholder. */
export function maskPii(text: string, detectors: readonly Detector[]): { text: string; changed: boolean } {
  let changed = false;
  let out = text;
  for (const d of detectors) {
    if (d.needs && !out.includes(d.needs)) continue;
    if (d.scan) {
      const ranges = d.scan(out);
      if (ranges.length === 0) continue;
      let next = "";
      let last = 0;
      for (const [a, b] of ranges) {
        next += out.slice(last, a) + d.placeholder;
        last = b;
      }
      out = next + out.slice(last);
      changed = true;
      continue;
    }
    out = out.replace(d.pattern, (m) => {
      if (!d.valid(m)) return m;
      changed = true;
      return d.placeholder;
    });
  }
  return { text: out, changed };
}
