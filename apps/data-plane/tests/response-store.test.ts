import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstreamManager } from "@nats-io/jetstream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@gateway/observability";
import { startNats, type NatsHandle } from "@gateway/testing";
import { ResponseStore } from "../src/responses/store.js";

/** The RESPONSES bucket against a real nats-server: its bounds as an operator configures them. */
let nats: NatsHandle;
let nc: NatsConnection;
const log = createLogger({ service: "test", level: "silent" });

beforeAll(async () => {
  nats = await startNats();
  nc = await connect({ servers: nats.url });
});
afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

const SECRET = "response-store-test-secret-0123456789";
const record = (n: number) => ({ org_id: "org_store", response: { id: `resp_${n}`, object: "response", output: [], padding: "x".repeat(900) }, messages: [] });

describe("responses store", () => {
  it("stops storing (store: false) once the bucket's total bound is reached, keeps what it stored, and takes the configured bound on an existing bucket", async () => {
    const store = new ResponseStore({ retentionMs: 3_600_000, replicas: 1, maxBytes: 64 * 1024, bucketMaxBytes: 64 * 1024, timeoutMs: 2_000, secret: SECRET, plaintextBeforeMs: 0, log });
    store.attach(nc);
    const results: boolean[] = [];
    for (let n = 0; n < 120; n++) results.push(await store.put(record(n)));
    const stored = results.filter(Boolean).length;
    // ~1 KiB records in a 64 KiB bucket: some fit, then every write is refused, none evicts an older one.
    expect(stored).toBeGreaterThan(20);
    expect(stored).toBeLessThan(120);
    expect(results.slice(stored).every((r) => !r)).toBe(true);
    expect(await store.get("org_store", "resp_0")).toMatchObject({ found: true });
    expect(await store.get("org_store", `resp_${stored}`)).toEqual({ found: false });

    // A replica configured with a larger bound brings the existing bucket to it, and stores again.
    const larger = new ResponseStore({ retentionMs: 3_600_000, replicas: 1, maxBytes: 64 * 1024, bucketMaxBytes: 1024 * 1024, timeoutMs: 2_000, secret: SECRET, plaintextBeforeMs: 0, log });
    larger.attach(nc);
    expect(await larger.put(record(500))).toBe(true);
    const info = await (await jetstreamManager(nc)).streams.info("KV_RESPONSES");
    expect(info.config.max_bytes).toBe(1024 * 1024);
  });
});
