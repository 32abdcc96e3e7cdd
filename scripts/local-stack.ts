/**
 * `make up` / `make down`: the whole gateway on loopback from system packages. PostgreSQL and NATS
 * keep their data under .local/, services run as child processes with prefixed logs, the demo org,
 * key and catalog are seeded idempotently, and Ctrl-C stops everything. Anything that exits on its
 * own (a crashed service, a killed Postgres or nats-server) is restarted with backoff; the stack
 * keeps running, as a deployment would.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import pg from "pg";
import { startNats, startPostgres, waitForPort, type ManagedProcess } from "@gateway/testing";
import { adminService, bearer, createClient } from "@gateway/proto";
import { FAKE_UPSTREAM_API_KEY } from "./lib/demo-catalog.ts";
import { demoEnvText, parseEnvText } from "./lib/demo-env.ts";
import { writeNatsAuth } from "./lib/nats-auth.ts";
import { seedDemo } from "./lib/seed.ts";

const root = resolve(import.meta.dirname, "..");
const local = join(root, ".local");
const pidFile = join(local, "stack.pids");
const node = process.execPath;

const PORTS = { pg: 55432, nats: 4222, control: 50051, controlOps: 9464, ledger: 50052, ledgerOps: 9465, dataPlane: 8080, fake: 9100, console: 8090 };

function readEnvFile(path: string): Record<string, string> {
  return existsSync(path) ? parseEnvText(readFileSync(path, "utf8")) : {};
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pids: number[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (pids.some(pidAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

/** Stops a stack whose `make up` terminal is gone: the supervisor first (it stops the rest in order). */
async function down(): Promise<void> {
  if (!existsSync(pidFile)) {
    console.log("no local stack is recorded as running");
    return;
  }
  const [supervisor, ...rest] = readFileSync(pidFile, "utf8").split(/\s+/).filter(Boolean).map(Number);
  if (supervisor && pidAlive(supervisor)) {
    process.kill(supervisor, "SIGTERM");
    await waitGone([supervisor, ...rest], 30_000);
  }
  // Whatever is left (the supervisor was killed hard): services first, then NATS, then Postgres.
  for (const pid of [...rest].reverse()) if (pidAlive(pid)) process.kill(pid, "SIGTERM");
  await waitGone(rest, 15_000);
  for (const pid of rest) if (pidAlive(pid)) process.kill(pid, "SIGKILL");
  rmSync(pidFile, { force: true });
  console.log("local stack stopped");
}

const COLORS = ["\x1b[36m", "\x1b[35m", "\x1b[33m", "\x1b[32m", "\x1b[34m", "\x1b[31m"];
let colorIdx = 0;
function prefixer(name: string): (chunk: string) => void {
  const color = process.stdout.isTTY ? COLORS[colorIdx++ % COLORS.length]! : "";
  const reset = process.stdout.isTTY ? "\x1b[0m" : "";
  const label = `${color}[${name.padEnd(13)}]${reset} `;
  let rest = "";
  return (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) process.stdout.write(label + line + "\n");
  };
}

/** Longest pause before restarting something that exited, ms. */
const MAX_RESTART_DELAY_MS = 30_000;
/** A run this long counts as healthy: the next exit restarts after the shortest delay again. */
const HEALTHY_RUN_MS = 60_000;

/** Restart delay after `failures` exits in a row: 1 s, 2 s, 4 s … 30 s. */
const restartDelay = (failures: number) => Math.min(MAX_RESTART_DELAY_MS, 1_000 * 2 ** Math.max(0, failures - 1));

interface Service {
  readonly name: string;
  child: ChildProcess;
}

