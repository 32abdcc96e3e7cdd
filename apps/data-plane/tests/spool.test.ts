import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { USAGE_BATCH_SUBJECT, USAGE_STREAM, USAGE_STREAM_SUBJECTS, USAGE_SUBJECT, usageMessageEvents, type UsageEventV1 } from "@gateway/events";
import { Counter, Histogram, createLogger, createMetricsRegistry } from "@gateway/observability";
import { eventually, startNats, type NatsHandle } from "@gateway/testing";
import { UsagePublisher } from "../src/usage/publisher.js";
import { JetStreamPublish, type AckedPublisher } from "../src/usage/jetstream-publish.js";
import { UsageSpool } from "../src/usage/spool.js";

/**
 * The usage spool as an operator relies on it: real files in a temp folder, a real nats-server
 * (stopped and restarted on the same port and store), other processes on the same folder.
 */
// The built module: a second, real Node process loads it to race this one over a directory.
const SPOOL_MODULE = fileURLToPath(new URL("../dist/usage/spool.js", import.meta.url));
const SECOND_NS = 1_000_000_000;

let storeDir: string;
let nats: NatsHandle;
let nc: NatsConnection;
/** The data-plane's own acknowledged publish, on the test's connection. */
let js: JetStreamPublish;
let jsm: JetStreamManager;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  storeDir = mkdtempSync(join(tmpdir(), "gw-spool-nats-"));
  nats = await startNats({ storeDir });
  nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  js = new JetStreamPublish(nc);
  jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: USAGE_STREAM, subjects: USAGE_STREAM_SUBJECTS, duplicate_window: 120 * SECOND_NS });
});

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

afterAll(async () => {
  await nc?.close();
  await nats?.stop();
  rmSync(storeDir, { recursive: true, force: true });
});

async function stopNats(): Promise<void> {
  await nats.stop();
}

/** The same server again: same port, same JetStream store (the stream and its messages survive). */
async function restartNats(): Promise<void> {
  nats = await startNats({ port: nats.port, storeDir });
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "gw-spool-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function event(requestId: string): UsageEventV1 {
  return {
    version: 1,
    request_id: requestId,
    org_id: "org_spool",
    key_id: "key_spool",
    model: "gw-chat-mini",
    route: "chat",
    provider: "fake",
    upstream_model: "fake-mini",
    lease_id: "lease_spool",
    usage: { input_tokens: 3, output_tokens: 5, cached_input_tokens: 0, estimated: false },
    input_price_minor_per_mtok: 1_000,
    output_price_minor_per_mtok: 2_000,
    cost_minor: 1,
    line_items: [],
    guardrails: [],
    attempts: [],
    stream: false,
    status: 200,
    created_at_ms: Date.now(),
    duration_ms: 12,
  };
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `req_${prefix}_${i}`);
const line = (id: string) => JSON.stringify(event(id));

/** Request ids in the USAGE stream starting with `prefix`, sorted (one entry per stored event), and the messages that held them. */
async function streamContents(prefix: string): Promise<{ ids: string[]; messages: number; batches: number }> {
  const si = await jsm.streams.info(USAGE_STREAM);
  const found: string[] = [];
  let messages = 0;
  let batches = 0;
  for (let seq = si.state.first_seq; si.state.messages > 0 && seq <= si.state.last_seq; seq++) {
    const m = await jsm.streams.getMessage(USAGE_STREAM, { seq });
    if (!m) continue;
    const mine = usageMessageEvents(m.subject, m.data)
      .map((e) => (JSON.parse(new TextDecoder().decode(e)) as { request_id: string }).request_id)
      .filter((id) => id.startsWith(prefix));
    if (mine.length === 0) continue;
    messages++;
    if (m.subject === USAGE_BATCH_SUBJECT) batches++;
    // A single event (and every replay) carries its request id as message id: JetStream drops a second copy.
    else expect(m.header.get("Nats-Msg-Id")).toBe(mine[0]);
    found.push(...mine);
  }
  return { ids: found.sort(), messages, batches };
}
const idsInStream = async (prefix: string) => (await streamContents(prefix)).ids;

/** Every name in the folder (spool files and locks). */
const entries = (dir: string) => readdirSync(dir).sort();
const spoolFiles = (dir: string) => entries(dir).filter((n) => n.startsWith("usage-") && n.endsWith(".jsonl"));
const spooledIds = (dir: string) =>
  spoolFiles(dir).flatMap((f) =>
    readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => (JSON.parse(l) as { request_id: string }).request_id),
  );

