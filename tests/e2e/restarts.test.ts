import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlPlane, loadConfig as loadControlConfig } from "@gateway/control-plane";
import { createDataPlane, loadConfig as loadDataPlaneConfig, type DataPlane } from "@gateway/data-plane";
import { startFakeUpstream, type FakeUpstream } from "@gateway/fake-upstream";
import { createLedger, loadConfig as loadLedgerConfig } from "@gateway/ledger";
import { adminService, createClient, healthService, ledgerService, type AdminServiceMethods, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { createDatabase, eventually, freePort, startNats, startPostgres, type NatsHandle, type PostgresHandle } from "@gateway/testing";
import { FAKE_UPSTREAM_API_KEY } from "../../scripts/lib/demo-catalog.ts";
import { writeNatsAuth } from "../../scripts/lib/nats-auth.ts";
import { seedDemo, type SeedResult } from "../../scripts/lib/seed.ts";

/**
 * "No service exits because a dependency restarts": a private PostgreSQL and nats-server (the shared
 * test Postgres is never touched) are killed and started again under a running control-plane,
 * ledger and data-plane. Each service must stay up, say not-ready while a dependency it needs is
 * gone, become ready again by itself, and serve users as before. An 'error' event nobody handles
 * (what used to end the process) would surface here as an unhandled error and fail the run.
 */

type ControlPlane = ReturnType<typeof createControlPlane>;
type Ledger = ReturnType<typeof createLedger>;

const TOKEN = "restarts-admin-token-0123456789";
const DP_CONTROL_TOKEN = "restarts-dp-control-token-0123456789";
const DP_LEDGER_TOKEN = "restarts-dp-ledger-token-0123456789";
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
const pgDir = tempDir("gw-restart-pg-");
const natsDir = tempDir("gw-restart-nats-");
// NATS with the services' users, as everywhere: each reconnects with its own credentials.
const natsAuth = writeNatsAuth(tempDir("gw-restart-nats-auth-"));

let pg: PostgresHandle;
let nats: NatsHandle;
let fake: FakeUpstream;
let control: ControlPlane;
let ledger: Ledger;
let dp: DataPlane;
let admin: TypedClient<AdminServiceMethods>;
let ledgerClient: TypedClient<LedgerServiceMethods>;
let demo: SeedResult;
let openai: OpenAI;
let controlEnv: Record<string, string>;
let ledgerEnv: Record<string, string>;
/** Services started by a test, stopped at the end. */
const extra: { stop(): Promise<void> }[] = [];

const statusOf = async (url: string) => (await fetch(url).catch(() => undefined))?.status ?? 0;
const grpcHealth = async (port: number) => {
  const c = createClient(healthService(), `127.0.0.1:${port}`, { timeoutMs: 1_000 });
  try {
    return (await c.Check({ service: "" })).status;
  } catch {
    return "UNREACHABLE";
  } finally {
    c.close();
  }
};
/** What a Kubernetes probe and a gRPC health client see. */
async function readiness(s: { opsPort: number; grpcPort: number }): Promise<"ready" | "not_ready" | "mixed"> {
  const [http, grpc] = await Promise.all([statusOf(`http://127.0.0.1:${s.opsPort}/readyz`), grpcHealth(s.grpcPort)]);
  if (http === 200 && grpc === "SERVING") return "ready";
  if (http === 503 && grpc === "NOT_SERVING") return "not_ready";
  return "mixed";
}
const alive = async (opsPort: number) => statusOf(`http://127.0.0.1:${opsPort}/healthz`);
const dataPlaneReady = () => statusOf(`${dp.url}/readyz`);

/** Waits until every listed service reports `want` on both its /readyz and its gRPC health check. */
async function allReport(want: "ready" | "not_ready", services: { opsPort: number; grpcPort: number }[], what: string, timeoutMs = 20_000) {
  await eventually(async () => ((await Promise.all(services.map(readiness))).every((r) => r === want) ? true : undefined), timeoutMs, what);
}

/** One chat completion through the official SDK; returns its request id. */
async function chat(content: string): Promise<string> {
  const { data, response } = await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content }] }).withResponse();
  expect(data.choices[0]?.message.content).toBeTruthy();
  return response.headers.get("x-gateway-trace-id")!;
}

