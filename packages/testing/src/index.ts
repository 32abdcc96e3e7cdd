import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, chownSync, writeFileSync, readFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/**
 * Real infrastructure for tests and the local stack: a PostgreSQL 15 server and a nats-server with
 * JetStream, started on loopback from the machine's binaries. No stand-ins.
 */

/**
 * The first port of the kernel's ephemeral range (outgoing connections take their local ports from
 * it), read once: ports handed out for a service to bind later stay below it.
 */
const EPHEMERAL_LOW = (() => {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
})();
const PORTS_FROM = 20_000;
/** Ports this process handed out: never handed out twice. */
const handedOut = new Set<number>();

function listens(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(undefined));
    srv.listen(port, "127.0.0.1", () => {
      const addr = srv.address();
      const bound = typeof addr === "object" && addr ? addr.port : undefined;
      srv.close(() => resolve(bound));
    });
  });
}

/**
 * A loopback port free now, for a process that binds it later. Taken below the ephemeral range:
 * one from listen(0) lies inside it, where any outgoing connection of this machine (a test's client
 * of Postgres or NATS) may take it as its local port before the service binds it (EADDRINUSE).
 */
export async function freePort(): Promise<number> {
  const span = EPHEMERAL_LOW - PORTS_FROM;
  for (let i = 0; span > 0 && i < 100; i++) {
    const port = PORTS_FROM + Math.floor(Math.random() * span);
    if (handedOut.has(port) || (await listens(port)) === undefined) continue;
    handedOut.add(port);
    return port;
  }
  const port = await listens(0);
  if (port === undefined) throw new Error("no free loopback port");
  return port;
}

