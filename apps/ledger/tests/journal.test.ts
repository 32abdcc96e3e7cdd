import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstream } from "@nats-io/jetstream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LEDGER_JOURNAL_SUBJECT, LedgerJournalV1, USAGE_SUBJECT, decodeEvent, encodeEvent, type UsageEventV1 } from "@gateway/events";
import { createClient, ledgerService, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { eventually, freePort, startNats, type NatsHandle } from "@gateway/testing";
import { sql } from "@gateway/db";
import { createLedger, loadConfig, type Ledger } from "../src/index.js";
import { migratedDatabase } from "./support.js";

const TOKEN = "journal-test-admin-token";
let nats: NatsHandle;
let ledger: Ledger;
let client: TypedClient<LedgerServiceMethods>;
let nc: NatsConnection;
const seen: LedgerJournalV1[] = [];

beforeAll(async () => {
  const db = await migratedDatabase("ledger_journal");
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
    }),
  );
  await ledger.start();
  client = createClient(ledgerService(), `127.0.0.1:${port}`, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${TOKEN}` } });
  nc = await connect({ servers: nats.url });
  nc.subscribe(LEDGER_JOURNAL_SUBJECT, {
    callback: (_e, m) => {
      const ev = decodeEvent(LedgerJournalV1, m.data);
      if (ev) seen.push(ev);
    },
  });
});
afterAll(async () => {
  client?.close();
  await nc?.close();
  await ledger?.stop();
  await nats?.stop();
});

it("publishes every journal transaction once, balanced, for the billing team", async () => {
  const top = await client.TopUp({ org_id: "org_j", amount_minor: 1_000, idempotency_key: "j-1" });
  const ev: UsageEventV1 = {
    version: 1,
    request_id: "req_journal_1",
    org_id: "org_j",
    key_id: "key_j",
    model: "m",
    route: "chat",
    provider: "p",
    upstream_model: "u",
    lease_id: "",
    usage: { input_tokens: 1, output_tokens: 1, cached_input_tokens: 0, estimated: false },
    input_price_minor_per_mtok: 1,
    output_price_minor_per_mtok: 1,
    cost_minor: 40,
    line_items: [],
    guardrails: [],
    attempts: [],
    stream: false,
    status: 200,
    created_at_ms: Date.now(),
    duration_ms: 1,
  };
  await jetstream(nc).publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id });
  const record = await client.GetUsage({ request_id: ev.request_id, org_id: "org_j", wait_ms: 3_000 });
  expect(record.cost_minor).toBe(40);
  // Usage is journaled per applied batch (a posting); each usage record names its posting.
  const posting = (await sql<{ journal_txn_id: string }>`SELECT journal_txn_id FROM usage_records WHERE request_id = ${ev.request_id}`.execute(ledger.db)).rows[0]!.journal_txn_id;
  expect(posting).toMatch(/^post_/);
  await eventually(() => (seen.some((j) => j.txn_id === posting) && seen.some((j) => j.txn_id === top.top_up_id) ? true : undefined), 15_000, "journal published");
  const topUp = seen.find((j) => j.txn_id === top.top_up_id)!;
  const usage = seen.find((j) => j.txn_id === posting)!;
  expect(topUp).toMatchObject({
    kind: "top_up",
    entries: [
      { account: "system:funding", amount_minor: -1_000 },
      { account: "org:org_j", amount_minor: 1_000 },
    ],
  });
  expect(usage).toMatchObject({
    kind: "usage",
    entries: [
      { account: "org:org_j", amount_minor: -40 },
      { account: "system:revenue", amount_minor: 40 },
    ],
  });
  for (const j of seen) expect(j.entries.reduce((s, e) => s + e.amount_minor, 0)).toBe(0);
  // Published once: a later pass finds nothing new.
  await new Promise((r) => setTimeout(r, 1_200));
  expect(seen.filter((j) => j.txn_id === posting)).toHaveLength(1);
});
