import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import { MediaUrlChecker, isForbiddenAddress, parseStaticHosts } from "./media-url.js";

describe("isForbiddenAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["::1", "loopback"],
    ["10.9.8.7", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["169.254.1.1", "link-local"],
    ["fe80::1", "link-local"],
    ["fd00::1", "unique-local"],
    ["fc00::1", "unique-local"],
    ["224.0.0.251", "multicast"],
    ["ff05::2", "multicast"],
    ["169.254.169.254", "cloud-metadata"],
    ["fd00:ec2::254", "cloud-metadata"],
    ["100.100.100.200", "cloud-metadata"],
    ["100.64.0.1", "carrier-grade-nat"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a9fe:a9fe", "cloud-metadata"],
    ["64:ff9b::a00:1", "private"],
    ["2002:c0a8:0101::1", "private"],
    ["255.255.255.255", "broadcast"],
  ])("%s is %s", (ip, kind) => {
    expect(isForbiddenAddress(ip)).toBe(kind);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:93.184.216.34"])("%s is public", (ip) => {
    expect(isForbiddenAddress(ip)).toBeUndefined();
  });
});

describe("MediaUrlChecker", () => {
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GatewayError);
    return err as GatewayError;
  };

  it("gives up on a resolver that never answers, within the deadline", async () => {
    // The resolver never answers: the refusal itself proves the deadline fired.
    const checker = new MediaUrlChecker({ resolve: () => new Promise(() => undefined), timeoutMs: 50 });
    const err = await refusal(checker.check("imageUrl", "https://slow.example/a.png"));
    expect(err.message).toMatch(/could not be resolved/);
  });

  it("checks every resolved address and caches verdict inputs with a bound", async () => {
    let calls = 0;
    const checker = new MediaUrlChecker({ resolve: async () => (calls++, ["93.184.216.34", "fd12::1"]), cacheSize: 1 });
    const err = await refusal(checker.check("refVideoUrl", "https://cdn.example/v.mp4"));
    expect(err.context.param).toBe("refVideoUrl");
    expect(err.message).toMatch(/a unique-local address \(fd12::1\)/);
    await refusal(checker.check("refVideoUrl", "https://cdn.example/v.mp4"));
    expect(calls).toBe(1);
  });

  it("returns the normalized URL of a public host", async () => {
    const checker = new MediaUrlChecker({ staticHosts: parseStaticHosts("cdn.example=93.184.216.34") });
    expect(await checker.check("imageUrl", "https://CDN.example/a b.png")).toBe("https://cdn.example/a%20b.png");
  });

  it("rejects malformed static host maps by entry", () => {
    expect(() => parseStaticHosts("ok.test=1.2.3.4;bad.test=not-an-ip")).toThrow(/bad.test=not-an-ip/);
  });
});
