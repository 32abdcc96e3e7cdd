import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import OpenAI from "openai";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeUpstream, type FakeUpstream } from "@gateway/fake-upstream";
import { createDatabase, eventually, freePort, startNats, testPgUrl, type NatsHandle } from "@gateway/testing";
import { seedDemo } from "../../scripts/lib/seed.ts";
import type { UsageBody } from "../support/api.ts";
import { Balancer } from "../support/balancer.ts";
import { buildPreviousRelease, previousReleaseCommit, root, startService, type Service, type ServiceProcess } from "../support/previous-release.ts";

/**
 * A rolling upgrade under load: the previous release (deploy/previous-release, built from git) and
 * this tree run side by side against one Postgres and one NATS, every service as its own process,
 * the way Kubernetes rolls Deployments: gRPC reaches whichever replicas are up through a
 * round-robin TCP balancer (a Service), and callers spread their requests over the data-planes.
 * Zero failed requests, and every answered request billed exactly once.
 */
const ADMIN = "rolling-upgrade-admin-token-0123456789";
const DP_TOKEN = "rolling-upgrade-data-plane-token-0123456789";
const FAKE_KEY = "rolling-upgrade-fake-upstream-key";
const USAGE_KEY = "rolling-upgrade-usage-signing-key-0123456789";

interface Result {
  ok: boolean;
  dp: string;
  phase: string;
  id?: string;
  error?: string;
}

/** Callers spreading chat completions over the data-planes in rotation, through the official SDK. */
class Load {
  readonly results: Result[] = [];
  phase = "";
  private targets: { name: string; client: OpenAI }[] = [];
  private stopped = false;
  private workers: Promise<void>[] = [];
  private n = 0;
  private readonly inflight = new Map<string, number>();

  constructor(private readonly secret: string) {}

  route(dps: { name: string; url: string }[]): void {
    this.targets = dps.map((d) => ({ name: d.name, client: new OpenAI({ baseURL: `${d.url}/v1`, apiKey: this.secret, maxRetries: 0, timeout: 15_000 }) }));
  }

  start(concurrency: number): void {
    for (let i = 0; i < concurrency; i++) this.workers.push(this.worker());
  }

  private async worker(): Promise<void> {
    while (!this.stopped) {
      const n = this.n++;
      const t = this.targets[n % this.targets.length]!;
      const phase = this.phase;
      this.inflight.set(t.name, (this.inflight.get(t.name) ?? 0) + 1);
      try {
        const { response } = await t.client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: `rolling ${n}` }] }).withResponse();
        this.results.push({ ok: true, dp: t.name, phase, id: response.headers.get("x-gateway-trace-id") ?? undefined });
      } catch (err) {
        this.results.push({ ok: false, dp: t.name, phase, error: String(err) });
      } finally {
        this.inflight.set(t.name, this.inflight.get(t.name)! - 1);
      }
    }
  }

  /** Until each of `dps` has answered `n` requests in the current phase (or a request failed: the test reports it). */
  async served(dps: string[], n = 10): Promise<void> {
    const phase = this.phase;
    const answered = (dp: string) => this.results.filter((r) => r.ok && r.phase === phase && r.dp === dp).length;
    await eventually(() => (dps.every((dp) => answered(dp) >= n) || this.results.some((r) => !r.ok) ? true : undefined), 30_000, `${n} answers from each of ${dps.join(", ")} in "${phase}"`);
  }

  /**
   * Until `dp`, out of rotation, has answered what it was sent: its connections are then idle, and
   * a stop closes them at once (as endpoints are dropped before a pod is told to stop). A stop
   * called earlier waits for the keep-alive connections of the requests it finished, up to 10 s.
   */
  async idle(dp: string): Promise<void> {
    await eventually(() => ((this.inflight.get(dp) ?? 0) === 0 ? true : undefined), 30_000, `${dp} idle`);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers);
  }
}

const run = promisify(execFile);

let previous: string;
let dbUrl: string;
let nats: NatsHandle;
let fake: FakeUpstream;
const controlLb = new Balancer();
const ledgerLb = new Balancer();
const running: ServiceProcess[] = [];

beforeAll(async () => {
  previous = buildPreviousRelease();
  dbUrl = await createDatabase(testPgUrl(), "rolling_upgrade");
  nats = await startNats({ storeDir: mkdtempSync(join(tmpdir(), "gw-upgrade-nats-")) });
  fake = await startFakeUpstream({ apiKey: FAKE_KEY });
  await controlLb.listen();
  await ledgerLb.listen();
}, 300_000);

afterAll(async () => {
  for (const s of running) s.kill();
  await controlLb.close();
  await ledgerLb.close();
  await fake?.close();
  await nats?.stop();
});

