import { connect, type NatsConnection } from "@nats-io/transport-node";
import { AckPolicy, jetstream, jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startNats, type NatsHandle } from "@gateway/testing";
import { Puller, type Delivered } from "./puller.js";

let nats: NatsHandle;
let nc: NatsConnection;
let jsm: JetStreamManager;

/** A stream and its durable, and a puller on `conn` that collects what it is handed. */
async function durable(name: string, maxAckPending = 1_000, conn = nc): Promise<{ got: Delivered[]; puller: Puller; publish: (n: number) => Promise<void> }> {
  await jsm.streams.add({ name, subjects: [`${name}.>`] });
  await jsm.consumers.add(name, { durable_name: "d", ack_policy: AckPolicy.Explicit, max_ack_pending: maxAckPending });
  const got: Delivered[] = [];
  const js = jetstream(nc);
  return {
    got,
    puller: new Puller(conn, name, "d", (m) => got.push(m)),
    publish: async (n) => {
      for (let i = 0; i < n; i++) await js.publish(`${name}.x`, `m${i}`);
    },
  };
}

beforeAll(async () => {
  nats = await startNats();
  nc = await connect({ servers: nats.url });
  jsm = await jetstreamManager(nc);
});

afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

describe("pull rounds", () => {
  it("take what the stream holds now, up to the batch, and end at once when it has no more", async () => {
    const { got, puller, publish } = await durable("R1");
    expect(await puller.pull(10, 2_000)).toEqual({ end: "drained", got: 0 });
    await publish(5);
    expect(await puller.pull(3, 2_000)).toEqual({ end: "full", got: 3 });
    expect(await puller.pull(10, 2_000)).toEqual({ end: "drained", got: 2 });
    expect(got.map((m) => new TextDecoder().decode(m.data))).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    expect(got.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(got[0]!.subject).toBe("R1.x");
    for (const m of got) m.ack();
    await nc.flush();
    expect((await jsm.consumers.info("R1", "d")).num_ack_pending).toBe(0);
    // Nothing left waiting at the server between rounds.
    expect((await jsm.consumers.info("R1", "d")).num_waiting).toBe(0);
    puller.close();
  });

  it("bring a message nak'd with a delay back after it, and not before", async () => {
    const { got, puller, publish } = await durable("R2");
    await publish(1);
    await puller.pull(10, 2_000);
    const nakedAt = Date.now();
    got[0]!.nak(300);
    await nc.flush();
    expect(await puller.pull(10, 2_000)).toEqual({ end: "drained", got: 0 });
    // Pulled until it is back (no sleep guessing the redelivery), and never before its delay passed.
    await eventually(async () => ((await puller.pull(10, 2_000)).got === 1 ? true : undefined), 10_000, "the nak'd message back");
    expect(Date.now() - nakedAt).toBeGreaterThanOrEqual(300);
    expect(got.map((m) => m.seq)).toEqual([1, 1]);
    puller.close();
  });

  it("go unanswered for a durable that was deleted (the caller ensures it again), and an ack on a closed connection is dropped", async () => {
    const { puller } = await durable("R3");
    await jsm.consumers.delete("R3", "d");
    expect(await puller.pull(10, 300)).toEqual({ end: "timeout", got: 0 });
    puller.close();

    const other = await connect({ servers: nats.url });
    const { got, puller: p2, publish } = await durable("R4", 1_000, other);
    await publish(1);
    await p2.pull(10, 2_000);
    await other.close();
    expect(() => got[0]!.ack()).not.toThrow();
    expect(() => p2.close()).not.toThrow();
  });

  it("stop short when the durable has max_ack_pending out: the server holds the rest of the round", async () => {
    const { got, puller, publish } = await durable("R5", 2);
    await publish(5);
    expect(await puller.pull(5, 300)).toEqual({ end: "timeout", got: 2 });
    expect(got).toHaveLength(2);
    puller.close();
  });
});