export async function waitForPort(port: number, timeoutMs: number, host = "127.0.0.1"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const sock = connect({ port, host });
      sock.once("connect", () => {
        sock.destroy();
        resolve(true);
      });
      sock.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`port ${port} did not open within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const PG_BIN_DIRS = ["/usr/lib/postgresql/15/bin", "/usr/local/bin", "/usr/bin"];
/** A Postgres program (initdb, postgres, psql) from the machine's installation. */
export function pgBin(name: string): string {
  for (const dir of PG_BIN_DIRS) if (existsSync(join(dir, name))) return join(dir, name);
  return name;
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
function pgUser(): { uid: number; gid: number } | undefined {
  if (!isRoot) return undefined;
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
  return { uid, gid };
}

export interface ManagedProcess {
  readonly pid: number;
  /** Resolves when the process ends, however it ends (stop(), a crash, a kill by someone else). */
  readonly exited: Promise<void>;
  stop(): Promise<void>;
}

function manage(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): ManagedProcess {
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  return {
    pid: child.pid ?? -1,
    exited: ended() ? Promise.resolve() : new Promise<void>((resolve) => child.once("exit", () => resolve())),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill(signal);
      }),
  };
}

export interface PostgresHandle extends ManagedProcess {
  port: number;
  /** Connection string of the `postgres` database as the `postgres` superuser. */
  url: string;
  dataDir: string;
}

export interface StartPostgresOptions {
  /** Keep data here (created when missing); default: a fresh temp dir removed on stop. */
  dataDir?: string;
  port?: number;
  /** Durable settings (fsync on) for the local stack; tests run with fsync off. */
  durable?: boolean;
  log?: (line: string) => void;
}

export async function startPostgres(opts: StartPostgresOptions = {}): Promise<PostgresHandle> {
  const temp = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "gw-pg-"));
  const user = pgUser();
  mkdirSync(dataDir, { recursive: true });
  if (user) chownSync(dataDir, user.uid, user.gid);
  const asPg = { ...(user ?? {}), stdio: "pipe" as const };
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    execFileSync(pgBin("initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-instructions"], asPg);
  }
  const port = opts.port ?? (await freePort());
  const args = ["-D", dataDir, "-p", String(port), "-h", "127.0.0.1", "-k", dataDir, "-c", "max_connections=200"];
  if (!opts.durable) args.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  const child = spawn(pgBin("postgres"), args, { ...(user ?? {}), stdio: ["ignore", "pipe", "pipe"] });
  const log = opts.log;
  child.stdout?.on("data", (d: Buffer) => log?.(d.toString()));
  child.stderr?.on("data", (d: Buffer) => log?.(d.toString()));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}`);
    try {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.end();
      break;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const managed = manage(child, "SIGINT");
  return {
    ...managed,
    port,
    url,
    dataDir,
    stop: async () => {
      await managed.stop();
      if (temp) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const templates = new Map<string, Promise<string>>();

/**
 * The name of a database `make` prepared (a service's migrations, run on its URL), made once per
 * process and `key`, for createDatabase(…, template) to copy: copying one takes ~0.1 s where
 * migrating it took ~1 s, for every suite a worker runs.
 */
export function templateDatabase(serverUrl: string, key: string, make: (url: string) => Promise<void>): Promise<string> {
  let made = templates.get(key);
  if (!made) {
    const name = `template_${key}_${process.pid}`;
    made = createDatabase(serverUrl, name).then(async (url) => {
      await make(url);
      return name;
    });
    // A failure fails the suite that asked; the next one tries again.
    made.catch(() => templates.delete(key));
    templates.set(key, made);
  }
  return made;
}

/**
 * Creates a database on the server (dropping one of that name first) and returns its URL: empty, or
 * a copy of the database `template` (which nothing may be connected to meanwhile).
 */
export async function createDatabase(serverUrl: string, name: string, template?: string): Promise<string> {
  const safe = name.replace(/[^a-z0-9_]/gi, "_").toLowerCase();
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${safe}" WITH (FORCE)`);
    await c.query(template ? `CREATE DATABASE "${safe}" TEMPLATE "${template.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}"` : `CREATE DATABASE "${safe}"`);
  } finally {
    await c.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${safe}`;
  return u.toString();
}

export interface NatsHandle extends ManagedProcess {
  port: number;
  url: string;
  storeDir: string;
  /** The HTTP monitoring endpoint (/jsz, /healthz), when started with `monitorPort`. */
  monitorUrl?: string;
}

export interface StartNatsOptions {
  storeDir?: string;
  port?: number;
  /** Serve the HTTP monitoring endpoint on this port (`-m`). */
  monitorPort?: number;
  /**
   * A nats-server configuration file (`-c`), such as the one scripts/lib/nats-auth.ts writes with
   * the services' users and permissions; the address, port and store given here win over it.
   */
  configFile?: string;
  /** Added to nats-server's environment (the passwords a configuration file reads from it). */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

/** One nats-server process with JetStream on loopback; `extra` adds arguments (cluster routes, a configuration file). */
async function spawnNats(port: number, storeDir: string, removeStore: boolean, extra: string[], log?: (line: string) => void, env?: Record<string, string>): Promise<NatsHandle> {
  const child = spawn("nats-server", ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir, ...extra], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  child.stdout?.on("data", (d: Buffer) => log?.(d.toString()));
  child.stderr?.on("data", (d: Buffer) => log?.(d.toString()));
  const managed = manage(child);
  return {
    ...managed,
    port,
    url: `nats://127.0.0.1:${port}`,
    storeDir,
    stop: async () => {
      await managed.stop();
      if (removeStore) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** nats-server with JetStream (file storage) on loopback. */
export async function startNats(opts: StartNatsOptions = {}): Promise<NatsHandle> {
  const storeDir = opts.storeDir ?? mkdtempSync(join(tmpdir(), "gw-nats-"));
  mkdirSync(storeDir, { recursive: true });
  // The last of its output, to say why when it exits instead of listening (a bad configuration file).
  const output: string[] = [];
  const log = (line: string) => {
    output.push(line);
    if (output.length > 20) output.shift();
    opts.log?.(line);
  };
  const extra = [...(opts.configFile ? ["-c", opts.configFile] : []), ...(opts.monitorPort ? ["-m", String(opts.monitorPort)] : [])];
  const spawned = await spawnNats(opts.port ?? (await freePort()), storeDir, !opts.storeDir, extra, log, opts.env);
  const handle = opts.monitorPort ? { ...spawned, monitorUrl: `http://127.0.0.1:${opts.monitorPort}` } : spawned;
  const exited = handle.exited.then(() => {
    throw new Error(`nats-server exited before listening: ${output.join("").trim()}`);
  });
  exited.catch(() => undefined);
  await Promise.race([waitForPort(handle.port, 15_000), exited]);
  return handle;
}

export interface NatsClusterHandle {
  nodes: NatsHandle[];
  /** Every node's client URL, comma-separated (what the services take). */
  url: string;
  stop(): Promise<void>;
  /**
   * Starts node `i` again, stopped before, on its ports and under its name, with an empty store (a
   * node's stop removes its store: its volume is lost). It rejoins the cluster as the same peer.
   */
  restart(i: number): Promise<NatsHandle>;
}

/**
 * A JetStream cluster of `size` nats-servers on loopback (routes between all of them), for
 * replicated streams. Resolves once every node accepts clients; JetStream may need a few more
 * seconds to elect its meta leader.
 */
export async function startNatsCluster(size = 3, opts: { log?: (line: string) => void } = {}): Promise<NatsClusterHandle> {
  const name = `gw-${process.pid}-${Date.now()}`;
  const clusterPorts = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routes = clusterPorts.map((p) => `nats://127.0.0.1:${p}`).join(",");
  const nodes: NatsHandle[] = [];
  const routings: string[][] = [];
  for (let i = 0; i < size; i++) {
    routings.push(["-n", `${name}-${i}`, "--cluster_name", name, "--cluster", `nats://127.0.0.1:${clusterPorts[i]}`, "--routes", routes]);
    nodes.push(await spawnNats(await freePort(), mkdtempSync(join(tmpdir(), "gw-nats-c-")), true, routings[i]!, opts.log));
  }
  for (const n of nodes) await waitForPort(n.port, 15_000);
  return {
    nodes,
    url: nodes.map((n) => n.url).join(","),
    stop: async () => {
      await Promise.all(nodes.map((n) => n.stop()));
    },
    restart: async (i) => {
      const old = nodes[i]!;
      mkdirSync(old.storeDir, { recursive: true });
      nodes[i] = await spawnNats(old.port, old.storeDir, true, routings[i]!, opts.log);
      await waitForPort(old.port, 15_000);
      return nodes[i]!;
    },
  };
}

/** Polls `check` until it returns a value other than undefined, or throws after timeoutMs. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 5_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms${lastErr ? `: ${String(lastErr)}` : ""}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * `work`, or an error naming `what` once `timeoutMs` passed without it: a step that hangs fails with
 * its name instead of running the test into its timeout (which names no step).
 */
export async function within<T>(what: string, work: Promise<T>, timeoutMs = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Small file-based key/value for the local stack (.local/*.json). */
export function readJsonFile<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return undefined;
  }
}
export function writeJsonFile(path: string, value: unknown): void {
  writeFileSync(path, JSON.stringify(value, null, 2) + "\n");
}

/** The PostgreSQL server started by the vitest global setup (tests/support/global-setup.ts). */
export function testPgUrl(): string {
  const url = process.env.TEST_PG_URL;
  if (!url) throw new Error("TEST_PG_URL is not set: run the tests with `pnpm vitest run` from the repository root");
  return url;
}

export { mp4File, pdfFile } from "./media-files.js";
