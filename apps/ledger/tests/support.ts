import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstream, jetstreamManager, type JetStreamClient } from "@nats-io/jetstream";
import { USAGE_STREAM, type UsageEventV1 } from "@gateway/events";
import { createClient, ledgerService, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { createDatabase, eventually, freePort, startNats, templateDatabase, testPgUrl } from "@gateway/testing";
import { createLedger, loadConfig, migrateLedgerSchema, type Ledger } from "../src/index.js";

export { bookViolations } from "../src/books.js";

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

/** A database the ledger's migrations ran on, once per worker: each fixture's is a copy of it. */
const migratedTemplate = () =>
  templateDatabase(testPgUrl(), "ledger", (url) => migrateLedgerSchema(loadConfig({ LEDGER_DATABASE_URL: url, LEDGER_ADMIN_TOKEN: FIXTURE_TOKEN, LEDGER_LOG_LEVEL: "silent" })));

/** A fresh database named `name` with the ledger's schema migrated (a copy of the worker's template). */
export const migratedDatabase = async (name: string): Promise<string> => createDatabase(testPgUrl(), name, await migratedTemplate());

export async function startLedgerFixture(dbName: string, extraEnv: Record<string, string> = {}): Promise<LedgerFixture> {
  const url = await migratedDatabase(dbName);
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
