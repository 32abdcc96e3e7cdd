import { isIP } from "node:net";
import { GatewayError } from "@gateway/errors";
import { forbiddenResolution, resolveWithin, systemResolve, urlShape, type Resolve } from "@gateway/egress";

/** Where one delivery attempt connects: the URL and the addresses checked for it (the connection goes to one of them, never to a fresh lookup). */
export interface WebhookTarget {
  url: URL;
  addresses: string[];
}

/**
 * The address rules of alert webhooks, those of media URLs (@gateway/egress): https, no
 * credentials, a host name whose every address is public. Checked when a URL is set and again at
 * every attempt on the addresses the attempt connects to, so a name that later resolves to a
 * private address (DNS rebinding) is refused then. Hosts an operator allowlists
 * (CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS: a receiver on the loopback in tests) are exempt, over http too.
 */
export class WebhookUrlPolicy {
  private readonly allowHosts: Set<string>;
  private readonly resolve: Resolve;
  private readonly timeoutMs: number;

  constructor(o: { allowHosts: readonly string[]; timeoutMs: number; resolve?: Resolve | undefined }) {
    this.allowHosts = new Set(o.allowHosts);
    this.resolve = o.resolve ?? systemResolve;
    this.timeoutMs = o.timeoutMs;
  }

  /** A URL being set: its normalized form, or a 400 naming `webhook_url` and the rule it breaks. */
  async check(value: string): Promise<string> {
    const target = await this.target(value);
    if ("refused" in target) throw new GatewayError("invalid_request", `webhook_url ${target.refused}`, { param: "webhook_url" });
    return target.url.href;
  }

  /** The addresses an attempt may connect to, or why it may not (a sentence after "webhook_url"). */
  async target(value: string): Promise<WebhookTarget | { refused: string }> {
    const trusted = (host: string) => this.allowHosts.has(host);
    const shape = urlShape(value, { trusted });
    if ("problem" in shape) return { refused: shape.problem };
    if (isIP(shape.host)) return { url: shape.url, addresses: [shape.host] };
    let addresses: string[];
    try {
      addresses = await resolveWithin(this.resolve, shape.host, this.timeoutMs);
    } catch {
      return { refused: `host '${shape.host}' could not be resolved.` };
    }
    if (!trusted(shape.host)) {
      const refused = forbiddenResolution(shape.host, addresses);
      if (refused) return { refused };
    }
    return { url: shape.url, addresses };
  }
}
