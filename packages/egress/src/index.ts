import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/**
 * What the gateway may reach on someone else's behalf: a media URL a provider will fetch (the
 * data-plane), an organization's alert webhook (the control-plane). The rules are one: a URL names
 * a host over https, carries no credentials, and every address the host resolves to is public —
 * never private, loopback, link-local, carrier-grade NAT, multicast, reserved or a cloud metadata
 * endpoint, IPv4 embedded in IPv6 included. Each caller words its refusal for its own field.
 */

/** All addresses of a name. */
export type Resolve = (host: string) => Promise<string[]>;

/** The longest URL taken, characters. */
export const MAX_URL = 2048;

/** IPv4 dotted quad → 32-bit number. */
function v4(ip: string): number {
  const p = ip.split(".").map(Number);
  return ((p[0]! << 24) | (p[1]! << 16) | (p[2]! << 8) | p[3]!) >>> 0;
}

const V4_RULES: Array<[string, number, string]> = [
  ["169.254.169.254", 32, "cloud-metadata"],
  ["100.100.100.200", 32, "cloud-metadata"],
  ["192.0.0.192", 32, "cloud-metadata"],
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "carrier-grade-nat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["198.51.100.0", 24, "reserved"],
  ["203.0.113.0", 24, "reserved"],
  ["224.0.0.0", 4, "multicast"],
  ["255.255.255.255", 32, "broadcast"],
  ["240.0.0.0", 4, "reserved"],
];
const V4_COMPILED = V4_RULES.map(([base, bits, name]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { net: (v4(base) & mask) >>> 0, mask, name };
});

function v4Class(ip: string): string | undefined {
  const n = v4(ip);
  for (const r of V4_COMPILED) if ((n & r.mask) >>> 0 === r.net) return r.name;
  return undefined;
}

/** IPv6 text → 8 groups of 16 bits (handles `::` and a trailing dotted IPv4). */
function v6Groups(ip: string): number[] | undefined {
  let s = ip.toLowerCase().split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const n = v4(dotted[1]!);
    s = s.slice(0, -dotted[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const all = [...head, ...Array<string>(Math.max(0, fill)).fill("0"), ...tail];
  if (all.length !== 8) return undefined;
  const out = all.map((g) => parseInt(g || "0", 16));
  return out.some((g) => !Number.isFinite(g) || g < 0 || g > 0xffff) ? undefined : out;
}

const embeddedV4 = (hi: number, lo: number): string => `${hi >>> 8}.${hi & 0xff}.${lo >>> 8}.${lo & 0xff}`;

function v6Class(ip: string): string | undefined {
  const g = v6Groups(ip);
  if (!g) return "reserved";
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return "unspecified";
  if (zeroUpTo(7) && g[7] === 1) return "loopback";
  // IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96: the embedded IPv4 decides.
  if (zeroUpTo(5) && g[5] === 0xffff) return v4Class(embeddedV4(g[6]!, g[7]!)) ?? undefined;
  if (zeroUpTo(6)) return v4Class(embeddedV4(g[6]!, g[7]!)) ?? "reserved";
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Class(embeddedV4(g[6]!, g[7]!));
  // 6to4 2002:AABB:CCDD::/48 embeds a.b.c.d in groups 1–2.
  if (g[0] === 0x2002) return v4Class(embeddedV4(g[1]!, g[2]!));
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return "cloud-metadata";
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0]! & 0xfe00) === 0xfc00) return "unique-local";
  if ((g[0]! & 0xff00) === 0xff00) return "multicast";
  if ((g[0]! & 0xffc0) === 0xfec0) return "reserved"; // deprecated site-local
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "reserved"; // documentation
  return undefined;
}

/** The forbidden class of an address ("loopback", "private", …), or undefined when it is public. */
export function isForbiddenAddress(ip: string): string | undefined {
  const kind = isIP(ip);
  if (kind === 4) return v4Class(ip);
  if (kind === 6) return v6Class(ip);
  return "invalid";
}

/** `host=addr,addr;host2=addr` → map; throws naming the bad entry. */
export function parseStaticHosts(spec: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const entry of spec
    .split(";")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf("=");
    const host = entry.slice(0, eq).trim().toLowerCase();
    const addrs = entry
      .slice(eq + 1)
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean);
    if (eq < 1 || !host || addrs.length === 0 || addrs.some((a) => isIP(a) === 0)) {
      throw new Error(`invalid static host entry '${entry}': expected host=address[,address]`);
    }
    out.set(host, addrs);
  }
  return out;
}

/** Every address of a name, as the system resolver answers it (/etc/hosts, then DNS). */
export const systemResolve: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** "a private", "an unspecified", "a cloud metadata": the class as an article and adjective before "address". */
export const describeAddressClass = (kind: string): string => (kind === "cloud-metadata" ? "a cloud metadata" : /^(a|e|i|o|un(?!i))/.test(kind) ? `an ${kind}` : `a ${kind}`);

/** A URL that passed the rules that need no resolution: the parsed URL and its host (lower case, no IPv6 brackets). */
export interface UrlShape {
  url: URL;
  host: string;
}

export interface UrlShapeOptions {
  /**
   * Hosts an operator trusts by name (a receiver on the loopback in development and tests): for them
   * http is taken as well as https, and an IP address or `localhost` is no reason to refuse. Their
   * addresses are the caller's to leave unchecked.
   */
  trusted?: (host: string) => boolean;
}

/**
 * The rules a URL meets before any name is resolved, as `{ problem }` (a sentence fragment after the
 * field's name: "must be an https:// URL.") or its shape: a string of at most {@link MAX_URL}
 * characters, an https URL without credentials, naming a host (not an IP address, not localhost).
 */
export function urlShape(value: unknown, opts: UrlShapeOptions = {}): UrlShape | { problem: string } {
  if (typeof value !== "string") return { problem: "must be an https:// URL string." };
  if (value.length > MAX_URL) return { problem: `is longer than ${MAX_URL} characters.` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: "is not a valid URL." };
  }
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const trusted = opts.trusted?.(host) ?? false;
  if (url.protocol !== "https:" && !(trusted && url.protocol === "http:")) return { problem: "must be an https:// URL." };
  if (url.username || url.password) return { problem: "must not contain credentials (user:password@)." };
  if (trusted) return { url, host };
  if (isIP(host)) return { problem: "must name a host, not an IP address." };
  if (host === "localhost" || host.endsWith(".localhost")) return { problem: `host '${host}' is localhost.` };
  return { url, host };
}

/** The refusal of a host whose resolved addresses are not all public ("host 'x' resolves to a private address (10.0.0.1)."), or undefined. */
export function forbiddenResolution(host: string, addrs: readonly string[]): string | undefined {
  for (const a of addrs) {
    const kind = isForbiddenAddress(a);
    if (kind) return `host '${host}' resolves to ${describeAddressClass(kind)} address (${a}).`;
  }
  return undefined;
}

/** The addresses of `host` by `resolve` within `timeoutMs`; rejects on a failure, a timeout or no address at all. */
export async function resolveWithin(resolve: Resolve, host: string, timeoutMs: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const addrs = await Promise.race([
      resolve(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`resolving '${host}' took longer than ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    if (addrs.length === 0) throw new Error(`'${host}' has no address`);
    return addrs;
  } finally {
    if (timer) clearTimeout(timer);
  }
}