/** A service child, restarted with backoff whenever it exits while the stack is not stopping. */
function startService(name: string, script: string, env: Record<string, string>): Service {
  const out = prefixer(name);
  let failures = 0;
  const spawnChild = (): ChildProcess => {
    const started = Date.now();
    const child = spawn(node, [script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.on("data", (d: Buffer) => out(d.toString()));
    child.stderr!.on("data", (d: Buffer) => out(d.toString()));
    child.on("exit", (code, signal) => {
      if (shuttingDown) return;
      failures = Date.now() - started >= HEALTHY_RUN_MS ? 1 : failures + 1;
      const delay = restartDelay(failures);
      out(`exited (${code ?? signal}); restarting in ${delay / 1000} s\n`);
      setTimeout(() => {
        if (shuttingDown) return;
        service.child = spawnChild();
        writePids();
      }, delay);
    });
    return child;
  };
  const service: Service = { name, child: spawnChild() };
  return service;
}

interface Infra {
  readonly name: string;
  handle: ManagedProcess;
}

/**
 * PostgreSQL or nats-server, started again (same data directory and port) when it exits while the
 * stack is not stopping. The services ride out the gap: they report not-ready and reconnect.
 */
async function startInfra(name: string, start: () => Promise<ManagedProcess>): Promise<Infra> {
  const out = prefixer(`${name} (supervisor)`);
  const infra: Infra = { name, handle: await start() };
  const watch = (handle: ManagedProcess) =>
    void handle.exited.then(async () => {
      if (shuttingDown) return;
      for (let failures = 1; !shuttingDown; failures++) {
        const delay = restartDelay(failures);
        out(`${name} exited; restarting in ${delay / 1000} s\n`);
        await new Promise((r) => setTimeout(r, delay));
        if (shuttingDown) return;
        try {
          infra.handle = await start();
          writePids();
          watch(infra.handle);
          out(`${name} is back\n`);
          return;
        } catch (err) {
          // A killed postmaster's backends may still hold its shared memory for a moment.
          out(`${name} did not start: ${err instanceof Error ? err.message : String(err)}\n`);
        }
      }
    });
  watch(infra.handle);
  return infra;
}

async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    const r = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (r.rowCount === 0) await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

let shuttingDown = false;
const services: Service[] = [];
const infra: Infra[] = [];

/** Records every pid for `make down`: the supervisor first, then infrastructure, then services. */
function writePids(): void {
  if (shuttingDown) return;
  writeFileSync(pidFile, [process.pid, ...infra.map((i) => i.handle.pid), ...services.map((s) => s.child.pid ?? 0)].join("\n") + "\n");
}

async function shutdown(code: number): Promise<never> {
  if (shuttingDown) return new Promise<never>(() => undefined);
  shuttingDown = true;
  console.log("\nstopping the local stack …");
  for (const c of [...services].reverse().map((s) => s.child)) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill("SIGTERM");
      await new Promise<void>((r) => {
        const t = setTimeout(() => (c.kill("SIGKILL"), r()), 10_000);
        c.once("exit", () => (clearTimeout(t), r()));
      });
    }
  }
  for (const p of [...infra].reverse()) await p.handle.stop();
  rmSync(pidFile, { force: true });
  console.log("stopped");
  process.exit(code);
}

