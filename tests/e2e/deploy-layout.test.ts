import { execFile, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, eventually, freePort, startNats, testPgUrl, type NatsHandle } from "@gateway/testing";
import { imageEnv } from "../../scripts/lib/image.ts";

/**
 * Each service as its image runs it: the layout `pnpm deploy --prod --legacy` makes (what
 * deploy/Dockerfile copies into the image, nothing else from the repository), started with
 * `node dist/main.js` and the environment of its image (NODE_ENV, the data-plane's NODE_OPTIONS)
 * against real Postgres and NATS until it reports ready.
 */
const root = resolve(import.meta.dirname, "../..");
const TOKEN = "deploy-layout-admin-token-0123456789";
const DP_TOKEN = "deploy-layout-data-plane-token-0123456789";
let nats: NatsHandle;
let out: string;
const children: ChildProcess[] = [];

/** `pnpm deploy` of one service into its own folder: the image's /app. */
async function deployLayout(service: string): Promise<string> {
  const dir = join(out, service);
  await promisify(execFile)("pnpm", ["--filter", `@gateway/${service}`, "deploy", "--prod", "--legacy", dir], { cwd: root });
  return dir;
}

function start(service: string, dir: string, env: Record<string, string>): ChildProcess {
  // Only what an image has: its own folder, node, the image's environment and the pod's.
  const image = imageEnv(service);
  if (!image) throw new Error(`deploy/Dockerfile has no stage ${service}`);
  const child = spawn(process.execPath, ["dist/main.js"], { cwd: dir, env: { PATH: process.env.PATH ?? "", ...image, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-4_000)));
  child.once("exit", (code) => {
    if (code) process.stderr.write(`[deploy-layout] ${dir} exited ${code}: ${stderr}\n`);
  });
  children.push(child);
  return child;
}

/** `node dist/main.js <args>` in the layout, to its end (the migrate step, a refused start). */
function runToEnd(service: string, dir: string, env: Record<string, string>, args: string[] = []): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["dist/main.js", ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", ...imageEnv(service), ...env },
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 60_000,
    });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => void (stderr += d.toString()));
    child.once("close", (status) => resolve({ status, stderr }));
  });
}

const ready = (port: number) => async () => {
  const r = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
  return r?.status === 200 ? true : undefined;
};

beforeAll(async () => {
  nats = await startNats();
  out = mkdtempSync(join(tmpdir(), "gw-deploy-"));
});

afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await nats?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

describe("the deployed layout of each service", () => {
  it("starts the control-plane, ledger and data-plane from their pnpm deploy folders, with the gRPC contracts inside @gateway/proto", async () => {
    // An empty database on the run's Postgres: the migrate step below brings it to this release.
    const db = await createDatabase(testPgUrl(), "deploy_layout");
    const [controlGrpc, controlOps, ledgerGrpc, ledgerOps, dataPlane] = (await Promise.all(Array.from({ length: 5 }, () => freePort()))) as [number, number, number, number, number];

    // The three layouts made at once.
    const [control, ledger, dp] = await Promise.all([deployLayout("control-plane"), deployLayout("ledger"), deployLayout("data-plane")]);
    // The contracts travel with the package, not beside the repository.
    expect(existsSync(join(control, "node_modules/@gateway/proto/dist/proto/gateway/control/v1/control.proto"))).toBe(true);
    expect(existsSync(join(control, "proto"))).toBe(false);
    const controlEnv = {
      CONTROL_PLANE_DATABASE_URL: db,
      CONTROL_PLANE_NATS_URL: nats.url,
      CONTROL_PLANE_GRPC_PORT: String(controlGrpc),
      CONTROL_PLANE_OPS_PORT: String(controlOps),
      CONTROL_PLANE_ADMIN_TOKEN: TOKEN,
      CONTROL_PLANE_DATA_PLANE_TOKEN: DP_TOKEN,
      CONTROL_PLANE_LOG_LEVEL: "warn",
    };
    const ledgerEnv = {
      LEDGER_DATABASE_URL: db,
      LEDGER_NATS_URL: nats.url,
      LEDGER_GRPC_PORT: String(ledgerGrpc),
      LEDGER_OPS_PORT: String(ledgerOps),
      LEDGER_ADMIN_TOKEN: TOKEN,
      LEDGER_DATA_PLANE_TOKEN: DP_TOKEN,
      LEDGER_LOG_LEVEL: "warn",
    };
    // A service never migrates its schema itself: on a schema the migrate step has not brought to
    // its release, it refuses to start (exit 2) and says what to run.
    // Both services at once (each step is a cold Node process).
    await Promise.all(
      (
        [
          ["control-plane", control, controlEnv],
          ["ledger", ledger, ledgerEnv],
        ] as const
      ).map(async ([service, dir, env]) => {
        const refused = await runToEnd(service, dir, env);
        expect(refused.status).toBe(2);
        expect(refused.stderr).toMatch(/schema \w+ lacks \d+ migration\(s\) this release needs .*: run the migrate step first/);
        // The migrate step, as the manifests' Job runs it; a second run finds nothing to do.
        expect(await runToEnd(service, dir, env, ["migrate"])).toMatchObject({ status: 0 });
        expect(await runToEnd(service, dir, env, ["migrate"])).toMatchObject({ status: 0 });
      }),
    );
    start("control-plane", control, controlEnv);
    start("ledger", ledger, ledgerEnv);
    await eventually(ready(controlOps), 30_000, "control-plane ready");
    await eventually(ready(ledgerOps), 30_000, "ledger ready");

    // With the image's NODE_OPTIONS: node refuses to start on a flag it does not allow there.
    start("data-plane", dp, {
      DATA_PLANE_PORT: String(dataPlane),
      DATA_PLANE_CONTROL_PLANE_ADDR: `127.0.0.1:${controlGrpc}`,
      DATA_PLANE_LEDGER_ADDR: `127.0.0.1:${ledgerGrpc}`,
      DATA_PLANE_CONTROL_PLANE_TOKEN: DP_TOKEN,
      DATA_PLANE_LEDGER_TOKEN: DP_TOKEN,
      DATA_PLANE_NATS_URL: nats.url,
      DATA_PLANE_SPOOL_DIR: join(out, "spool"),
      DATA_PLANE_LOG_LEVEL: "warn",
    });
    await eventually(ready(dataPlane), 30_000, "data-plane ready");
    // Ready means it reached the control-plane over gRPC: an unknown key is refused by it, not by a crash.
    const r = await fetch(`http://127.0.0.1:${dataPlane}/v1/models`, { headers: { authorization: `Bearer sk-gateway-${"x".repeat(43)}` } });
    expect(r.status).toBe(401);
    // Three cold Node processes started one after another: give them the time a loaded CI machine needs.
  }, 120_000);
});
