import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg } from "../support/orgs.ts";

/**
 * A video job that finishes while NATS is away for longer than a lease lives: its completion waits
 * in a replica's spool, and its credit must stay held the whole time, or the ledger would free it
 * and it could be spent again before the event arrives. Leases here live 1 s, and the ledger frees
 * an expired one 0.3 s after it lapses (LEDGER_USAGE_ARRIVAL_MS).
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack("video_outage", {
    dataPlaneEnv: {
      DATA_PLANE_MEDIA_STATIC_HOSTS: "cdn.test=93.184.216.34",
      DATA_PLANE_LEASE_TTL_MS: "1000",
      DATA_PLANE_PUBLISH_TIMEOUT_MS: "200",
      DATA_PLANE_VIDEO_POLL_STALE_MS: "0",
      DATA_PLANE_VIDEO_RECONCILE_MS: "100",
      DATA_PLANE_VIDEO_STALE_MS: "200",
      DATA_PLANE_VIDEO_CLAIM_MS: "2000",
    },
    ledgerEnv: { LEDGER_USAGE_ARRIVAL_MS: "300", LEDGER_SWEEP_INTERVAL_MS: "50", LEDGER_SETTLE_SKEW_MS: "0" },
  });
});
afterAll(async () => {
  await stack?.stop();
});

it("keeps a finished job's hold through a NATS outage longer than a lease lives, then bills it once", async () => {
  const o = await createOrg(stack, { balanceMinor: 10_000_000, models: ["gw-video-i2v"] });
  const headers = { authorization: `Bearer ${o.secret}`, "content-type": "application/json" };
  const created = await eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl()}/video/generations`, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: "gw-video-i2v", imageUrl: "https://cdn.test/a.png", prompt: "[[fake:video_ms=300]]", duration: 5 }),
      });
      return r.status === 200 ? ((await r.json()) as { id: string }) : undefined;
    },
    15_000,
    "the job created",
  );
  const cost = 5 * 100_000;
  const openLeases = async () => (await stack.ledgerClient.ListHolds({ org_id: o.orgId })).leases.filter((l) => l.status === "open");
  await stack.stopNats();
  try {
    await eventually(
      async () => {
        const r = await fetch(`${stack.baseUrl()}/video/generations/${created.id}`, { headers });
        return ((await r.json()) as { status: string }).status === "completed" ? true : undefined;
      },
      15_000,
      "the job completed",
    );
    // Four lease lifetimes with the event only in the spool: the credit stays held, nothing applied.
    for (let i = 0; i < 8; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const c = await stack.ledgerClient.GetCredits({ org_id: o.orgId });
      expect(c.held_minor, `held after ${(i + 1) * 0.5} s`).toBeGreaterThanOrEqual(cost);
      expect(c.spent_minor).toBe(0);
    }
  } finally {
    await stack.startNats();
  }
  // From NATS's return until the charge lands, the job's credit is never free: held, or spent.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const c = await stack.ledgerClient.GetCredits({ org_id: o.orgId });
    expect(c.held_minor + c.spent_minor, "the job's credit held or spent").toBeGreaterThanOrEqual(cost);
    if (c.spent_minor === cost && (await openLeases()).length === 0) break;
    expect(Date.now(), "billed and the hold settled after NATS returned").toBeLessThan(deadline);
    await new Promise((r) => setTimeout(r, 20));
  }
  const credits = await stack.ledgerClient.GetCredits({ org_id: o.orgId });
  expect(credits).toMatchObject({ balance_minor: 10_000_000 - cost, spent_minor: cost, held_minor: 0 });
});
