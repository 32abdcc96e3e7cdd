import { connect, type NatsConnection } from "@nats-io/transport-node";
import { AckPolicy, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager, type JsMsg } from "@nats-io/jetstream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { USAGE_STREAM } from "@gateway/events";
import { startNats, type NatsHandle } from "@gateway/testing";
import { AppliedWatermark } from "./watermark.js";

/**
 * The watermark the hold rule stands on (a closed lease's hold is released only once every usage
 * event published before its settle_after is applied), on a real nats-server: it covers an instant
 * only once every event acknowledged by JetStream before it is acked by the durable, never moves
 * back, stands still while NATS cannot answer, and starts again when the stream is recreated. The
 * clock is the test's, so every instant below is written out.
 */
let nats: NatsHandle;
let nc: NatsConnection;
let jsm: JetStreamManager;
let js: JetStreamClient;
let clock = 0;
const now = () => clock;

async function freshStream(): Promise<void> {
  await jsm.streams.delete(USAGE_STREAM).catch(() => undefined);
  await jsm.streams.add({ name: USAGE_STREAM, subjects: ["wm.>"] });
  await jsm.consumers.add(USAGE_STREAM, { durable_name: "d", ack_policy: AckPolicy.Explicit });
}
const publish = async (n: number) => {
  for (let i = 0; i < n; i++) await js.publish("wm.x", `e${i}`);
};
async function take(n: number): Promise<JsMsg[]> {
  const c = await js.consumers.get(USAGE_STREAM, "d");
  const got: JsMsg[] = [];
  for await (const m of await c.fetch({ max_messages: n, expires: 2_000 })) {
    got.push(m);
    if (got.length === n) break;
  }
  return got;
}
async function ack(msgs: JsMsg[]): Promise<void> {
  for (const m of msgs) await m.ackAck();
}

beforeAll(async () => {
  nats = await startNats();
  nc = await connect({ servers: nats.url });
  jsm = await jetstreamManager(nc);
  js = jetstream(nc);
});
afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});
beforeEach(async () => {
  clock = 1_000;
  await freshStream();
});

describe("the applied watermark", () => {
  it("covers an instant only once every event published before it is acked, in sequence order, and never moves back", async () => {
    const w = new AppliedWatermark(() => jsm, "d", now);
    expect(w.appliedThrough).toBe(0);
    // Nothing published: the instant of the refresh is covered at once.
    await w.refresh();
    expect(w.appliedThrough).toBe(1_000);

    await publish(3);
    clock = 2_000;
    await w.refresh();
    // Three events acknowledged before 2,000 and none applied: 2,000 is not covered.
    expect(w.appliedThrough).toBe(1_000);
    expect(w.pending).toBe(3);

    const [m1, m2, m3] = await take(3);
    // The second and third applied, the first not: the ack floor stays at 0.
    await ack([m2!, m3!]);
    clock = 3_000;
    await w.refresh();
    expect(w.appliedThrough).toBe(1_000);

    await ack([m1!]);
    clock = 4_000;
    await w.refresh();
    // Every event before 4,000 is applied now: the latest covered sample is 4,000's.
    expect(w.appliedThrough).toBe(4_000);
    expect(w.pending).toBe(0);

    // An earlier clock (another refresh racing) never moves it back.
    clock = 2_500;
    await w.refresh();
    expect(w.appliedThrough).toBe(4_000);
  });

  it("stands still while NATS cannot answer (the refresh throws), and covers again once it can", async () => {
    let connected = false;
    const w = new AppliedWatermark(() => (connected ? jsm : undefined), "d", now);
    await expect(w.refresh()).rejects.toThrow(/not connected/);
    expect(w.appliedThrough).toBe(0);
    connected = true;
    clock = 5_000;
    await w.refresh();
    expect(w.appliedThrough).toBe(5_000);
  });

  it("starts again when the stream is recreated: samples of the old sequence no longer hold it back", async () => {
    const w = new AppliedWatermark(() => jsm, "d", now);
    await publish(5);
    clock = 2_000;
    await w.refresh();
    expect(w.appliedThrough).toBe(0);
    // The stream is recreated (its sequence starts again): only its own events count from now on.
    await freshStream();
    await publish(1);
    await ack(await take(1));
    clock = 3_000;
    await w.refresh();
    expect(w.appliedThrough).toBe(3_000);
  });
});