/** One replica of a service from a tree, started until ready; its ports. */
async function replica(tree: string, service: Service, name: string, extra: Record<string, string> = {}): Promise<{ proc: ServiceProcess; grpc: number; http: number }> {
  const [grpc, http] = [await freePort(), await freePort()];
  const spool = mkdtempSync(join(tmpdir(), `gw-upgrade-${name}-`));
  // The environment both releases read; the current one also gets its caller credentials.
  const env: Record<Service, Record<string, string>> = {
    "control-plane": {
      CONTROL_PLANE_DATABASE_URL: dbUrl,
      CONTROL_PLANE_NATS_URL: nats.url,
      CONTROL_PLANE_GRPC_PORT: String(grpc),
      CONTROL_PLANE_OPS_PORT: String(http),
      CONTROL_PLANE_ADMIN_TOKEN: ADMIN,
      CONTROL_PLANE_LOG_LEVEL: "warn",
    },
    ledger: {
      LEDGER_DATABASE_URL: dbUrl,
      LEDGER_NATS_URL: nats.url,
      LEDGER_GRPC_PORT: String(grpc),
      LEDGER_OPS_PORT: String(http),
      LEDGER_ADMIN_TOKEN: ADMIN,
      LEDGER_LOG_LEVEL: "warn",
      LEDGER_SWEEP_INTERVAL_MS: "200",
    },
    "data-plane": {
      DATA_PLANE_PORT: String(http),
      DATA_PLANE_CONTROL_PLANE_ADDR: `127.0.0.1:${controlLb.port}`,
      DATA_PLANE_LEDGER_ADDR: `127.0.0.1:${ledgerLb.port}`,
      DATA_PLANE_NATS_URL: nats.url,
      DATA_PLANE_SPOOL_DIR: spool,
      DATA_PLANE_REPLICA_ID: name,
      DATA_PLANE_LOG_LEVEL: "warn",
      FAKE_UPSTREAM_API_KEY: FAKE_KEY,
      // Small leases and short caches: every few requests reach the ledger and the control-plane of the moment.
      DATA_PLANE_LEASE_CHUNK_MINOR: "5000",
      DATA_PLANE_KEY_CACHE_TTL_MS: "500",
      DATA_PLANE_CATALOG_REFRESH_MS: "500",
    },
  };
  const proc = startService(tree, service, name, { ...env[service], ...extra });
  running.push(proc);
  await eventually(async () => ((await fetch(`http://127.0.0.1:${http}/readyz`).catch(() => undefined))?.status === 200 ? true : undefined), 30_000, `${name} ready`);
  return { proc, grpc, http };
}

/** What the current release is given beyond the previous one's environment. */
const CURRENT: Record<Service, Record<string, string>> = {
  "control-plane": { CONTROL_PLANE_DATA_PLANE_TOKEN: DP_TOKEN, CONTROL_PLANE_UNAUTHENTICATED_CALLERS: "data-plane" },
  // Signed usage (docs/security.md): the current ledger checks signatures but still takes the previous
  // data-plane's unsigned messages while the upgrade runs (LEDGER_ACCEPT_UNSIGNED_USAGE).
  // Its durable's ack wait at 3 s: the previous ledger stops with events pulled and not applied, which
  // come back after it (docs/operations.md, "It pulls in rounds"), 30 s otherwise.
  ledger: {
    LEDGER_DATA_PLANE_TOKEN: DP_TOKEN,
    LEDGER_UNAUTHENTICATED_CALLERS: "data-plane",
    LEDGER_USAGE_SIGNING_KEYS: USAGE_KEY,
    LEDGER_ACCEPT_UNSIGNED_USAGE: "true",
    LEDGER_ACK_WAIT_MS: "3000",
  },
  // Provider keys come from their own namespace now (docs/security.md): the previous release read FAKE_UPSTREAM_API_KEY as is.
  "data-plane": { DATA_PLANE_CONTROL_PLANE_TOKEN: DP_TOKEN, DATA_PLANE_LEDGER_TOKEN: DP_TOKEN, DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_KEY, DATA_PLANE_USAGE_SIGNING_KEY: USAGE_KEY },
};

