import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { STORE_BYTES_PER_REFUSAL, STORE_BYTES_PER_REQUEST, STORE_USABLE_FRACTION, TRAFFIC_HEADROOM, sizeStreams } from "./stream-sizing.js";

const GIB = 1024 ** 3;
const HOUR_MS = 3_600_000;
const base = { LEDGER_DATABASE_URL: "postgres://db/ledger", LEDGER_ADMIN_TOKEN: "0123456789abcdef" };

describe("the streams sized from the replay windows, the stated traffic and the node's store", () => {
  it("shares the usable store between the two streams in proportion to what their windows need", () => {
    const s = { storeBytes: 150 * GIB, reservedBytes: 2 * GIB, requestsPerSecond: 1_000, usageReplayMs: 24 * HOUR_MS, ledgerReplayMs: 72 * HOUR_MS };
    const { sizes } = sizeStreams(s);
    expect(sizes).toBeDefined();
    const usable = 150 * GIB * STORE_USABLE_FRACTION - 2 * GIB;
    // Both limits together are the usable store; each stream's window fits 1.25x the stated traffic.
    expect(sizes!.usage.maxBytes + sizes!.ledger.maxBytes).toBeGreaterThan(usable - 2);
    expect(sizes!.usage.maxBytes + sizes!.ledger.maxBytes).toBeLessThanOrEqual(usable);
    expect(sizes!.usage.maxBytes).toBeGreaterThanOrEqual(24 * 3600 * 1_000 * STORE_BYTES_PER_REQUEST.usage * TRAFFIC_HEADROOM);
    expect(sizes!.ledger.maxBytes).toBeGreaterThanOrEqual(72 * 3600 * 1_000 * STORE_BYTES_PER_REQUEST.ledger * TRAFFIC_HEADROOM);
    expect(sizes!.usage).toMatchObject({ maxAgeNs: 24 * 3600 * 1e9, windowSeconds: 24 * 3600 });
  });

  it("refuses windows that cannot fit, saying what they need, what the store gives and what would do", () => {
    const r = sizeStreams({ storeBytes: 20 * GIB, reservedBytes: 2 * GIB, requestsPerSecond: 100, refusalsPerSecond: 0, usageReplayMs: 168 * HOUR_MS, ledgerReplayMs: 168 * HOUR_MS });
    expect(r.sizes).toBeUndefined();
    const text = r.problems.join("\n");
    // 7 days at 100/s: 604,800 s x 100 x 1,100 B x 1.25 = 77.4 GiB for USAGE, 2.3 GiB for LEDGER.
    expect(text).toContain("need 77.4 GiB + 2.3 GiB");
    expect(text).toContain("is 20.0 GiB");
    expect(text).toContain("leaves 16.0 GiB");
    // (16 GiB - 2.3 GiB) / (3,600 x 100 x 1,375 B) = 29.8 h; (79.7 + 2 GiB) / 0.9 = 90.8 GiB.
    expect(text).toContain("shorten LEDGER_USAGE_REPLAY_WINDOW to 29h at most");
    expect(text).toContain("a store (max_file_store and its volume) of 91 GiB or more");
    // A store smaller than what is reserved on it fits nothing.
    const none = sizeStreams({ storeBytes: GIB, reservedBytes: 2 * GIB, requestsPerSecond: 1, usageReplayMs: HOUR_MS, ledgerReplayMs: HOUR_MS });
    expect(none.problems.join("\n")).toContain("leaves 0.0 MiB");
  });

  it("makes room in USAGE for the refusal records: the stated ones, or a tenth of the requests", () => {
    const s = { storeBytes: 150 * GIB, reservedBytes: 2 * GIB, requestsPerSecond: 100, usageReplayMs: 24 * HOUR_MS, ledgerReplayMs: 24 * HOUR_MS };
    const share = (refusalsPerSecond?: number) => {
      const { sizes } = sizeStreams(refusalsPerSecond === undefined ? s : { ...s, refusalsPerSecond });
      return sizes!.usage.maxBytes / (sizes!.usage.maxBytes + sizes!.ledger.maxBytes);
    };
    // USAGE's share is its need over both: (100 x 1,100 + r x 700) / (that + 100 x 32).
    const expected = (r: number) =>
      (100 * STORE_BYTES_PER_REQUEST.usage + r * STORE_BYTES_PER_REFUSAL) / (100 * STORE_BYTES_PER_REQUEST.usage + r * STORE_BYTES_PER_REFUSAL + 100 * STORE_BYTES_PER_REQUEST.ledger);
    expect(share(0)).toBeCloseTo(expected(0), 6);
    expect(share()).toBeCloseTo(expected(10), 6);
    expect(share(500)).toBeCloseTo(expected(500), 6);
    // 20 keys at the default cap of 10 a second, on a window of a day, beside 1,000 requests/s: 14.1 GiB beside 110.6 GiB.
    const r = sizeStreams({ storeBytes: 20 * GIB, reservedBytes: 2 * GIB, requestsPerSecond: 1_000, refusalsPerSecond: 200, usageReplayMs: 24 * HOUR_MS, ledgerReplayMs: HOUR_MS });
    expect(r.problems.join("\n")).toContain("USAGE also 200 refusal records/s (LEDGER_STATED_REFUSALS_PER_SECOND) at 700 bytes");
  });

  it("is checked when the configuration is read: the ledger does not start with a window that cannot fit", () => {
    expect(loadConfig(base).streams.usage).toMatchObject({ windowSeconds: 72 * 3600 });
    expect(loadConfig(base).streams.ledger).toMatchObject({ windowSeconds: 72 * 3600 });
    expect(() => loadConfig({ ...base, LEDGER_USAGE_REPLAY_WINDOW: "30d", LEDGER_STATED_REQUESTS_PER_SECOND: "1000" })).toThrow(/LEDGER_USAGE_REPLAY_WINDOW/);
    const sized = loadConfig({ ...base, LEDGER_NATS_STORE_BYTES: "150Gi", LEDGER_STATED_REQUESTS_PER_SECOND: "1000", LEDGER_USAGE_REPLAY_WINDOW: "24h" });
    expect(sized.streams.usage.maxBytes).toBeGreaterThan(100 * GIB);
    expect(() => loadConfig({ ...base, LEDGER_USAGE_REPLAY_WINDOW: "72" })).toThrow(
      'LEDGER_USAGE_REPLAY_WINDOW: a duration in whole minutes, hours or days (90m, 72h, 7d) of at least 2 minutes, not "72"',
    );
    expect(() => loadConfig({ ...base, LEDGER_NATS_STORE_BYTES: "20GB" })).toThrow(/LEDGER_NATS_STORE_BYTES: a size in bytes/);
    expect(() => loadConfig({ ...base, LEDGER_NATS_MONITOR_URLS: "http://nats-0:8222,nats-1:8222" })).toThrow('"nats-1:8222" is not an http(s)://host:port address');
    expect(loadConfig({ ...base, LEDGER_NATS_MONITOR_URLS: " http://nats-0:8222/ , http://nats-1:8222" }).natsMonitorUrls).toEqual(["http://nats-0:8222", "http://nats-1:8222"]);
  });
});