interface LogLine {
  level: string;
  msg: string;
  [k: string]: unknown;
}

interface Setup {
  spool: UsageSpool;
  publisher: UsagePublisher;
  logs: LogLine[];
  count(result: "acked" | "spooled" | "replayed" | "dead_lettered"): Promise<number>;
  skipped(): Promise<number>;
}

function setup(
  dir: string,
  opts: { replicaId?: string; js?: () => AckedPublisher | undefined; batchEvents?: number; maxEvents?: number; lockStaleMs?: number; now?: () => number; rescanMs?: number } = {},
): Setup {
  const logs: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split("\n")) if (l.trim()) logs.push(JSON.parse(l) as LogLine);
      cb();
    },
  });
  const log = createLogger({ service: "data-plane", level: "info", destination: sink });
  const registry = createMetricsRegistry("data-plane", false);
  const published = new Counter({ name: "gateway_usage_events_total", help: "h", labelNames: ["result"], registers: [registry] });
  const skippedLines = new Counter({ name: "gateway_usage_spool_skipped_lines_total", help: "h", registers: [registry] });
  const spool = new UsageSpool({
    dir,
    replicaId: opts.replicaId ?? "dp-test",
    maxEvents: opts.maxEvents ?? 1_000,
    log,
    skippedLines,
    ...(opts.lockStaleMs !== undefined ? { lockStaleMs: opts.lockStaleMs } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.rescanMs !== undefined ? { rescanMs: opts.rescanMs } : {}),
  });
  const publishBatch = new Histogram({ name: "gateway_usage_publish_batch_events", help: "h", registers: [registry] });
  const publisher = new UsagePublisher(opts.js ?? (() => js), spool, log, 300, { published, publishBatch }, opts.batchEvents);
  // Stopping twice is harmless: a test may stop it itself.
  cleanups.push(() => publisher.stop(0));
  return {
    spool,
    publisher,
    logs,
    count: async (result) => (await published.get()).values.find((v) => v.labels.result === result)?.value ?? 0,
    skipped: async () => (await skippedLines.get()).values[0]?.value ?? 0,
  };
}

interface SpoolProcess {
  /** Files the process holds after opening the spool (and appending its events). */
  files: string[];
  /** SIGKILL: the process dies holding its locks. */
  kill(): Promise<void>;
}

/**
 * Another data-plane process on the same folder: it opens the spool (taking over what it can),
 * appends `events` (NATS unreachable), reports the files it holds and stays alive until killed.
 */
async function spoolProcess(dir: string, replicaId: string, o: { events?: string[]; fileMaxEvents?: number } = {}): Promise<SpoolProcess> {
  const script = `
    const { UsageSpool } = await import(process.env.SPOOL_MODULE);
    const quiet = { info() {}, warn() {}, error() {}, debug() {} };
    const spool = new UsageSpool({ dir: process.env.SPOOL_DIR, replicaId: process.env.SPOOL_REPLICA, maxEvents: 1000, log: quiet, fileMaxEvents: Number(process.env.SPOOL_FILE_MAX) });
    await spool.open();
    for (const line of JSON.parse(process.env.SPOOL_EVENTS)) await spool.append(line);
    process.stdout.write(JSON.stringify({ files: spool.files }) + "\\n");
    setInterval(() => {}, 60_000);
  `;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    SPOOL_MODULE,
    SPOOL_DIR: dir,
    SPOOL_REPLICA: replicaId,
    SPOOL_EVENTS: JSON.stringify(o.events ?? []),
    SPOOL_FILE_MAX: String(o.fileMaxEvents ?? 10_000),
  };
  const child = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "--input-type=module", "-e", script], { env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  cleanups.push(kill);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const files = await new Promise<string[]>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve((JSON.parse(out.slice(0, nl)) as { files: string[] }).files);
    });
    child.once("exit", (c) => reject(new Error(`spool process exited (${c}): ${stderr}`)));
  });
  return { files: files.sort(), kill };
}