describe(`a rolling upgrade from the previous release (${previousReleaseCommit().slice(0, 12)})`, () => {
  it("serves every request and bills each exactly once while each service is replaced, the ledgers consuming what either data-plane published", { timeout: 240_000 }, async () => {
    // The previous release alone: control-plane, ledger, data-plane.
    const oldControl = await replica(previous, "control-plane", "control-old");
    controlLb.set([oldControl.grpc]);
    const oldLedger = await replica(previous, "ledger", "ledger-old");
    ledgerLb.set([oldLedger.grpc]);
    // Seeded through the previous release's control-plane, which refuses a catalog with a kind it does not know.
    const seeded = await seedDemo({
      controlPlaneAddr: `127.0.0.1:${controlLb.port}`,
      ledgerAddr: `127.0.0.1:${ledgerLb.port}`,
      adminToken: ADMIN,
      fakeUpstreamUrl: `${fake.url}`,
      orgName: "upgrade",
      topUpMinor: 500_000_000,
      omitKinds: ["gemini"],
    });
    const oldDp = await replica(previous, "data-plane", "dp-old");
    const oldUrl = { name: "dp-old", url: `http://127.0.0.1:${oldDp.http}` };
    await eventually(
      async () => {
        const r = await fetch(`${oldUrl.url}/v1/models`, { headers: { authorization: `Bearer ${seeded.secret}` } });
        return ((await r.json()) as { data?: unknown[] }).data?.length ? true : undefined;
      },
      15_000,
      "the org out of trial",
    );

    const load = new Load(seeded.secret);
    load.route([oldUrl]);
    load.phase = "previous alone";
    load.start(4);
    await load.served(["dp-old"]);

    // The current release's migrate step (the manifests' Job) brings the schemas to it under the old
    // replicas and their traffic; its control-plane and ledger then join, then its data-plane.
    load.phase = "the migrate step";
    await run(process.execPath, [join(root, "apps/control-plane/dist/main.js"), "migrate"], {
      env: { ...process.env, CONTROL_PLANE_DATABASE_URL: dbUrl, CONTROL_PLANE_ADMIN_TOKEN: ADMIN, CONTROL_PLANE_LOG_LEVEL: "warn" },
    });
    await run(process.execPath, [join(root, "apps/ledger/dist/main.js"), "migrate"], { env: { ...process.env, LEDGER_DATABASE_URL: dbUrl, LEDGER_ADMIN_TOKEN: ADMIN, LEDGER_LOG_LEVEL: "warn" } });
    load.phase = "control-planes and ledgers side by side";
    const newControl = await replica(root, "control-plane", "control-new", CURRENT["control-plane"]);
    controlLb.set([oldControl.grpc, newControl.grpc]);
    let newLedger = await replica(root, "ledger", "ledger-new", CURRENT.ledger);
    ledgerLb.set([oldLedger.grpc, newLedger.grpc]);
    const newDp = await replica(root, "data-plane", "dp-new", CURRENT["data-plane"]);
    const newUrl = { name: "dp-new", url: `http://127.0.0.1:${newDp.http}` };
    load.phase = "both data-planes";
    load.route([oldUrl, newUrl]);
    await load.served(["dp-old", "dp-new"]);

    // Only the previous ledger: it applies what the current data-plane publishes.
    ledgerLb.set([oldLedger.grpc]);
    await newLedger.proc.stop();
    load.phase = "previous ledger alone";
    await load.served(["dp-old", "dp-new"]);

    // Only the current ledger: it applies what the previous data-plane publishes.
    newLedger = await replica(root, "ledger", "ledger-new-2", CURRENT.ledger);
    ledgerLb.set([newLedger.grpc]);
    await oldLedger.proc.stop();
    load.phase = "current ledger alone";
    await load.served(["dp-old", "dp-new"]);

    // The previous data-plane and control-plane go (out of rotation first, as endpoints are).
    load.route([newUrl]);
    load.phase = "current alone";
    await load.idle("dp-old");
    await oldDp.proc.stop();
    controlLb.set([newControl.grpc]);
    await oldControl.proc.stop();
    await load.served(["dp-new"]);
    await load.stop();

    const { results } = load;
    expect(results.filter((r) => !r.ok)).toEqual([]);
    // Both data-planes served, in every phase where both were in rotation.
    for (const phase of ["both data-planes", "previous ledger alone", "current ledger alone"]) {
      for (const dp of ["dp-old", "dp-new"]) expect(results.filter((r) => r.phase === phase && r.dp === dp).length, `${dp} in ${phase}`).toBeGreaterThan(0);
    }
    const ids = results.map((r) => r.id!);
    expect(new Set(ids).size).toBe(ids.length);

    // Every answered request has its usage record, and the org was charged the sum of them, once.
    // Events the previous ledger had already pulled but not applied when it stopped come back after
    // the durable's ack wait (3 s here), to whichever ledger runs: late, never lost.
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    try {
      const billed = await eventually(
        async () => {
          const r = await db.query<{ n: string; cost: string }>("SELECT count(*) AS n, coalesce(sum(cost_minor), 0) AS cost FROM ledger.usage_records WHERE org_id = $1", [seeded.orgId]);
          return Number(r.rows[0]!.n) >= ids.length ? r.rows[0]! : undefined;
        },
        60_000,
        "every request billed",
      );
      expect(Number(billed.n)).toBe(ids.length);
      const recorded = await db.query<{ request_id: string }>("SELECT request_id FROM ledger.usage_records WHERE org_id = $1", [seeded.orgId]);
      expect(new Set(recorded.rows.map((r) => r.request_id))).toEqual(new Set(ids));
      const account = await db.query<{ spent: string }>("SELECT spent_minor AS spent FROM ledger.accounts WHERE org_id = $1", [seeded.orgId]);
      expect(Number(account.rows[0]!.spent)).toBe(Number(billed.cost));
    } finally {
      await db.end();
    }
    // And the current data-plane reads any of them back.
    const one = results.find((r) => r.phase === "previous alone")!;
    const r = await fetch(`${newUrl.url}/v1/usage/${one.id}`, { headers: { authorization: `Bearer ${seeded.secret}` } });
    expect(r.status).toBe(200);
    // Recorded before `basis` existed: read from `estimated`.
    const { usage } = (await r.json()) as UsageBody;
    expect(usage.basis).toBe(usage.estimated ? "estimated" : "reported");
  });
});