/** Waits until the ledger has applied the usage of these requests. */
async function billed(ids: string[], timeoutMs = 20_000): Promise<void> {
  await eventually(
    async () => {
      const found = await Promise.all(ids.map((id) => ledgerClient.GetUsage({ request_id: id, org_id: demo.orgId, wait_ms: 0 }).catch(() => undefined)));
      return found.every(Boolean) ? true : undefined;
    },
    timeoutMs,
    `usage of ${ids.length} request(s) applied`,
  );
}

/** Calls that borrow pooled connections the whole time, so the kill hits connections in use too. */
/** Admin reads, credit reads and chat requests in a loop until stopped; `running` resolves once a first round answered. */
function backgroundLoad(): { running: Promise<void>; stop: () => Promise<void> } {
  let stop = false;
  let first!: () => void;
  const running = new Promise<void>((r) => (first = r));
  const loop = (async () => {
    while (!stop) {
      await Promise.allSettled([
        admin.ListOrgs({}),
        ledgerClient.GetCredits({ org_id: demo.orgId }),
        openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "load" }] }),
      ]);
      first();
    }
  })();
  return {
    running,
    stop: async () => {
      stop = true;
      await loop;
    },
  };
}

async function killPostgres(): Promise<void> {
  process.kill(pg.pid, "SIGKILL");
  await pg.exited;
}
async function restartPostgres(): Promise<void> {
  // The killed postmaster's backends may hold its shared memory for a moment: retry until it starts.
  pg = await eventually(() => startPostgres({ dataDir: pgDir, port: pg.port, durable: true }), 30_000, "postgres restarted");
}

beforeAll(async () => {
  // Durable, as a deployment's: killed with SIGKILL, it must keep every commit it acknowledged (without
  // fsync and synchronous commits, the last ~200 ms of commits, the seeded key among them, could go).
  pg = await startPostgres({ dataDir: pgDir, durable: true });
  const dbUrl = await createDatabase(pg.url, "restarts");
  nats = await startNats({ storeDir: natsDir, configFile: natsAuth.configFile, env: natsAuth.serverEnv });
  fake = await startFakeUpstream({ apiKey: FAKE_UPSTREAM_API_KEY });
  controlEnv = {
    CONTROL_PLANE_DATABASE_URL: dbUrl,
    CONTROL_PLANE_MIGRATE_ON_START: "true",
    CONTROL_PLANE_NATS_URL: nats.url,
    ...natsAuth.env("control-plane"),
    CONTROL_PLANE_GRPC_PORT: "0",
    CONTROL_PLANE_OPS_PORT: "0",
    CONTROL_PLANE_ADMIN_TOKEN: TOKEN,
    CONTROL_PLANE_DATA_PLANE_TOKEN: DP_CONTROL_TOKEN,
    CONTROL_PLANE_LOG_LEVEL: "silent",
  };
  control = createControlPlane(loadControlConfig(controlEnv));
  await control.start();
  ledgerEnv = {
    LEDGER_DATABASE_URL: dbUrl,
    LEDGER_MIGRATE_ON_START: "true",
    LEDGER_NATS_URL: nats.url,
    ...natsAuth.env("ledger"),
    LEDGER_GRPC_PORT: String(await freePort()),
    LEDGER_OPS_PORT: "0",
    LEDGER_ADMIN_TOKEN: TOKEN,
    LEDGER_DATA_PLANE_TOKEN: DP_LEDGER_TOKEN,
    LEDGER_LOG_LEVEL: "silent",
    LEDGER_SWEEP_INTERVAL_MS: "200",
  };
  ledger = createLedger(loadLedgerConfig(ledgerEnv));
  await ledger.start();
  const controlAddr = `127.0.0.1:${control.grpcPort}`;
  const ledgerAddr = `127.0.0.1:${ledger.grpcPort}`;
  const md = { authorization: `Bearer ${TOKEN}` };
  admin = createClient(adminService(), controlAddr, { timeoutMs: 5_000, metadata: md });
  ledgerClient = createClient(ledgerService(), ledgerAddr, { timeoutMs: 5_000, metadata: md });
  demo = await seedDemo({ controlPlaneAddr: controlAddr, ledgerAddr, adminToken: TOKEN, fakeUpstreamUrl: fake.url, orgName: "restarts", topUpMinor: 100_000_000 });
  dp = createDataPlane(
    loadDataPlaneConfig({
      DATA_PLANE_PORT: "0",
      DATA_PLANE_CONTROL_PLANE_ADDR: controlAddr,
      DATA_PLANE_LEDGER_ADDR: ledgerAddr,
      DATA_PLANE_CONTROL_PLANE_TOKEN: DP_CONTROL_TOKEN,
      DATA_PLANE_LEDGER_TOKEN: DP_LEDGER_TOKEN,
      DATA_PLANE_NATS_URL: nats.url,
      ...natsAuth.env("data-plane"),
      DATA_PLANE_LOG_LEVEL: "silent",
      DATA_PLANE_REPLICA_ID: "dp-restarts",
      DATA_PLANE_SPOOL_DIR: tempDir("gw-restart-spool-"),
      DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
    }),
  );
  await dp.start();
  openai = new OpenAI({ baseURL: `${dp.url}/v1`, apiKey: demo.secret, maxRetries: 0 });
  // The seed's top-up ends the trial through ledger → NATS → control-plane; wait for it.
  await eventually(() => chat("warm up").catch(() => undefined), 15_000, "demo org out of trial");
  await allReport("ready", [control, ledger], "services ready after start");
});

