/** Shared pieces of the ledger benchmarks: processes, CPU accounting, the consumer's progress. */
import { spawn, type ChildProcess } from "node:child_process";
import { jetstream, jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { CATALOG_STREAM, CATALOG_STREAM_SUBJECTS, USAGE_STREAM, catalogPricesSubject, type UsageEventV1 } from "@gateway/events";
import type { PriceSheet } from "@gateway/pricing";
import { createClient, ledgerService } from "@gateway/proto";
import { freePort } from "@gateway/testing";
import { root, sleep, stopChild as stopProcess } from "../scripts/lib/bench.ts";

export { cpuMicros, pct, root, sleep, treeCpu, treeDelta } from "../scripts/lib/bench.ts";

export const step = (m: string) => process.stderr.write(`[bench] ${m}\n`);

export function spawnNode(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

/** A ledger gets 20 s to drain its batch before it is killed. */
export const stopChild = (c: ChildProcess) => stopProcess(c, 20_000);

export async function waitReady(opsPort: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${opsPort}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`ops port ${opsPort} not ready within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Unacknowledged usage events on the ledger's durable. */
export async function pending(jsm: JetStreamManager, durable = "ledger"): Promise<{ pending: number; ackFloor: number }> {
  const c = await jsm.consumers.info(USAGE_STREAM, durable);
  return { pending: c.num_pending + c.num_ack_pending, ackFloor: c.ack_floor.stream_seq };
}

/** A ledger's environment on free ports, with `extra` settings on top. */
export async function ledgerEnv(dbUrl: string, natsUrl: string, token: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    LEDGER_DATABASE_URL: dbUrl,
    LEDGER_MIGRATE_ON_START: "true",
    LEDGER_NATS_URL: natsUrl,
    LEDGER_GRPC_PORT: String(await freePort()),
    LEDGER_OPS_PORT: String(await freePort()),
    LEDGER_ADMIN_TOKEN: token,
    LEDGER_LOG_LEVEL: "warn",
    ...extra,
  };
}

/**
 * Tops up `count` organizations (`org_<prefix>_<i>`) through a running ledger and opens one large
 * lease each, so the events a bench publishes settle against open leases; their lease ids.
 */
export async function fundOrgs(env: Record<string, string>, prefix: string, count: number): Promise<string[]> {
  const client = createClient(ledgerService(), `127.0.0.1:${env.LEDGER_GRPC_PORT}`, { timeoutMs: 10_000, metadata: { authorization: `Bearer ${env.LEDGER_ADMIN_TOKEN}` } });
  try {
    const leases: string[] = [];
    for (let i = 0; i < count; i++) {
      await client.TopUp({ org_id: `org_${prefix}_${i}`, amount_minor: 10_000_000_000, idempotency_key: `${prefix}-${i}` });
      const l = await client.AcquireLease({ org_id: `org_${prefix}_${i}`, lease_id: "", holder: "bench", amount_minor: 1_000_000_000, min_amount_minor: 1_000_000_000, ttl_ms: 120_000 });
      leases.push(l.lease_id);
    }
    return leases;
  } finally {
    client.close();
  }
}

/**
 * The usage event of a gw-chat-mini request (150,000 / 600,000 minor per million tokens) of
 * organization `org_<prefix>_<org>`; `j` varies its token counts (200–1,099 in, 50–449 out).
 */
/** The catalog version the bench's events name; publishBenchPrices publishes its price sheet. */
export const BENCH_CATALOG_VERSION = 1;

/**
 * Publishes the price sheet of BENCH_CATALOG_VERSION (gw-chat-mini at 150,000 / 600,000 a million) as
 * the control-plane does, so that a ledger checking costs (with signing keys) prices every event.
 */
export async function publishBenchPrices(natsUrl: string): Promise<void> {
  const nc = await connect({ servers: natsUrl });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: CATALOG_STREAM, subjects: CATALOG_STREAM_SUBJECTS, max_msgs_per_subject: 1 });
  const sheet: PriceSheet = {
    version: BENCH_CATALOG_VERSION,
    models: { "gw-chat-mini": { input_price_minor_per_mtok: 150_000, output_price_minor_per_mtok: 600_000, image_prices: [], default_image_size: "", video_prices: [] } },
    tools: {},
  };
  await jetstream(nc).publish(catalogPricesSubject(BENCH_CATALOG_VERSION), JSON.stringify(sheet));
  await nc.close();
}

export function chatUsageEvent(o: { requestId: string; prefix: string; org: number; leaseId: string; j: number; createdAtMs: number }): UsageEventV1 {
  const input = 200 + (o.j % 900);
  const output = 50 + (o.j % 400);
  return {
    version: 1,
    request_id: o.requestId,
    org_id: `org_${o.prefix}_${o.org}`,
    key_id: `key_${o.prefix}_${o.org}`,
    model: "gw-chat-mini",
    route: "chat",
    provider: "fake",
    upstream_model: "fake-chat",
    lease_id: o.leaseId,
    catalog_version: BENCH_CATALOG_VERSION,
    usage: { input_tokens: input, output_tokens: output, cached_input_tokens: 0, estimated: false },
    input_price_minor_per_mtok: 150_000,
    output_price_minor_per_mtok: 600_000,
    cost_minor: Math.ceil((input * 150_000 + output * 600_000) / 1_000_000),
    line_items: [
      { item: "input_tokens", quantity: input, unit_price_minor: 150_000, per: "1M tokens" },
      { item: "output_tokens", quantity: output, unit_price_minor: 600_000, per: "1M tokens" },
    ],
    guardrails: [],
    // One attempt served as billed, as a data-plane sends it (served_attempt, attempts empty).
    attempts: [],
    served_attempt: { outcome: "served", duration_ms: 90 + (o.j % 50), provider_cost_minor: Math.ceil((input * 100_000 + output * 400_000) / 1_000_000) },
    stream: o.j % 4 === 0,
    status: 200,
    created_at_ms: o.createdAtMs,
    duration_ms: 100 + (o.j % 50),
  };
}
