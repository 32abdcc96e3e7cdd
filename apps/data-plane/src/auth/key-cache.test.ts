import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import type { KeyContext } from "@gateway/proto";
import { KeyCache } from "./key-cache.js";

const key = (id: string, org = "org_1"): KeyContext => ({
  key_id: id,
  key_budget: null,
  project_id: "",
  project_budget: null,
  key_tags: [],
  org_time_zone: "",
  org_budget: null,
  end_user_source: "",
  end_user_budget: null,
  end_user_overrides: {},
  alert_thresholds_pct: [],
  balance_alerts_minor: [],
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
  org_mcp_servers: [],
  mcp_tool_allowlist: [],
  org_output_limit: "",
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

describe("a change event during a lookup", () => {
  /** A lookup answered by hand: the control-plane's answer arrives when the test says so. */
  function manual() {
    const answers: Array<(k: KeyContext | undefined) => void> = [];
    const cache = new KeyCache((_h) => new Promise<KeyContext | undefined>((resolve) => answers.push(resolve)), { ttlMs: 30_000, maxStaleMs: 1_000, negativeTtlMs: 10, maxEntries: 10 });
    return { cache, answers };
  }

  it("a revocation that arrives while the key is being looked up is not undone by the lookup's older answer", async () => {
    const { cache, answers } = manual();
    const first = cache.get("h1");
    // The revocation event is handled while the lookup is in flight ...
    cache.evictKeyId("key_1");
    // ... and the lookup's answer, read before the revocation, says the key is fine.
    answers[0]!(key("key_1"));
    await Promise.resolve();
    // It is not cached: the request asks again and gets the answer after the revocation.
    expect(answers).toHaveLength(2);
    answers[1]!(undefined);
    expect(await first).toBeUndefined();
    expect(cache.fresh("h1")).toEqual({ key: undefined, freshUntil: expect.any(Number), staleUntil: expect.any(Number) });
  });

  it("an answer overtaken twice serves that request only and is never cached", async () => {
    const { cache, answers } = manual();
    const first = cache.get("h1");
    cache.evictOrg("org_1");
    answers[0]!(key("key_1"));
    await Promise.resolve();
    cache.evictHash("h1");
    answers[1]!(key("key_1"));
    expect(await first).toEqual(key("key_1"));
    expect(cache.fresh("h1")).toBeUndefined();
    // The next request looks the key up again.
    const next = cache.get("h1");
    expect(answers).toHaveLength(3);
    answers[2]!(undefined);
    expect(await next).toBeUndefined();
  });

  it("a lookup with no event in between is cached as before", async () => {
    const { cache, answers } = manual();
    const first = cache.get("h1");
    answers[0]!(key("key_1"));
    expect(await first).toEqual(key("key_1"));
    expect(await cache.get("h1")).toEqual(key("key_1"));
    expect(answers).toHaveLength(1);
  });
});