afterAll(async () => {
  const quietly = (p: Promise<unknown> | undefined) => p?.catch(() => undefined);
  for (const s of extra) await quietly(s.stop());
  await quietly(dp?.stop());
  admin?.close();
  ledgerClient?.close();
  await quietly(ledger?.stop());
  await quietly(control?.stop());
  await quietly(fake?.close());
  await quietly(nats?.stop());
  await quietly(pg?.stop());
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("PostgreSQL killed under load and started again", () => {
  it("control-plane and ledger stay up, report not-ready while it is gone, recover by themselves and work again; the data-plane keeps serving", async () => {
    // A key no replica has cached yet: while Postgres is away nobody can vouch for it.
    const unseen = await admin.CreateKey({ org: demo.orgId, routes: [], models: [], name: "unseen-during-pg-outage" });
    const load = backgroundLoad();
    await load.running;
    await killPostgres();

    await allReport("not_ready", [control, ledger], "control-plane and ledger not ready without Postgres");
    expect(await alive(control.opsPort)).toBe(200);
    expect(await alive(ledger.opsPort)).toBe(200);
    // The data-plane needs neither Postgres nor the admin API to serve a known key.
    expect(await dataPlaneReady()).toBe(200);
    const duringOutage = await chat("while postgres is down");
    // Fail closed, and say it is temporary: 503 (not 500) for the unknown key, UNAVAILABLE from the ledger.
    const refused = await new OpenAI({ baseURL: `${dp.url}/v1`, apiKey: unseen.secret, maxRetries: 0 }).models.list().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    await expect(ledgerClient.GetCredits({ org_id: demo.orgId })).rejects.toMatchObject({ code: "service_unavailable" });

    // A control-plane and a ledger started now wait for Postgres instead of exiting.
    const lateControl = createControlPlane(loadControlConfig(controlEnv));
    const lateLedger = createLedger(loadLedgerConfig({ ...ledgerEnv, LEDGER_GRPC_PORT: "0" }));
    extra.push(lateControl, lateLedger);
    const lateStarts = Promise.all([lateControl.start(), lateLedger.start()]);
    // Should a step below fail, that failure is the report: not these starts' abort at clean-up.
    lateStarts.catch(() => undefined);
    await eventually(async () => ((await statusOf(`http://127.0.0.1:${lateLedger.opsPort}/readyz`)) === 503 ? true : undefined), 10_000, "late ledger says not ready");

    await load.stop();
    // Down for a few seconds, like the outage this guards against (Postgres back after 6 s).
    await new Promise((r) => setTimeout(r, 6_000));
    await restartPostgres();

    await allReport("ready", [control, ledger], "control-plane and ledger ready again");
    await lateStarts;
    await allReport("ready", [lateControl, lateLedger], "late starters ready once Postgres is back");

    // Still works, without a restart: the admin API, the ledger's RPCs, a request and its billing.
    const org = await admin.CreateOrg({ name: "after-pg-restart" });
    expect((await admin.ListOrgs({})).orgs.map((o) => o.id)).toContain(org.id);
    await ledgerClient.TopUp({ org_id: org.id, amount_minor: 1_234, idempotency_key: "after-pg-restart" });
    expect(await ledgerClient.GetCredits({ org_id: org.id })).toMatchObject({ balance_minor: 1_234 });
    const afterRestart = await chat("after postgres came back");
    await billed([duringOutage, afterRestart]);
  }, 120_000);
});

describe("nats-server stopped and started again", () => {
  it("control-plane and ledger report not-ready while it is gone and recover by themselves; events flow again end to end", async () => {
    const { port, storeDir } = nats;
    await nats.stop();

    await allReport("not_ready", [control, ledger], "control-plane and ledger not ready without NATS");
    expect(await alive(control.opsPort)).toBe(200);
    expect(await alive(ledger.opsPort)).toBe(200);
    // The data-plane spools usage while NATS is away and keeps serving.
    expect(await dataPlaneReady()).toBe(200);
    const duringOutage = await chat("while nats is down");

    // A control-plane and a ledger started now wait for NATS instead of exiting.
    const lateControl = createControlPlane(loadControlConfig(controlEnv));
    const lateLedger = createLedger(loadLedgerConfig({ ...ledgerEnv, LEDGER_GRPC_PORT: "0" }));
    extra.push(lateControl, lateLedger);
    const lateStarts = Promise.all([lateControl.start(), lateLedger.start()]);
    // Should a step below fail, that failure is the report: not these starts' abort at clean-up.
    lateStarts.catch(() => undefined);
    await eventually(async () => ((await statusOf(`http://127.0.0.1:${lateControl.opsPort}/readyz`)) === 503 ? true : undefined), 10_000, "late control-plane says not ready");

    nats = await startNats({ port, storeDir, configFile: natsAuth.configFile, env: natsAuth.serverEnv });
    await allReport("ready", [control, ledger], "control-plane and ledger ready again");
    await lateStarts;
    await allReport("ready", [lateControl, lateLedger], "late starters ready once NATS is back");

    // The spooled event is replayed and applied, and new requests are billed.
    const afterRestart = await chat("after nats came back");
    await billed([duringOutage, afterRestart]);

    // Ledger → NATS → control-plane: a top-up still ends an org's trial.
    const org = await admin.CreateOrg({ name: "after-nats-restart" });
    expect(org.in_trial).toBe(true);
    await ledgerClient.TopUp({ org_id: org.id, amount_minor: 50_000_000, idempotency_key: "after-nats-restart" });
    await eventually(async () => ((await admin.ListOrgs({})).orgs.find((o) => o.id === org.id && !o.in_trial) ? true : undefined), 15_000, "trial ended by the top-up");

    // Control-plane → NATS → data-plane: a revoked key stops working within seconds, not the cache TTL.
    const created = await admin.CreateKey({ org: demo.orgId, routes: [], models: [], name: "revoke-after-nats-restart" });
    const other = new OpenAI({ baseURL: `${dp.url}/v1`, apiKey: created.secret, maxRetries: 0 });
    await other.models.list();
    await admin.RevokeKey({ key_id: created.key!.id });
    await eventually(
      async () => {
        const r = await other.models.list().then(
          () => undefined,
          (err: unknown) => err,
        );
        return r instanceof OpenAI.AuthenticationError ? true : undefined;
      },
      5_000,
      "revoked key refused",
    );
  }, 120_000);
});
