import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import { createLogger } from "@gateway/observability";
import type { VideoJob } from "@gateway/proto";
import { eachBounded, HOLD_MAX_PAGES, HOLD_PAGE, HoldRenewal, type HoldRenewalDeps } from "./holds.js";

const log = createLogger({ service: "test", level: "silent" });
const job = (i: number): VideoJob => ({ id: `vid_${i}`, org_id: "org_1", lease_id: `lease_${i}` }) as VideoJob;

/** The control-plane's due list: each job handed out once (its next due time is a period away). */
function dueList(count: number): HoldRenewalDeps["due"] {
  const jobs = Array.from({ length: count }, (_, i) => job(i));
  return async (limit) => jobs.splice(0, limit);
}

function renewal(over: Partial<HoldRenewalDeps>): { r: HoldRenewal; counted: string[] } {
  const counted: string[] = [];
  const r = new HoldRenewal({
    log,
    renewEveryMs: 1_000,
    concurrency: 8,
    due: dueList(0),
    renew: async () => "renewed",
    lapsed: async () => "lapsed",
    count: (result) => void counted.push(result),
    ...over,
  });
  return { r, counted };
}

describe("video hold renewal", () => {
  it("renews 300 due holds in one pass whatever their status refreshes do, at most `concurrency` at the ledger at once", async () => {
    let inFlight = 0;
    let most = 0;
    const renewed = new Set<string>();
    const { r } = renewal({
      due: dueList(300),
      renew: async (j) => {
        most = Math.max(most, ++inFlight);
        await new Promise((res) => setTimeout(res, 2));
        inFlight--;
        renewed.add(j.lease_id);
        return "renewed";
      },
    });
    expect(await r.run()).toEqual({ renewed: 300, lapsed: 0, released: 0, failed: 0 });
    expect(renewed.size).toBe(300);
    expect(most).toBe(8);
  });

  it("a renewal the ledger did not answer is not a lapse: nothing is stopped or held again, and it is due again next period", async () => {
    const lapsed: string[] = [];
    const { r, counted } = renewal({
      due: dueList(3),
      renew: async (j) => {
        if (j.id === "vid_1") throw new GatewayError("service_unavailable", "ledger away");
        return "renewed";
      },
      lapsed: async (j) => {
        lapsed.push(j.id);
        return "lapsed";
      },
    });
    expect(await r.run()).toEqual({ renewed: 2, lapsed: 0, released: 0, failed: 1 });
    expect(lapsed).toEqual([]);
    expect(counted.sort()).toEqual(["failed", "renewed", "renewed"]);
  });

  it("a lease the ledger no longer holds goes to `lapsed` (hold again or stop the job); one that cannot be handled does not stop the others", async () => {
    const lapsed: string[] = [];
    const { r, counted } = renewal({
      due: dueList(5),
      renew: async (j) => (j.id === "vid_1" ? "renewed" : "gone"),
      lapsed: async (j) => {
        lapsed.push(j.id);
        if (j.id === "vid_0") throw new GatewayError("service_unavailable", "control-plane away");
        // vid_4 was settled meanwhile: its lease went with it, nothing to do.
        return j.id === "vid_4" ? "released" : "lapsed";
      },
    });
    expect(await r.run()).toEqual({ renewed: 1, lapsed: 3, released: 1, failed: 0 });
    expect(lapsed.sort()).toEqual(["vid_0", "vid_2", "vid_3", "vid_4"]);
    expect(counted.filter((c) => c === "released")).toHaveLength(1);
  });

  it("a pass is bounded: it takes at most HOLD_MAX_PAGES pages, the rest stays due for the next pass", async () => {
    const due = dueList(HOLD_PAGE * HOLD_MAX_PAGES + 5);
    const { r } = renewal({ due });
    expect((await r.run()).renewed).toBe(HOLD_PAGE * HOLD_MAX_PAGES);
    expect((await r.run()).renewed).toBe(5);
  });

  it("a control-plane that does not answer ends the pass quietly", async () => {
    const { r } = renewal({
      due: async () => {
        throw new GatewayError("service_unavailable", "control-plane away");
      },
    });
    expect(await r.run()).toEqual({ renewed: 0, lapsed: 0, released: 0, failed: 0 });
    // Meanwhile the refreshes renew the holds they touch (a control-plane without ClaimVideoHolds).
    expect(r.reading).toBe(false);
  });

  it("runs on its own timer, several looks per period, and stops", async () => {
    let passes = 0;
    const { r } = renewal({
      renewEveryMs: 100,
      due: async () => {
        passes++;
        return [];
      },
    });
    r.start();
    const until = Date.now() + 5_000;
    while (passes < 3 && Date.now() < until) await new Promise((res) => setTimeout(res, 10));
    await r.stop();
    expect(passes).toBeGreaterThanOrEqual(3);
    const after = passes;
    await new Promise((res) => setTimeout(res, 100));
    expect(passes).toBe(after);
  });
});

describe("eachBounded", () => {
  it("visits every item once with at most `limit` in flight", async () => {
    const seen: number[] = [];
    let inFlight = 0;
    let most = 0;
    await eachBounded([1, 2, 3, 4, 5, 6, 7], 3, async (i) => {
      most = Math.max(most, ++inFlight);
      await new Promise((res) => setTimeout(res, 1));
      inFlight--;
      seen.push(i);
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
    await eachBounded([], 3, async () => undefined);
  });
});
