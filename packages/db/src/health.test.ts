import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createDbHealth, isConnectionError } from "./health.js";

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

describe("isConnectionError", () => {
  it("waits out an unreachable or restarting Postgres, not a bad statement", () => {
    expect(isConnectionError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isConnectionError(new AggregateError([Object.assign(new Error("refused"), { code: "ECONNREFUSED" })]))).toBe(true);
    expect(isConnectionError(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error("the database system is starting up"), { code: "57P03" }))).toBe(true);
    expect(isConnectionError(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionError(new Error("migration x failed", { cause: new Error("Connection terminated unexpectedly") }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('relation "x" does not exist'), { code: "42P01" }))).toBe(false);
    expect(isConnectionError(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isConnectionError(new TypeError("x is undefined"))).toBe(false);
  });
});

describe("createDbHealth", () => {
  it("is healthy when Postgres answers and says so only once", async () => {
    const changes: boolean[] = [];
    const h = createDbHealth({ url: process.env.TEST_PG_URL!, onChange: (ok) => changes.push(ok) });
    expect(h.healthy).toBe(false);
    expect(await h.check()).toBe(true);
    expect(await h.check()).toBe(true);
    expect(h.healthy).toBe(true);
    expect(changes).toEqual([true]);
    await h.stop();
  });

  it("is unhealthy when nothing answers, and never throws", async () => {
    const changes: [boolean, unknown][] = [];
    const h = createDbHealth({ url: `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`, timeoutMs: 500, onChange: (ok, err) => changes.push([ok, err]) });
    h.start();
    expect(await h.check()).toBe(false);
    expect(h.healthy).toBe(false);
    await h.stop();
    // It starts unhealthy: an outage from the start is not a change.
    expect(changes).toEqual([]);
  });
});
