/**
 * The whole gateway for a benchmark, each part its own process on loopback (the fake upstream, the
 * control-plane, the ledger, the data-plane; Postgres and nats-server from the machine), seeded with
 * the demo organization, catalog and key. Bounded: everything it started is killed when the
 * benchmark exits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, freePort, startNats, startPostgres, waitForPort } from "@gateway/testing";
import { FAKE_UPSTREAM_API_KEY } from "../scripts/lib/demo-catalog.ts";
import { seedDemo } from "../scripts/lib/seed.ts";
import { root, serviceEnv } from "../scripts/lib/bench.ts";
import { step } from "./ledger-common.ts";

/** BENCH_CPU_PROF=DIR writes the data-plane's CPU profile there (bench/profile-summary.ts reads it). */
const spawnNode = (script: string, env: Record<string, string>): ChildProcess => {
  const prof = process.env.BENCH_CPU_PROF && script.includes("data-plane") ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  return spawn(process.execPath, [...prof, script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
};

export interface BenchStack {
  /** The data-plane's process and port (the first replica's). */
  dp: ChildProcess;
  dpPort: number;
  /** Every replica's port (`replicas` of them). */
  dpPorts: number[];
  /** The control-plane's and the ledger's gRPC addresses, the admin token, and the demo organization and key. */
  controlAddr: string;
  ledgerAddr: string;
  adminToken: string;
  orgId: string;
  keyId: string;
  /** The fake upstream's base URL. */
  fakeUrl: string;
  /** The demo organization's key. */
  secret: string;
  /** The stack's database (control-plane and ledger schemas) and nats-server. */
  dbUrl: string;
  natsUrl: string;
}

export async function startBenchStack(name: string, dataPlaneEnv: Record<string, string> = {}, replicas = 1): Promise<BenchStack> {
  step("starting infrastructure");
  const pg = await startPostgres();
  const nats = await startNats();
  const db = await createDatabase(pg.url, name);
  const token = "bench-admin-token-0123456789";
  const dpToken = "bench-data-plane-token-0123456789";
  const [fakePort, controlPort, ledgerPort, dpPort] = (await Promise.all(Array.from({ length: 4 }, () => freePort()))) as [number, number, number, number];
  const fakeUrl = `http://127.0.0.1:${fakePort}`;
  const children: ChildProcess[] = [];
  process.once("exit", () => {
    for (const c of children) c.kill("SIGKILL");
    for (const pid of [nats.pid, pg.pid]) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  });
  const services = serviceEnv({ db, natsUrl: nats.url, controlPort, ledgerPort, adminToken: token, dpToken, logLevel: "warn" });
  children.push(spawnNode("packages/fake-upstream/dist/main.js", { FAKE_UPSTREAM_PORT: String(fakePort), FAKE_UPSTREAM_API_KEY }));
  children.push(spawnNode("apps/control-plane/dist/main.js", services.control), spawnNode("apps/ledger/dist/main.js", services.ledger));
  await Promise.all([waitForPort(fakePort, 30_000), waitForPort(controlPort, 30_000), waitForPort(ledgerPort, 30_000)]);
  const seeded = await seedDemo({
    controlPlaneAddr: `127.0.0.1:${controlPort}`,
    ledgerAddr: `127.0.0.1:${ledgerPort}`,
    adminToken: token,
    fakeUpstreamUrl: fakeUrl,
    orgName: name,
    topUpMinor: 1_000_000_000,
  });
  const dpPorts = [dpPort, ...(await Promise.all(Array.from({ length: Math.max(0, replicas - 1) }, () => freePort())))];
  const dps = dpPorts.map((port, i) =>
    spawnNode("apps/data-plane/dist/main.js", {
      ...services.dataPlane,
      DATA_PLANE_PORT: String(port),
      DATA_PLANE_REPLICA_ID: `bench-dp-${i}`,
      DATA_PLANE_LOG_LEVEL: "warn",
      DATA_PLANE_SPOOL_DIR: mkdtempSync(join(tmpdir(), "bench-spool-")),
      DATA_PLANE_MCP_ALLOW_LOOPBACK: "true",
      DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
      ...dataPlaneEnv,
    }),
  );
  children.push(...dps);
  await Promise.all(dpPorts.map((p) => waitForPort(p, 30_000)));
  return {
    dp: dps[0]!,
    dpPort,
    dpPorts,
    controlAddr: `127.0.0.1:${controlPort}`,
    ledgerAddr: `127.0.0.1:${ledgerPort}`,
    adminToken: token,
    orgId: seeded.orgId,
    keyId: seeded.keyId,
    fakeUrl,
    secret: seeded.secret,
    dbUrl: db,
    natsUrl: nats.url,
  };
}
