import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstream, jetstreamManager, type JetStreamClient } from "@nats-io/jetstream";
import { sql, type Kysely } from "@gateway/db";
import { USAGE_STREAM, type UsageEventV1 } from "@gateway/events";
import { createClient, ledgerService, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { createDatabase, eventually, freePort, startNats, testPgUrl } from "@gateway/testing";
import type { LedgerDb } from "../src/db/schema.js";
import { createLedger, loadConfig, type Ledger } from "../src/index.js";

let seq = 0;

/** A valid usage event; request ids are unique within the process. */
export function usageEvent(orgId: string, leaseId: string, costMinor: number, over: Partial<UsageEventV1> = {}): UsageEventV1 {
  return {
    version: 1,
    request_id: `req_test_${Date.now()}_${seq++}`,
    org_id: orgId,
    key_id: "key_t",
    model: "m",
    route: "chat",
    provider: "p",
    upstream_model: "u",
    lease_id: leaseId,
    usage: { input_tokens: 10, output_tokens: 5, cached_input_tokens: 0, estimated: false },
    input_price_minor_per_mtok: 1,
    output_price_minor_per_mtok: 1,
    cost_minor: costMinor,
    line_items: [],
    guardrails: [],
    attempts: [],
    stream: false,
    status: 200,
    created_at_ms: Date.now(),
    duration_ms: 3,
    ...over,
  };
}

/** Until the ledgers' durable on USAGE has nothing pending or unacknowledged: every message published is applied (or dead-lettered). */
export async function drained(nc: NatsConnection, timeoutMs = 15_000): Promise<void> {
  const jsm = await jetstreamManager(nc);
  await eventually(
    async () => {
      const info = await jsm.consumers.info(USAGE_STREAM, "ledger");
      return info.num_pending === 0 && info.num_ack_pending === 0 ? true : undefined;
    },
    timeoutMs,
    "usage stream drained",
  );
}

/**
 * What the billing team relies on, checked over every account: balance = top-ups − spend,
 * spend = sum of usage records (and, for months dropped by retention, of their hourly rollups),
 * held = what leases still hold, every journal transaction sums to zero, an org's journal sums to
 * its balance, and the hourly rollups (the console's charts) from where the records begin are
 * exactly the usage records summed. Returns the violations (empty when the books hold).
 */
export async function bookViolations(db: Kysely<LedgerDb>): Promise<string[]> {
  const r = await sql<{ problem: string }>`
    SELECT 'balance ' || org_id AS problem FROM accounts WHERE balance_minor <> topped_up_minor - spent_minor
    UNION ALL
    SELECT 'spent ' || a.org_id FROM accounts a
      LEFT JOIN (SELECT org_id, sum(cost_minor) AS s FROM usage_records GROUP BY org_id) u USING (org_id)
      LEFT JOIN (SELECT org_id, sum(cost_minor) AS s FROM usage_rollups, usage_partitioning p WHERE hour < p.retained_from GROUP BY org_id) d USING (org_id)
      WHERE a.spent_minor <> coalesce(u.s, 0) + coalesce(d.s, 0)
    UNION ALL
    SELECT 'held ' || a.org_id FROM accounts a
      LEFT JOIN (SELECT org_id, sum(remaining_minor) AS s FROM leases GROUP BY org_id) l USING (org_id)
      WHERE a.held_minor <> coalesce(l.s, 0)
    UNION ALL
    SELECT 'journal txn ' || txn_id FROM journal_entries GROUP BY txn_id HAVING sum(amount_minor) <> 0
    UNION ALL
    SELECT 'journal org ' || a.org_id FROM accounts a
      LEFT JOIN (SELECT substr(account, 5) AS org_id, sum(amount_minor) AS s FROM journal_entries WHERE account LIKE 'org:%' GROUP BY 1) j USING (org_id)
      WHERE a.balance_minor <> coalesce(j.s, 0)
    UNION ALL
    SELECT 'lease ' || id FROM leases WHERE remaining_minor > granted_minor
    UNION ALL
    SELECT 'rollup ' || coalesce(r.org_id, u.org_id) || ' ' || coalesce(r.hour, u.hour) || ' ' || coalesce(r.key_id, u.key_id) || ' ' || coalesce(r.model, u.model)
    FROM (SELECT r.* FROM usage_rollups r, usage_partitioning p WHERE p.retained_from IS NULL OR r.hour >= p.retained_from) r
    FULL JOIN (
      SELECT org_id, date_trunc('hour', created_at, 'UTC') AS hour, key_id, model, count(*) AS requests, sum(input_tokens) AS input_tokens,
        sum(output_tokens) AS output_tokens, sum(cached_input_tokens) AS cached, sum(cache_creation_input_tokens) AS cache_writes,
        sum(reasoning_tokens) AS reasoning, sum(cost_minor) AS cost, sum(absorbed_minor) AS absorbed
      FROM usage_records GROUP BY 1, 2, 3, 4
    ) u USING (org_id, hour, key_id, model)
    WHERE (r.requests, r.input_tokens, r.output_tokens, r.cached_input_tokens, r.cache_creation_input_tokens, r.reasoning_tokens, r.cost_minor, r.absorbed_minor)
      IS DISTINCT FROM (u.requests, u.input_tokens, u.output_tokens, u.cached, u.cache_writes, u.reasoning, u.cost, u.absorbed)`.execute(db);
  return r.rows.map((row) => row.problem);
}

/** One ledger on a fresh database and its own nats-server, with an admin client and a NATS connection to publish usage on. */
export interface LedgerFixture {
  ledger: Ledger;
  client: TypedClient<LedgerServiceMethods>;
  nc: NatsConnection;
  js: JetStreamClient;
  /** The ledger's environment (another ledger on the same database and stream can start from it). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export const FIXTURE_TOKEN = "ledger-fixture-admin-token";

export async function startLedgerFixture(dbName: string, extraEnv: Record<string, string> = {}): Promise<LedgerFixture> {
  const url = await createDatabase(testPgUrl(), dbName);
  const nats = await startNats();
  const port = await freePort();
  const env = {
    LEDGER_DATABASE_URL: url,
    LEDGER_MIGRATE_ON_START: "true",
    LEDGER_NATS_URL: nats.url,
    LEDGER_GRPC_PORT: String(port),
    LEDGER_OPS_PORT: "0",
    LEDGER_ADMIN_TOKEN: FIXTURE_TOKEN,
    LEDGER_LOG_LEVEL: "silent",
    ...extraEnv,
  };
  const ledger = createLedger(loadConfig(env));
  await ledger.start();
  const client = createClient(ledgerService(), `127.0.0.1:${port}`, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${FIXTURE_TOKEN}` } });
  const nc = await connect({ servers: nats.url });
  return {
    ledger,
    client,
    nc,
    js: jetstream(nc),
    env: { ...env, LEDGER_GRPC_PORT: "0" },
    async stop() {
      client.close();
      await nc.close();
      await ledger.stop();
      await nats.stop();
    },
  };
}
