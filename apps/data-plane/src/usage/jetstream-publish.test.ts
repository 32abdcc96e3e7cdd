import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstreamManager } from "@nats-io/jetstream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNats, type NatsHandle } from "@gateway/testing";
import { JetStreamPublish } from "./jetstream-publish.js";

let nats: NatsHandle;
let nc: NatsConnection;
let pub: JetStreamPublish;

beforeAll(async () => {
  nats = await startNats();
  nc = await connect({ servers: nats.url });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: "OK", subjects: ["ok.>"] });
  await jsm.streams.add({ name: "SMALL", subjects: ["small.>"], max_msg_size: 16 });
  pub = new JetStreamPublish(nc);
});

afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

describe("the acknowledged publish", () => {
  it("resolves once the stream stored the message, and again for a duplicate message id", async () => {
    await expect(pub.publish("ok.a", '{"request_id":"r1"}', { msgID: "r1", timeout: 2_000 })).resolves.toBeUndefined();
    await expect(pub.publish("ok.a", '{"request_id":"r1"}', { msgID: "r1", timeout: 2_000 })).resolves.toBeUndefined();
    const jsm = await jetstreamManager(nc);
    expect((await jsm.streams.info("OK")).state.messages).toBe(1);
  });

  it("rejects with the stream's reason when the stream refuses the message", async () => {
    await expect(pub.publish("small.a", "x".repeat(64), { timeout: 2_000 })).rejects.toThrow(/JetStream refused the message: 400 .*maximum/i);
  });

  it("rejects when no stream takes the subject, and at the timeout when nothing answers", async () => {
    await expect(pub.publish("nowhere.a", "{}", { timeout: 2_000 })).rejects.toThrow(/no responders/);
    // A subscriber that never answers: the publish waits for its deadline, then fails.
    nc.subscribe("silent.a", { callback: () => undefined });
    await nc.flush();
    await expect(pub.publish("silent.a", "{}", { timeout: 150 })).rejects.toThrow(/did not acknowledge in time/);
  });
});
