import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import { WebhookUrlPolicy } from "./webhook-url.js";

/** The address rules of webhooks are the media URLs' (@gateway/egress), checked when set and at every attempt. */
describe("webhook URL rules", () => {
  const names = new Map<string, string[]>([
    ["hooks.example", ["93.184.216.34"]],
    ["internal.example", ["10.1.2.3"]],
    ["mixed.example", ["93.184.216.34", "fd00:ec2::254"]],
    ["metadata.example", ["169.254.169.254"]],
  ]);
  const policy = (allowHosts: string[] = []) =>
    new WebhookUrlPolicy({
      allowHosts,
      timeoutMs: 200,
      resolve: async (host) => {
        const a = names.get(host);
        if (!a) throw new Error("NXDOMAIN");
        return a;
      },
    });
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).context.param).toBe("webhook_url");
    return (err as GatewayError).message;
  };

  it("takes an https URL of a host whose every address is public", async () => {
    expect(await policy().check("https://HOOKS.example/gateway?x=1")).toBe("https://hooks.example/gateway?x=1");
  });

  it.each([
    ["http://hooks.example/", "webhook_url must be an https:// URL."],
    ["https://user:pw@hooks.example/", "webhook_url must not contain credentials (user:password@)."],
    ["https://93.184.216.34/", "webhook_url must name a host, not an IP address."],
    ["https://[::1]/", "webhook_url must name a host, not an IP address."],
    ["https://localhost:8443/", "webhook_url host 'localhost' is localhost."],
    ["https://internal.example/", "webhook_url host 'internal.example' resolves to a private address (10.1.2.3)."],
    ["https://mixed.example/", "webhook_url host 'mixed.example' resolves to a cloud metadata address (fd00:ec2::254)."],
    ["https://metadata.example/", "webhook_url host 'metadata.example' resolves to a cloud metadata address (169.254.169.254)."],
    ["https://nowhere.example/", "webhook_url host 'nowhere.example' could not be resolved."],
    ["not a url", "webhook_url is not a valid URL."],
  ])("refuses %s", async (url, message) => {
    expect(await refusal(policy().check(url))).toBe(message);
  });

  it("takes a host the operator allowlists as it is, over http too (a receiver on the loopback); no other", async () => {
    const p = policy(["127.0.0.1"]);
    expect(await p.target("http://127.0.0.1:9/hook")).toMatchObject({ addresses: ["127.0.0.1"] });
    expect(await refusal(p.check("http://localhost:9/hook"))).toBe("webhook_url must be an https:// URL.");
    expect(await refusal(p.check("https://127.0.0.2/hook"))).toBe("webhook_url must name a host, not an IP address.");
  });

  it("checks again at each attempt: a name that now resolves to a private address is refused then", async () => {
    const p = policy();
    names.set("rebind.example", ["93.184.216.34"]);
    expect(await p.target("https://rebind.example/")).toMatchObject({ addresses: ["93.184.216.34"] });
    names.set("rebind.example", ["127.0.0.1"]);
    expect(await p.target("https://rebind.example/")).toEqual({ refused: "host 'rebind.example' resolves to a loopback address (127.0.0.1)." });
  });

  it("gives up on a resolver that never answers, within its deadline", async () => {
    const p = new WebhookUrlPolicy({ allowHosts: [], timeoutMs: 50, resolve: () => new Promise(() => undefined) });
    expect(await p.target("https://slow.example/")).toEqual({ refused: "host 'slow.example' could not be resolved." });
  });
});