describe("usage spool", () => {
  it("does no file I/O while NATS acknowledges and the spool is empty", async () => {
    const dir = tempDir();
    const s = setup(dir);
    await s.publisher.start();
    for (const id of ids("hot", 20)) await s.publisher.publish(event(id));
    expect(await s.count("acked")).toBe(20);
    expect(entries(dir)).toEqual([]);
    expect(await idsInStream("req_hot_")).toEqual(ids("hot", 20).sort());
  });

  it("publishes events finished together as batch messages, and each caller resumes only once its event is acknowledged", async () => {
    const dir = tempDir();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let publishes = 0;
    // JetStream answers only once the gate opens: no caller may resume before that.
    const held: AckedPublisher = {
      publish: async (...args) => {
        publishes++;
        const ack = await js.publish(...args);
        await gate;
        return ack;
      },
    };
    const s = setup(dir, { js: () => held });
    await s.publisher.start();
    let resumed = 0;
    const all = Promise.all(ids("together", 40).map((id) => s.publisher.publish(event(id)).then(() => resumed++)));
    await eventually(async () => ((await streamContents("req_together_")).ids.length === 40 ? true : undefined), 15_000, "all events stored");
    expect(resumed).toBe(0);
    release();
    await all;
    expect(resumed).toBe(40);
    expect(await s.count("acked")).toBe(40);
    const stored = await streamContents("req_together_");
    // Each event stored once; far fewer messages (and acknowledgements) than events.
    expect(stored.ids).toEqual(ids("together", 40).sort());
    expect(stored.batches).toBeGreaterThan(0);
    expect(stored.messages).toBeLessThan(40);
    expect(publishes).toBe(stored.messages);
    expect(entries(dir)).toEqual([]);
  });

  it("sends one usage.v1.recorded message per event when batches are off (ledgers that predate usage.v1.batch)", async () => {
    const s = setup(tempDir(), { batchEvents: 1 });
    await s.publisher.start();
    await Promise.all(ids("single", 12).map((id) => s.publisher.publish(event(id))));
    const stored = await streamContents("req_single_");
    expect(stored.ids).toEqual(ids("single", 12).sort());
    // Every message a single event with its request id as message id (checked by streamContents).
    expect(stored.batches).toBe(0);
    expect(stored.messages).toBe(12);
  });

  it("fails a publish no stream stores at once (not after its timeout), and any publish on a closed connection", async () => {
    // A minute's timeout: waiting for it would fail the test by its own time limit.
    await expect(js.publish("nostream.usage", "{}", { timeout: 60_000 })).rejects.toThrow(/no responders/);
    const own = await connect({ servers: nats.url });
    const p = new JetStreamPublish(own);
    await p.publish(USAGE_SUBJECT, JSON.stringify(event("req_own_0")), { msgID: "req_own_0", timeout: 60_000 });
    await own.close();
    await expect(p.publish(USAGE_SUBJECT, "{}", { timeout: 60_000 })).rejects.toThrow(/closed/);
    expect(await idsInStream("req_own_")).toEqual(["req_own_0"]);
  });

  it("puts an event on disk while NATS is unreachable and publishes it once NATS is back", async () => {
    const dir = tempDir();
    const s = setup(dir);
    await s.publisher.start();
    await stopNats();
    try {
      await s.publisher.publish(event("req_outage_0"));
      await s.publisher.publish(event("req_outage_1"));
      expect(await s.count("spooled")).toBe(2);
      expect(s.publisher.spooled).toBe(2);
      // publish() resolved, so the events are in a spool file already.
      expect(spooledIds(dir)).toEqual(["req_outage_0", "req_outage_1"]);
    } finally {
      await restartNats();
    }
    await eventually(() => (entries(dir).length === 0 ? true : undefined), 20_000, "spool replayed and removed");
    expect(await idsInStream("req_outage_")).toEqual(["req_outage_0", "req_outage_1"]);
    expect(await s.count("replayed")).toBe(2);
    expect(s.publisher.spooled).toBe(0);
  });

  it("sets aside an event JetStream refuses for its size in the dead-letter file, live or from the spool, and publishes the events behind it", async () => {
    // The stream takes messages up to 4 KiB here; the large event (long guardrail names) is ~7 KiB.
    const config = (await jsm.streams.info(USAGE_STREAM)).config;
    await jsm.streams.update(USAGE_STREAM, { ...config, max_msg_size: 4096 });
    const large = (id: string): UsageEventV1 => ({
      ...event(id),
      guardrails: Array.from({ length: 50 }, (_, i) => ({ plugin: "pii", name: `rule-${i}-${"x".repeat(120)}`, outcome: "pass" as const })),
    });
    const dir = tempDir();
    const s = setup(dir);
    await s.publisher.start();
    try {
      // Live: the caller resumes once the event is on disk in the dead-letter file.
      await s.publisher.publish(large("req_dead_live"));
      const deadIds = () =>
        readFileSync(join(dir, "dead-letter.jsonl"), "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { reason: string; event: UsageEventV1 });
      expect(deadIds().map((d) => d.event.request_id)).toEqual(["req_dead_live"]);
      expect(deadIds()[0]!.reason).toMatch(/message size exceeds maximum/i);
      // The whole event, as it would have been published: an operator can publish it by hand.
      expect(deadIds()[0]!.event.guardrails).toHaveLength(50);
      expect(await idsInStream("req_dead_live")).toEqual([]);
      await s.publisher.publish(event("req_dead_after_0"));
      expect(await idsInStream("req_dead_after_")).toEqual(["req_dead_after_0"]);

      // From the spool: the refused event sits between two others; the replay sets it aside and goes on.
      await stopNats();
      try {
        await s.publisher.publish(event("req_dead_spool_0"));
        await s.publisher.publish(large("req_dead_spool_big"));
        await s.publisher.publish(event("req_dead_spool_2"));
        expect(spooledIds(dir)).toEqual(["req_dead_spool_0", "req_dead_spool_big", "req_dead_spool_2"]);
      } finally {
        await restartNats();
      }
      await eventually(() => (s.publisher.spooled === 0 && spoolFiles(dir).length === 0 ? true : undefined), 20_000, "spool replayed past the refused event");
      expect(await idsInStream("req_dead_spool_")).toEqual(["req_dead_spool_0", "req_dead_spool_2"]);
      expect(deadIds().map((d) => d.event.request_id)).toEqual(["req_dead_live", "req_dead_spool_big"]);
      expect(await s.count("dead_lettered")).toBe(2);
      expect(s.logs.some((l) => l.level === "error" && l.msg.includes("dead-lettered") && l.request_id === "req_dead_spool_big")).toBe(true);
    } finally {
      await jsm.streams.update(USAGE_STREAM, { ...config, max_msg_size: -1 });
    }
  });

  it("replays the files of a dead predecessor (another replica id) on start, each event once, then removes them", async () => {
    const dir = tempDir();
    const predecessor = await spoolProcess(dir, "dp-old", { events: ids("pred", 3).map(line) });
    expect(predecessor.files).toHaveLength(1);
    await predecessor.kill();
    // A file left by an older version, named after its replica and without a lock.
    writeFileSync(join(dir, "usage-dp-older.jsonl"), ids("older", 2).map(line).join("\n") + "\n");

    const s = setup(dir, { replicaId: "dp-new" });
    await s.publisher.start();
    await eventually(() => (entries(dir).length === 0 ? true : undefined), 20_000, "predecessor files replayed and removed");
    expect(await idsInStream("req_pred_")).toEqual(ids("pred", 3).sort());
    expect(await idsInStream("req_older_")).toEqual(ids("older", 2).sort());
    expect(await s.count("replayed")).toBe(5);
  });

  it("never lets two processes replay the same file, and takes over the files of a dead holder", async () => {
    const dir = tempDir();
    const writer = await spoolProcess(dir, "dp-old", { events: ids("lock", 6).map(line), fileMaxEvents: 1 });
    expect(writer.files).toHaveLength(6);
    await writer.kill();

    // Two processes start on the folder at once: each file goes to exactly one of them.
    const [a, b] = await Promise.all([spoolProcess(dir, "dp-a"), spoolProcess(dir, "dp-b")]);
    expect(a.files.filter((f) => b.files.includes(f))).toEqual([]);
    expect([...a.files, ...b.files].sort()).toEqual(writer.files);

    // A third one leaves them alone while they live, and takes a holder's files once it is dead.
    let natsReachable = false;
    const c = setup(dir, { replicaId: "dp-c", js: () => (natsReachable ? js : undefined) });
    await c.publisher.start();
    expect(c.spool.files).toEqual([]);
    await a.kill();
    await c.spool.rescan();
    expect(c.spool.files.sort()).toEqual(a.files);
    await b.kill();
    await c.spool.rescan();
    expect(c.spool.files.sort()).toEqual(writer.files);
    expect(c.spool.size).toBe(6);

    natsReachable = true;
    await eventually(() => (entries(dir).length === 0 ? true : undefined), 20_000, "taken-over files replayed and removed");
    expect(await idsInStream("req_lock_")).toEqual(ids("lock", 6).sort());
    expect(await c.count("replayed")).toBe(6);
  });

  it("splits the files between two spools opened at once in one process", async () => {
    const dir = tempDir();
    const writer = await spoolProcess(dir, "dp-old", { events: ids("split", 8).map(line), fileMaxEvents: 1 });
    await writer.kill();
    const unreachable = () => undefined;
    const a = setup(dir, { replicaId: "dp-a", js: unreachable });
    const b = setup(dir, { replicaId: "dp-b", js: unreachable });
    await Promise.all([a.spool.open(), b.spool.open()]);
    expect(a.spool.files.filter((f) => b.spool.files.includes(f))).toEqual([]);
    expect([...a.spool.files, ...b.spool.files].sort()).toEqual(writer.files);
    expect(a.spool.size + b.spool.size).toBe(8);
  });

  it("takes over a lock from another host or container only once its heartbeat has stopped", async () => {
    const dir = tempDir();
    const file = "usage-dp-elsewhere.abc-000001.jsonl";
    writeFileSync(join(dir, file), line("req_foreign_0") + "\n");
    const lock = join(dir, `${file}.lock.0`);
    writeFileSync(lock, JSON.stringify({ replica: "dp-elsewhere", host: "another-node", boot: "another-boot", pidns: "pid:[1]", pid: 1, start: "1", token: "t" }));
    let t = 0;
    const s = setup(dir, { js: () => undefined, lockStaleMs: 30_000, now: () => t, rescanMs: 3_600_000 });
    await s.publisher.start();
    expect(s.spool.files).toEqual([]);
    t += 29_000;
    await s.spool.rescan();
    expect(s.spool.files).toEqual([]);
    // The holder touches its lock: it is alive, whatever the clock says.
    utimesSync(lock, new Date(Date.now() + 5_000), new Date(Date.now() + 5_000));
    t += 29_000;
    await s.spool.rescan();
    expect(s.spool.files).toEqual([]);
    t += 30_000;
    await s.spool.rescan();
    expect(s.spool.files).toEqual([file]);
    expect(entries(dir)).toEqual([file, `${file}.lock.1`]);
  });

  it("skips a torn last line and unparseable lines with a warning, and replays the valid ones", async () => {
    const dir = tempDir();
    const [first, second] = ids("torn", 2) as [string, string];
    const torn = line("req_torn_cut").slice(0, 40);
    writeFileSync(join(dir, "usage-dp-crashed.jsonl"), `${line(first)}\nnot json at all\n${line(second)}\n${torn}`);
    const s = setup(dir);
    await s.publisher.start();
    await eventually(() => (entries(dir).length === 0 ? true : undefined), 20_000, "file replayed and removed");
    expect(await idsInStream("req_torn_")).toEqual([first, second]);
    expect(await s.skipped()).toBe(2);
    const warnings = s.logs.filter((l) => l.level === "warn").map((l) => l.msg);
    expect(warnings).toContain("skipped a torn last line in a usage spool file");
    expect(warnings).toContain("skipped an unparseable line in a usage spool file");
  });

  it("keeps replaying on shutdown while NATS is down and publishes once it returns within the grace period", async () => {
    const dir = tempDir();
    let attempts = 0;
    const s = setup(dir, {
      js: () => {
        attempts++;
        return js;
      },
    });
    await s.publisher.start();
    await stopNats();
    let stopped = false;
    let stopping: Promise<void> | undefined;
    try {
      for (const id of ids("shutdown", 3)) await s.publisher.publish(event(id));
      expect(spooledIds(dir).sort()).toEqual(ids("shutdown", 3).sort());
      stopping = s.publisher.stop(120_000).then(() => void (stopped = true));
      const before = attempts;
      await eventually(() => (attempts >= before + 3 ? true : undefined), 20_000, "replay retried during shutdown");
      expect(stopped).toBe(false);
    } finally {
      await restartNats();
    }
    await stopping;
    expect(await idsInStream("req_shutdown_")).toEqual(ids("shutdown", 3).sort());
    expect(entries(dir)).toEqual([]);
  });

  it("leaves what NATS did not take within the grace period on disk, for the next process to take at once", async () => {
    const dir = tempDir();
    const s = setup(dir, { js: () => undefined });
    await s.publisher.start();
    for (const id of ids("left", 2)) await s.publisher.publish(event(id));
    await s.publisher.stop(1_000);
    // The file stays, its lock is released.
    expect(spooledIds(dir).sort()).toEqual(ids("left", 2).sort());
    expect(entries(dir).filter((n) => n.includes(".lock."))).toEqual([]);

    // The next process counts those events against its own limit before it serves anything.
    const next = setup(dir, { replicaId: "dp-next", maxEvents: 2 });
    await next.spool.open();
    expect(next.spool.size).toBe(2);
    expect(next.publisher.saturated).toBe(true);
    await next.publisher.start();
    await eventually(() => (entries(dir).length === 0 ? true : undefined), 20_000, "left events replayed");
    expect(await idsInStream("req_left_")).toEqual(ids("left", 2).sort());
    expect(next.publisher.saturated).toBe(false);
  });
});
