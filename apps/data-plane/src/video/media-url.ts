import { type GatewayError, invalidParam } from "@gateway/errors";
import { forbiddenResolution, resolveWithin, systemResolve, urlShape, type Resolve } from "@gateway/egress";

// The address rules are @gateway/egress's (the control-plane's alert webhooks follow the same ones).
export { isForbiddenAddress, parseStaticHosts, type Resolve } from "@gateway/egress";

export interface MediaUrlCheckerOptions {
  resolve?: Resolve;
  /** Deadline of one resolution, ms. */
  timeoutMs?: number;
  /** Names answered before DNS, like /etc/hosts (split-horizon setups, tests). */
  staticHosts?: Map<string, string[]>;
  cacheSize?: number;
  cacheTtlMs?: number;
}

/**
 * Refuses media URLs that would make a provider (or the gateway) fetch an internal address: only
 * https, ≤ 2048 characters, no credentials, no IP literal, and every address the name resolves to
 * must be public. Resolutions are cached briefly (bounded) and each has a deadline.
 */
export class MediaUrlChecker {
  private readonly resolve: Resolve;
  private readonly timeoutMs: number;
  private readonly staticHosts: Map<string, string[]>;
  private readonly cacheSize: number;
  private readonly cacheTtlMs: number;
  private readonly cache = new Map<string, { at: number; addrs: string[] }>();

  constructor(opts: MediaUrlCheckerOptions = {}) {
    this.resolve = opts.resolve ?? systemResolve;
    this.timeoutMs = opts.timeoutMs ?? 2_000;
    this.staticHosts = opts.staticHosts ?? new Map();
    this.cacheSize = opts.cacheSize ?? 1_000;
    this.cacheTtlMs = opts.cacheTtlMs ?? 30_000;
  }

  /** Resolves to the normalized URL, or throws a 400 naming the field. */
  async check(field: string, value: unknown): Promise<string> {
    const bad = (why: string) => invalidParam(field, `'${field}' ${why}`);
    const shape = urlShape(value);
    if ("problem" in shape) throw bad(shape.problem);
    const refused = forbiddenResolution(shape.host, await this.addresses(shape.host, bad));
    if (refused) throw bad(refused);
    return shape.url.href;
  }

  private async addresses(host: string, bad: (why: string) => GatewayError): Promise<string[]> {
    const fixed = this.staticHosts.get(host);
    if (fixed) return fixed;
    const hit = this.cache.get(host);
    if (hit && Date.now() - hit.at < this.cacheTtlMs) return hit.addrs;
    let addrs: string[];
    try {
      addrs = await resolveWithin(this.resolve, host, this.timeoutMs);
    } catch {
      throw bad(`host '${host}' could not be resolved.`);
    }
    this.cache.delete(host);
    this.cache.set(host, { at: Date.now(), addrs });
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return addrs;
  }
}
