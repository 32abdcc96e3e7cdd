import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "@nats-io/transport-node";
import { jetstream } from "@nats-io/jetstream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE_SUBJECT, encodeEvent } from "@gateway/events";
import { createClient, ledgerService } from "@gateway/proto";
import { eventually, startNats, type NatsHandle } from "@gateway/testing";
import { createLedger, loadConfig, type Ledger } from "../src/index.js";
import { usageEvent, migratedDatabase } from "./support.js";

/**
 * A NATS server that stops answering without closing its connections (stalled, or cut off by the
 * network): the consumer's rounds time out, and so does its attempt to ensure the stream and the
 * durable again. Once NATS answers, the rounds that reach the durable must make the ledger ready
 * again by themselves (it once stayed not-ready until some later round happened to time out).
 */
const TOKEN = "ledger-nats-outage-admin-token";
const storeDir = mkdtempSync(join(tmpdir(), "gw-ledger-outage-nats-"));
let nats: NatsHandle;
let ledger: Ledger;

const readyz = async () => (await fetch(`http://127.0.0.1:${ledger.opsPort}/readyz`).catch(() => undefined))?.status ?? 0;

beforeAll(async () => {
  const db = await migratedDatabase("ledger_nats_outage");
  nats = await startNats({ storeDir });
  ledger = createLedger(
    loadConfig({
      LEDGER_DATABASE_URL: db,
      LEDGER_MIGRATE_ON_START: "true",
      LEDGER_NATS_URL: nats.url,
      LEDGER_GRPC_PORT: "0",
      LEDGER_OPS_PORT: "0",
      LEDGER_ADMIN_TOKEN: TOKEN,
      LEDGER_LOG_LEVEL: "silent",
    }),
  );
  await ledger.start();
});

afterAll(async () => {
  await ledger?.stop();
  await nats?.stop();
  rmSync(storeDir, { recursive: true, force: true });
});

describe("usage consumer after NATS stalled, then died", () => {
  it("is not ready while NATS is away, ready again once it is back, and applies what is published then", async () => {
    expect(await readyz()).toBe(200);
    const { port } = nats;
    // Stalled: a round times out, and the consumer sets out to ensure its stream and durable again…
    process.kill(nats.pid, "SIGSTOP");
    await eventually(async () => ((await readyz()) === 503 ? true : undefined), 10_000, "not ready while NATS does not answer");
    await new Promise((r) => setTimeout(r, 1_500));
    // …then gone: that attempt fails while NATS is away.
    process.kill(nats.pid, "SIGKILL");
    await nats.exited;
    await new Promise((r) => setTimeout(r, 6_000));
    nats = await startNats({ port, storeDir });
    await eventually(async () => ((await readyz()) === 200 ? true : undefined), 15_000, "ready again once NATS is back");

    const nc = await connect({ servers: nats.url });
    const client = createClient(ledgerService(), `127.0.0.1:${ledger.grpcPort}`, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${TOKEN}` } });
    try {
      const orgId = "org_nats_outage";
      await client.TopUp({ org_id: orgId, amount_minor: 10_000, idempotency_key: "outage-top-up" });
      const ev = usageEvent(orgId, "", 250);
      await jetstream(nc).publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id });
      await client.GetUsage({ request_id: ev.request_id, org_id: orgId, wait_ms: 10_000 });
      expect(await client.GetCredits({ org_id: orgId })).toMatchObject({ balance_minor: 9_750, spent_minor: 250 });
    } finally {
      client.close();
      await nc.close();
    }
  }, 60_000);
});
