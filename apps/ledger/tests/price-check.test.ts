import { headers } from "@nats-io/transport-node";
import { RetentionPolicy, StorageType, jetstreamManager } from "@nats-io/jetstream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { CATALOG_STREAM, CATALOG_STREAM_SUBJECTS, USAGE_SIGNATURE_HEADER, USAGE_SUBJECT, catalogPricesSubject, encodeEvent, signUsage, usageKey, type UsageEventV1 } from "@gateway/events";
import type { PriceSheet } from "@gateway/pricing";
import { eventually } from "@gateway/testing";
import { bookViolations, startLedgerFixture, usageEvent, type LedgerFixture } from "./support.js";

/**
 * The ledger recomputes what each charged usage event costs from its counts and the prices of the
 * catalog version it names (docs/security.md, "Usage events"): an event signed with the data-plane's
 * key (leaked, or a data-plane's bug) that claims another cost, names a model or a version the
 * catalog never had, or no version, bills nothing and is set aside. Every price and cost below is
 * written out, not computed by the code under test.
 */
const SIGNING_KEY = "price-check-usage-signing-key-0123456789";
const key = usageKey(SIGNING_KEY);
let f: LedgerFixture;
let leaseId: string;
const ORG = `org_prices_${process.pid}`;

const SHEET: PriceSheet = {
  version: 7,
  models: {
    "gw-chat": {
      input_price_minor_per_mtok: 2_000_000,
      output_price_minor_per_mtok: 8_000_000,
      cached_input_price_minor_per_mtok: 500_000,
      image_prices: [],
      default_image_size: "",
      video_prices: [],
    },
    "gw-image": {
      input_price_minor_per_mtok: 0,
      output_price_minor_per_mtok: 0,
      image_prices: [
        { size: "1024x1024", quality: "standard", price_minor: 40_000 },
        { size: "*", quality: "hd", price_minor: 80_000 },
      ],
      default_image_size: "1024x1024",
      video_prices: [],
    },
    "gw-video": {
      input_price_minor_per_mtok: 0,
      output_price_minor_per_mtok: 0,
      image_prices: [],
      default_image_size: "",
      video_prices: [{ resolution: "720p", price_minor_per_second: 100_000, audio_price_minor_per_second: 50_000 }],
    },
  },
  tools: { "search/web": 1_000 },
};

/** 600 uncached prompt tokens at 2.0, 400 cached at 0.5 and 500 completion tokens at 8.0 per million: 5,400 minor. */
const chat = (cost: number, over: Partial<UsageEventV1> = {}) =>
  usageEvent(ORG, leaseId, cost, {
    model: "gw-chat",
    catalog_version: 7,
    usage: { input_tokens: 1_000, output_tokens: 500, cached_input_tokens: 400, estimated: false },
    line_items: [
      { item: "input_tokens", quantity: 600, unit_price_minor: 2_000_000, per: "1M tokens" },
      { item: "cached_input_tokens", quantity: 400, unit_price_minor: 500_000, per: "1M tokens" },
      { item: "output_tokens", quantity: 500, unit_price_minor: 8_000_000, per: "1M tokens" },
    ],
    ...over,
  });
const media = (model: string, cost: number, item: UsageEventV1["line_items"][number], route = "images") =>
  usageEvent(ORG, leaseId, cost, { model, route, catalog_version: 7, usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, estimated: false }, line_items: [item] });

async function publishSigned(ev: UsageEventV1): Promise<void> {
  const data = encodeEvent(ev);
  const h = headers();
  h.set(USAGE_SIGNATURE_HEADER, signUsage(key, data));
  await f.js.publish(USAGE_SUBJECT, data, { msgID: ev.request_id, headers: h });
}

/** What became of an event: "applied" with its billed cost, or its dead letter's reason and error. */
async function fate(ev: UsageEventV1): Promise<{ applied: number } | { reason: string; error: string }> {
  return eventually(
    async () => {
      const rec = await sql<{ cost_minor: string }>`SELECT cost_minor FROM usage_records WHERE request_id = ${ev.request_id}`.execute(f.ledger.db);
      if (rec.rows[0]) return { applied: Number(rec.rows[0].cost_minor) };
      const dead = await sql<{ reason: string; error: string }>`SELECT reason, error FROM dead_letters WHERE request_id = ${ev.request_id}`.execute(f.ledger.db);
      return dead.rows[0];
    },
    10_000,
    `the fate of ${ev.request_id}`,
  );
}

