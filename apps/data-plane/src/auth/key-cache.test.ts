import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import type { KeyContext } from "@gateway/proto";
import { KeyCache } from "./key-cache.js";

const key = (id: string, org = "org_1"): KeyContext => ({
  key_id: id,
  org_id: org,
  org_name: "o",
  revoked: false,
  routes: [],
  model_allowlist: [],
  org_enabled_models: [],
  org_in_trial: false,
  rpm_limit: 0,
  tpm_limit: 0,
  monthly_budget_minor: 0,
  display_prefix: "sk-gateway-x",
  guardrails_json: "",
  guardrails_version: 0,
});

function setup(opts: Partial<{ ttlMs: number; maxStaleMs: number; negativeTtlMs: number; maxEntries: number }> = {}) {
  let t = 1_000;
  const calls: string[] = [];
  let down = false;
  const known = new Map<string, KeyContext>([
    ["h1", key("key_1")],
    ["h2", key("key_2", "org_2")],
  ]);
  const cache = new KeyCache(
    async (h) => {
      calls.push(h);
      if (down) throw new GatewayError("service_unavailable", "control-plane down");
      return known.get(h);
    },
    { ttlMs: 100, maxStaleMs: 1_000, negativeTtlMs: 10, maxEntries: 10, ...opts, now: () => t },
  );
  return { cache, calls, advance: (ms: number) => (t += ms), setDown: (v: boolean) => (down = v), known };
}

describe("KeyCache", () => {
  it("serves a fresh entry without asking again and shares concurrent misses", async () => {
    const s = setup();
    const [a, b] = await Promise.all([s.cache.get("h1"), s.cache.get("h1")]);
    expect(a?.key_id).toBe("key_1");
    expect(b?.key_id).toBe("key_1");
    await s.cache.get("h1");
    expect(s.calls).toEqual(["h1"]);
  });

  it("keeps a known key working while the control-plane is down, up to the staleness bound", async () => {
    const s = setup();
    await s.cache.get("h1");
    s.setDown(true);
    s.advance(500);
    expect((await s.cache.get("h1"))?.key_id).toBe("key_1");
    s.advance(700);
    await expect(s.cache.get("h1")).rejects.toMatchObject({ code: "service_unavailable" });
  });

  it("fails closed for an unknown key while the control-plane is down", async () => {
    const s = setup();
    expect(await s.cache.get("nope")).toBeUndefined();
    s.setDown(true);
    s.advance(20);
    await expect(s.cache.get("nope")).rejects.toMatchObject({ code: "service_unavailable" });
  });

  it("evicts by hash and by org so a revoked key is looked up again", async () => {
    const s = setup();
    await s.cache.get("h1");
    await s.cache.get("h2");
    s.cache.evictHash("h1");
    s.cache.evictOrg("org_2");
    await s.cache.get("h1");
    await s.cache.get("h2");
    expect(s.calls).toEqual(["h1", "h2", "h1", "h2"]);
  });

  it("stays within its entry bound", async () => {
    const s = setup({ maxEntries: 3 });
    for (let i = 0; i < 10; i++) await s.cache.get(`x${i}`);
    expect(s.cache.size).toBe(3);
  });

  it("drops entries past their stale bound once they stop being used, well before the entry bound", async () => {
    const s = setup({ maxEntries: 1_000 });
    await s.cache.get("h1");
    for (let i = 0; i < 100; i++) await s.cache.get(`unknown${i}`);
    expect(s.cache.size).toBe(101);
    s.advance(10_000); // past every negative entry's lifetime and the known key's stale bound
    await s.cache.get("h2");
    expect(s.cache.size).toBe(1);
  });
});