async function up(): Promise<void> {
  mkdirSync(local, { recursive: true });
  if (existsSync(pidFile)) {
    const pids = readFileSync(pidFile, "utf8").split(/\s+/).filter(Boolean).map(Number);
    if (pids.some(pidAlive)) {
      console.error("a local stack is already running (see .local/stack.pids): stop it with `make down` first");
      process.exit(1);
    }
  }
  process.once("SIGINT", () => void shutdown(0));
  process.once("SIGTERM", () => void shutdown(0));

  // NATS users (one per service, gatewayctl's read-only one, the operators' admin) with fresh
  // passwords on every start: .local/nats-auth/<user>/password, and the server's auth.conf beside them.
  const natsAuth = writeNatsAuth(join(local, "nats-auth"));
  const gatewayctlNats = natsAuth.env("gatewayctl");
  const adminEnvPath = join(local, "admin.env");
  const adminEnv = readEnvFile(adminEnvPath);
  const adminToken = adminEnv.GATEWAY_ADMIN_TOKEN ?? `adm_${randomBytes(24).toString("base64url")}`;
  // Operators' top-up grants through the console: a key pair of this stack's own (docs/security.md).
  const grantKeys = generateKeyPairSync("ed25519");
  writeFileSync(
    adminEnvPath,
    `GATEWAY_ADMIN_TOKEN=${adminToken}\nGATEWAY_CONTROL_PLANE_ADDR=127.0.0.1:${PORTS.control}\nGATEWAY_LEDGER_ADDR=127.0.0.1:${PORTS.ledger}\nGATEWAY_NATS_URL=nats://127.0.0.1:${PORTS.nats}\n` +
      Object.entries(gatewayctlNats)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(""),
    { mode: 0o600 },
  );

  // Seals the organizations' webhook signing secrets in .local/pg: kept with them (another key could not open them).
  const secretsKeyPath = join(local, "control-plane-secrets.key");
  if (!existsSync(secretsKeyPath)) writeFileSync(secretsKeyPath, randomBytes(32).toString("base64url"), { mode: 0o600 });
  const secretsKey = readFileSync(secretsKeyPath, "utf8").trim();

  // The data-plane's caller tokens (one per server it calls) live only as long as this stack.
  const dataPlaneTokens = { control: `dp_${randomBytes(24).toString("base64url")}`, ledger: `dp_${randomBytes(24).toString("base64url")}` };
  // The console's, likewise (its own caller identity, docs/console.md).
  const consoleTokens = { control: `con_${randomBytes(24).toString("base64url")}`, ledger: `con_${randomBytes(24).toString("base64url")}` };

  const pgLog = prefixer("postgres");
  let pgUrl = "";
  infra.push(
    await startInfra("postgres", async () => {
      const h = await startPostgres({ dataDir: join(local, "pg"), port: PORTS.pg, durable: true, log: pgLog });
      pgUrl = h.url;
      return h;
    }),
  );
  const natsLog = prefixer("nats");
  let natsUrl = "";
  infra.push(
    await startInfra("nats", async () => {
      const h = await startNats({ storeDir: join(local, "nats"), port: PORTS.nats, configFile: natsAuth.configFile, env: natsAuth.serverEnv, log: natsLog });
      natsUrl = h.url;
      return h;
    }),
  );
  writePids();
  const dbUrl = await ensureDatabase(pgUrl, "gateway");
  const nats = { url: natsUrl };

  services.push(startService("fake-upstream", "packages/fake-upstream/dist/main.js", { FAKE_UPSTREAM_PORT: String(PORTS.fake), FAKE_UPSTREAM_API_KEY }));
  // The migrate step first, as a deployment runs it (its Job) before the services roll out.
  const migrateStep = (script: string, env: Record<string, string>) => execFileSync(node, [script, "migrate"], { cwd: root, env: { ...process.env, ...env }, stdio: "inherit" });
  migrateStep("apps/control-plane/dist/main.js", { CONTROL_PLANE_DATABASE_URL: dbUrl, CONTROL_PLANE_ADMIN_TOKEN: adminToken, CONTROL_PLANE_LOG_LEVEL: "warn" });
  migrateStep("apps/ledger/dist/main.js", { LEDGER_DATABASE_URL: dbUrl, LEDGER_ADMIN_TOKEN: adminToken, LEDGER_LOG_LEVEL: "warn" });
  services.push(
    startService("control-plane", "apps/control-plane/dist/main.js", {
      CONTROL_PLANE_DATABASE_URL: dbUrl,
      CONTROL_PLANE_NATS_URL: nats.url,
      ...natsAuth.env("control-plane"),
      CONTROL_PLANE_GRPC_PORT: String(PORTS.control),
      CONTROL_PLANE_OPS_PORT: String(PORTS.controlOps),
      CONTROL_PLANE_ADMIN_TOKEN: adminToken,
      CONTROL_PLANE_GRANT_SIGNING_KEY: grantKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      CONTROL_PLANE_DATA_PLANE_TOKEN: dataPlaneTokens.control,
      CONTROL_PLANE_CONSOLE_TOKEN: consoleTokens.control,
      CONTROL_PLANE_SECRETS_KEY: secretsKey,
      // Development only: alert webhooks may reach a receiver on this machine (docs/billing.md, "Alerts").
      CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1,localhost",
    }),
  );
  services.push(
    startService("ledger", "apps/ledger/dist/main.js", {
      LEDGER_DATABASE_URL: dbUrl,
      LEDGER_NATS_URL: nats.url,
      ...natsAuth.env("ledger"),
      LEDGER_GRPC_PORT: String(PORTS.ledger),
      LEDGER_OPS_PORT: String(PORTS.ledgerOps),
      LEDGER_ADMIN_TOKEN: adminToken,
      LEDGER_GRANT_PUBLIC_KEY: grantKeys.publicKey.export({ type: "spki", format: "pem" }).toString(),
      LEDGER_DATA_PLANE_TOKEN: dataPlaneTokens.ledger,
      LEDGER_CONSOLE_TOKEN: consoleTokens.ledger,
    }),
  );
  await Promise.all([waitForPort(PORTS.control, 30_000), waitForPort(PORTS.ledger, 30_000), waitForPort(PORTS.fake, 30_000)]);

  const demoEnvPath = join(local, "demo.env");
  const demo = readEnvFile(demoEnvPath);
  const fakeUrl = `http://127.0.0.1:${PORTS.fake}`;
  const seeded = await seedDemo({
    controlPlaneAddr: `127.0.0.1:${PORTS.control}`,
    ledgerAddr: `127.0.0.1:${PORTS.ledger}`,
    adminToken,
    fakeUpstreamUrl: fakeUrl,
    orgName: "demo",
    topUpMinor: 100_000_000,
    ...(demo.GATEWAY_API_KEY ? { existingSecret: demo.GATEWAY_API_KEY } : {}),
  });

  services.push(
    startService("data-plane", "apps/data-plane/dist/main.js", {
      DATA_PLANE_PORT: String(PORTS.dataPlane),
      DATA_PLANE_CONTROL_PLANE_ADDR: `127.0.0.1:${PORTS.control}`,
      DATA_PLANE_LEDGER_ADDR: `127.0.0.1:${PORTS.ledger}`,
      DATA_PLANE_CONTROL_PLANE_TOKEN: dataPlaneTokens.control,
      DATA_PLANE_LEDGER_TOKEN: dataPlaneTokens.ledger,
      DATA_PLANE_MCP_SESSION_SECRET: randomBytes(32).toString("base64url"),
      DATA_PLANE_RESPONSES_SECRET: randomBytes(32).toString("base64url"),
      // The demo's MCP server is the fake upstream on loopback.
      DATA_PLANE_MCP_ALLOW_LOOPBACK: "true",
      DATA_PLANE_NATS_URL: nats.url,
      ...natsAuth.env("data-plane"),
      DATA_PLANE_SPOOL_DIR: join(local, "spool"),
      DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
    }),
  );
  services.push(
    startService("console", "apps/console/dist/main.js", {
      CONSOLE_PORT: String(PORTS.console),
      CONSOLE_CONTROL_PLANE_ADDR: `127.0.0.1:${PORTS.control}`,
      CONSOLE_LEDGER_ADDR: `127.0.0.1:${PORTS.ledger}`,
      CONSOLE_CONTROL_PLANE_TOKEN: consoleTokens.control,
      CONSOLE_LEDGER_TOKEN: consoleTokens.ledger,
      CONSOLE_SECRET: randomBytes(32).toString("base64url"),
    }),
  );
  await Promise.all([waitForPort(PORTS.dataPlane, 30_000), waitForPort(PORTS.console, 30_000)]);
  writePids();

  const base = `http://127.0.0.1:${PORTS.dataPlane}/v1`;
  const consoleUrl = `http://127.0.0.1:${PORTS.console}`;
  // A one-time sign-in link for the demo org's admin (15 minutes; gatewayctl console link mints more).
  const admin = createClient(adminService(), `127.0.0.1:${PORTS.control}`, { timeoutMs: 10_000, metadata: bearer(adminToken) });
  const link = await admin.CreateSignInLink({ org: "demo", email: "admin@demo.example", role: "admin" });
  // And one for an operator (every organization, top-ups, the catalog, provider health).
  const operatorLink = await admin.CreateSignInLink({ org: "", email: "operator@gateway.example", role: "operator" });
  admin.close();
  const signinUrl = `${consoleUrl}/signin?token=${link.token}`;
  const operatorUrl = `${consoleUrl}/signin?token=${operatorLink.token}`;
  writeFileSync(
    demoEnvPath,
    demoEnvText({ GATEWAY_BASE_URL: base, GATEWAY_API_KEY: seeded.secret, CONSOLE_URL: consoleUrl, CONSOLE_SIGNIN_URL: signinUrl, CONSOLE_OPERATOR_SIGNIN_URL: operatorUrl }),
    { mode: 0o600 },
  );
  console.log(`
────────────────────────────────────────────────────────────────────────
 Gateway is up.   Base URL: ${base}
 Demo key:        ${seeded.secret}
 Console:         ${signinUrl}
                  (one-time sign-in for the demo org's admin, 15 minutes; more: bin/gatewayctl console link)
 Operator:        ${operatorUrl}
 \`source .local/demo.env\` exports GATEWAY_BASE_URL and GATEWAY_API_KEY for the README's examples
 (admin token for bin/gatewayctl in .local/admin.env; NATS users and passwords in
  .local/nats-auth/, the operators' one is admin)

 curl ${base}/chat/completions \\
   -H "Authorization: Bearer ${seeded.secret}" -H "Content-Type: application/json" \\
   -d '{"model":"gw-chat-mini","messages":[{"role":"user","content":"Hello gateway"}]}'

 // OpenAI SDK (node):
 import OpenAI from "openai";
 const client = new OpenAI({ baseURL: "${base}", apiKey: "${seeded.secret}" });
 const r = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "Hello" }] });
 console.log(r.choices[0].message.content);

 Ctrl-C stops everything.
────────────────────────────────────────────────────────────────────────`);
}

const cmd = process.argv[2];
if (cmd === "down") await down();
else if (cmd === "up")
  await up().catch(async (err: unknown) => {
    console.error("make up failed:", err);
    await shutdown(1);
  });
else {
  console.error("usage: node scripts/local-stack.ts up|down");
  process.exit(2);
}