beforeAll(async () => {
  f = await startLedgerFixture("ledger_price_check", { LEDGER_USAGE_SIGNING_KEYS: SIGNING_KEY });
  // What the control-plane does for each catalog version (apps/control-plane/src/catalog/price-sheets.ts).
  const jsm = await jetstreamManager(f.nc);
  await jsm.streams.add({ name: CATALOG_STREAM, subjects: CATALOG_STREAM_SUBJECTS, storage: StorageType.File, retention: RetentionPolicy.Limits, max_msgs_per_subject: 1 });
  await f.js.publish(catalogPricesSubject(7), JSON.stringify(SHEET));
  await f.client.TopUp({ org_id: ORG, amount_minor: 10_000_000, idempotency_key: `top-${ORG}` });
  leaseId = (await f.client.AcquireLease({ org_id: ORG, lease_id: "", holder: "prices", amount_minor: 1_000_000, min_amount_minor: 1_000_000, ttl_ms: 60_000 })).lease_id;
}, 60_000);

afterAll(async () => {
  await f?.stop();
});

describe("the ledger's cost check", () => {
  it("bills what the counts cost at the named catalog version, and sets aside every other claim", async () => {
    const cases: [UsageEventV1, Awaited<ReturnType<typeof fate>>][] = [
      [chat(5_400), { applied: 5_400 }],
      // The same counts claiming ten times the cost (or the stated unit prices raised to match it).
      [chat(54_000), { reason: "mispriced", error: "the event says 54000; its counts cost 5400 at catalog version 7" }],
      [
        chat(54_000, {
          line_items: [
            { item: "input_tokens", quantity: 600, unit_price_minor: 20_000_000, per: "1M tokens" },
            { item: "cached_input_tokens", quantity: 400, unit_price_minor: 5_000_000, per: "1M tokens" },
            { item: "output_tokens", quantity: 500, unit_price_minor: 80_000_000, per: "1M tokens" },
          ],
        }),
        { reason: "mispriced", error: "the event says 54000; its counts cost 5400 at catalog version 7" },
      ],
      [chat(5_400, { model: "gw-never" }), { reason: "mispriced", error: "catalog version 7 has no model 'gw-never'" }],
      [chat(5_400, { catalog_version: 8 }), { reason: "unpriced", error: "no price sheet was ever published for catalog version 8" }],
      [chat(5_400, { catalog_version: undefined }), { reason: "unpriced", error: "the event names no catalog version" }],
      [chat(5_400, { line_items: [{ item: "bonus", quantity: 1, unit_price_minor: 5_400, per: "request" }] }), { reason: "mispriced", error: "an unknown line item 'bonus'" }],
      // Two standard images of the default size at 40,000; two hd ones at 80,000 claimed at the standard price.
      [media("gw-image", 80_000, { item: "images", quantity: 2, unit_price_minor: 40_000, per: "image", attributes: { size: "default", quality: "standard" } }), { applied: 80_000 }],
      [
        media("gw-image", 80_000, { item: "images", quantity: 2, unit_price_minor: 40_000, per: "image", attributes: { size: "512x512", quality: "hd" } }),
        { reason: "mispriced", error: "the event says 80000; its counts cost 160000 at catalog version 7" },
      ],
      // Five seconds of 720p with audio at 150,000 a second.
      [media("gw-video", 750_000, { item: "video_seconds", quantity: 5, unit_price_minor: 150_000, per: "second", attributes: { resolution: "720p", audio: "true" } }, "video"), { applied: 750_000 }],
      [
        media("gw-video", 750_000, { item: "video_seconds", quantity: 5, unit_price_minor: 150_000, per: "second", attributes: { resolution: "1080p", audio: "true" } }, "video"),
        { reason: "mispriced", error: "catalog version 7 prices no such video_seconds for 'gw-video'" },
      ],
      [media("search/web", 1_000, { item: "tool_call", quantity: 1, unit_price_minor: 1_000, per: "call" }, "mcp"), { applied: 1_000 }],
      [
        media("search/web", 9_000, { item: "tool_call", quantity: 1, unit_price_minor: 9_000, per: "call" }, "mcp"),
        { reason: "mispriced", error: "the event says 9000; its counts cost 1000 at catalog version 7" },
      ],
    ];
    for (const [ev] of cases) await publishSigned(ev);
    for (const [ev, expected] of cases) expect(await fate(ev), ev.request_id).toEqual(expected);
    // Only the four genuine events were billed.
    expect(await f.client.GetCredits({ org_id: ORG })).toMatchObject({ spent_minor: 5_400 + 80_000 + 750_000 + 1_000 });
    expect(await bookViolations(f.ledger.db)).toEqual([]);
    // The sheet is the ledger's now: it checks later events against it even if NATS loses it.
    const kept = await sql<{ sheet: PriceSheet }>`SELECT sheet FROM catalog_prices WHERE version = 7`.execute(f.ledger.db);
    expect(kept.rows[0]?.sheet).toEqual(SHEET);
  });

  it("counts a free event's record without a price check (it moves no credit)", async () => {
    const free = chat(0, { catalog_version: undefined, line_items: [] });
    await publishSigned(free);
    expect(await fate(free)).toEqual({ applied: 0 });
  });
});
