import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import OpenAI from "openai";
import { sql } from "@gateway/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { firing, samples } from "../support/alerts.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * The USAGE stream sized from its replay window and the node's store, and watched (issue 37;
 * docs/operations.md, "Streams: sizing and retention" and "Watching the streams"). A store of
 * 256 KiB sized for 1 request/s over a 2-minute window gives USAGE a limit of ~224 KiB; a few hundred
 * requests at full speed overflow it: it discards its oldest (applied) events, every request is
 * still answered and billed, and the metrics and the alert say the window is at risk.
 */
const root = resolve(import.meta.dirname, "../..");
const REQUESTS = 400;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack("stream_sizing", {
    ledgerEnv: {
      LEDGER_NATS_STORE_BYTES: "256KiB",
      LEDGER_NATS_RESERVED_BYTES: "0",
      LEDGER_STATED_REQUESTS_PER_SECOND: "1",
      LEDGER_USAGE_REPLAY_WINDOW: "2m",
      LEDGER_JOURNAL_REPLAY_WINDOW: "2m",
      LEDGER_STREAM_WATCH_INTERVAL_MS: "200",
    },
  });
});
afterAll(async () => {
  await stack?.stop();
});

const metrics = async () => (await fetch(`http://127.0.0.1:${stack.ledger().opsPort}/metrics`)).text();
/** The value of gauge `name` whose labels include `label`. */
const gauge = (text: string, name: string, label: Record<string, string>) => samples(text, name).find((s) => Object.entries(label).every(([k, v]) => s.labels[k] === v))?.value;

describe("the USAGE stream at its byte limit", () => {
  it("discards its oldest applied events instead of refusing publishes: no request fails, every one is billed, and the window-at-risk alert fires", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    const limit = stack.ledger().ctx.config.streams.usage.maxBytes;
    expect(limit).toBeGreaterThan(200 * 1024);
    expect(limit).toBeLessThan(256 * 1024);
    // (LEDGER's few hundred bytes may already be at risk: seeding published to it at full speed.)
    expect(firing("GatewayStreamWindowAtRisk", await metrics())).not.toContain("USAGE");

    const statuses: number[] = [];
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < REQUESTS) {
          const n = next++;
          const { response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: `filling ${n}` }] }).withResponse();
          statuses.push(response.status);
          ids.push(response.headers.get("x-gateway-trace-id")!);
        }
      }),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    // The stream sits at its limit, having dropped its oldest events; the window-at-risk alert fires for USAGE.
    const text = await eventually(
      async () => {
        const t = await metrics();
        return firing("GatewayStreamWindowAtRisk", t).includes("USAGE") ? t : undefined;
      },
      10_000,
      "the window-at-risk alert",
    );
    expect(gauge(text, "ledger_stream_max_bytes", { stream: "USAGE" })).toBe(limit);
    const bytes = gauge(text, "ledger_stream_bytes", { stream: "USAGE" })!;
    expect(bytes).toBeLessThanOrEqual(limit);
    // Full, less the room of the oldest messages dropped (a message may carry up to 64 events).
    expect(bytes).toBeGreaterThan(limit * 0.5);
    const info = await (await import("@nats-io/jetstream")).jetstreamManager(stack.ledger().ctx.nats!).then((jsm) => jsm.streams.info("USAGE"));
    expect(info.state.first_seq).toBeGreaterThan(1);
    expect(gauge(text, "ledger_stream_replay_window_seconds", { stream: "USAGE" })).toBe(120);
    expect(gauge(text, "ledger_stream_quorum", { stream: "USAGE" })).toBe(1);
    // The node's store, read from its monitoring endpoint.
    const node = new URL(stack.nats.monitorUrl!).host;
    expect(gauge(text, "ledger_nats_monitor_up", { node })).toBe(1);
    expect(gauge(text, "ledger_nats_store_used_bytes", { node })).toBeGreaterThan(bytes);
    expect(gauge(text, "ledger_nats_store_max_bytes", { node })).toBeGreaterThan(0);
    expect(firing("GatewayNatsStoreFilling", text)).toEqual([]);

    // What was discarded had been applied: every request has its record, and no unapplied event was at risk.
    const records = await eventually(
      async () => {
        const r = await sql<{ n: string }>`SELECT count(*) AS n FROM ledger.usage_records WHERE request_id = ANY(${ids})`.execute(stack.ledger().db);
        return Number(r.rows[0]!.n) === REQUESTS ? REQUESTS : undefined;
      },
      15_000,
      "every request billed",
    );
    expect(records).toBe(REQUESTS);
    expect(firing("GatewayUsageDiscardingUnapplied", await metrics())).toEqual([]);
  });

  it("with the consumer stopped, the stream at its limit with unapplied events at its head pages: the next publishes discard unbilled usage", async () => {
    await stack.stopLedger();
    await stack.startLedger({ LEDGER_CONSUME: "false" });
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < REQUESTS) {
          next++;
          await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "nobody applies this" }] });
        }
      }),
    );
    await eventually(async () => (firing("GatewayUsageDiscardingUnapplied", await metrics()).length > 0 ? true : undefined), 10_000, "the discarding-unapplied alert");
    await stack.stopLedger();
    await stack.startLedger();
  });
});

describe("a replay window that cannot fit the node's store", () => {
  it("stops the ledger at start with the numbers: what the windows need, what the store gives, what would fit", () => {
    const r = spawnSync(process.execPath, ["apps/ledger/dist/main.js"], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        LEDGER_DATABASE_URL: "postgres://127.0.0.1:1/never",
        LEDGER_ADMIN_TOKEN: "0123456789abcdef",
        LEDGER_USAGE_REPLAY_WINDOW: "7d",
        LEDGER_JOURNAL_REPLAY_WINDOW: "7d",
        LEDGER_STATED_REQUESTS_PER_SECOND: "100",
        LEDGER_NATS_STORE_BYTES: "20Gi",
      },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("invalid ledger configuration");
    expect(r.stderr).toContain("USAGE 168 h (LEDGER_USAGE_REPLAY_WINDOW) and LEDGER 168 h (LEDGER_JOURNAL_REPLAY_WINDOW) at 100 requests/s");
    // With the refusal records USAGE holds beside the requests: a tenth of them unless stated (10 a second at 700 bytes).
    expect(r.stderr).toContain("need 82.4 GiB + 2.3 GiB");
    expect(r.stderr).toContain("USAGE also 10 refusal records/s (LEDGER_STATED_REFUSALS_PER_SECOND) at 700 bytes");
    expect(r.stderr).toContain("shorten LEDGER_USAGE_REPLAY_WINDOW to 28h at most, or give each NATS node a store (max_file_store and its volume) of 97 GiB or more");
  });
});
