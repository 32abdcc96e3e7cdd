import { afterAll, beforeAll, expect, it } from "vitest";
import { createClient, ledgerService, type LedgerServiceMethods, type TypedClient, type UsagePage } from "@gateway/proto";
import { freePort, startNats, type NatsHandle } from "@gateway/testing";
import { sql } from "@gateway/db";
import { createLedger, loadConfig, type Ledger } from "../src/index.js";
import { migratedDatabase } from "./support.js";

const TOKEN = "export-test-admin-token";
const PAGE = 10;
let nats: NatsHandle;
let ledger: Ledger;
let client: TypedClient<LedgerServiceMethods>;
const T0 = Date.UTC(2026, 0, 1);

beforeAll(async () => {
  const db = await migratedDatabase("ledger_export");
  nats = await startNats();
  const port = await freePort();
  ledger = createLedger(
    loadConfig({
      LEDGER_DATABASE_URL: db,
      LEDGER_MIGRATE_ON_START: "true",
      LEDGER_NATS_URL: nats.url,
      LEDGER_GRPC_PORT: String(port),
      LEDGER_OPS_PORT: "0",
      LEDGER_ADMIN_TOKEN: TOKEN,
      LEDGER_LOG_LEVEL: "silent",
      LEDGER_EXPORT_PAGE_ROWS: String(PAGE),
    }),
  );
  await ledger.start();
  client = createClient(ledgerService(), `127.0.0.1:${port}`, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${TOKEN}` } });
  // 95 records one millisecond apart from T0, of org_x; a few of org_y at the same instants.
  for (const [org, n] of [
    ["org_x", 95],
    ["org_y", 7],
  ] as const) {
    await sql`
      INSERT INTO usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens, output_tokens,
        cached_input_tokens, estimated, cost_minor, input_price_minor_per_mtok, output_price_minor_per_mtok, stream, status, duration_ms, line_items, created_at, journal_txn_id)
      SELECT 'req_' || ${org} || '_' || lpad(i::text, 3, '0'), ${org}, 'key_1', 'm', 'chat', 'p', 'u', '', 1, 1, 0, false, i, 1, 1, false, 200, 5,
        jsonb_build_array(jsonb_build_object('item', 'input_tokens', 'quantity', 1, 'unit_price_minor', 1, 'per', '1M tokens')),
        to_timestamp((${T0}::bigint + i) / 1000.0), 'post_1'
      FROM generate_series(0, ${n - 1}) AS i`.execute(ledger.db);
  }
});
afterAll(async () => {
  client?.close();
  await ledger?.stop();
  await nats?.stop();
});

async function collect(pages: AsyncIterable<UsagePage>): Promise<UsagePage[]> {
  const out: UsagePage[] = [];
  for await (const p of pages) out.push(p);
  return out;
}

it("streams the window [from, to) of one organization in pages of LEDGER_EXPORT_PAGE_ROWS, oldest first", async () => {
  const pages = await collect(client.ExportUsage({ org_id: "org_x", from_ms: T0 + 3, to_ms: T0 + 90 }));
  expect(pages.map((p) => p.records.length)).toEqual([10, 10, 10, 10, 10, 10, 10, 10, 7]);
  const records = pages.flatMap((p) => p.records);
  expect(records.map((r) => r.created_at_ms)).toEqual(Array.from({ length: 87 }, (_, i) => T0 + 3 + i));
  expect(records.every((r) => r.org_id === "org_x" && r.status === 200 && r.duration_ms === 5 && r.journal_txn_id === "post_1" && r.recorded_at_ms > 0)).toBe(true);
  expect(JSON.parse(records[0]!.line_items_json)).toEqual([{ item: "input_tokens", quantity: 1, unit_price_minor: 1, per: "1M tokens" }]);
  // A window holding nothing is an empty stream, not an error.
  expect(await collect(client.ExportUsage({ org_id: "org_x", from_ms: T0 - 10, to_ms: T0 }))).toEqual([]);
});

it("refuses an empty or inverted window", async () => {
  await expect(collect(client.ExportUsage({ org_id: "org_x", from_ms: T0, to_ms: T0 }))).rejects.toMatchObject({ code: "invalid_request" });
  await expect(collect(client.ExportUsage({ org_id: "", from_ms: T0, to_ms: T0 + 1 }))).rejects.toMatchObject({ code: "invalid_request" });
});

it("a reader that stops after one page cancels the call, and the next export is whole", async () => {
  for await (const page of client.ExportUsage({ org_id: "org_x", from_ms: T0, to_ms: T0 + 1_000 })) {
    expect(page.records).toHaveLength(PAGE);
    break;
  }
  const again = (await collect(client.ExportUsage({ org_id: "org_x", from_ms: T0, to_ms: T0 + 1_000 }))).flatMap((p) => p.records);
  expect(again).toHaveLength(95);
});
