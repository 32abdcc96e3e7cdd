import { describe, expect, it } from "vitest";
import { subjectCovers } from "./ensure-stream.js";

describe("subjectCovers", () => {
  it("matches NATS wildcards the way the server checks stream subject overlap", () => {
    expect(subjectCovers("usage.v1.>", "usage.v1.recorded")).toBe(true);
    expect(subjectCovers("usage.v1.>", "usage.v1.a.b")).toBe(true);
    expect(subjectCovers("usage.v1.>", "usage.v1.*")).toBe(true);
    expect(subjectCovers("usage.v1.>", "usage.v1")).toBe(false);
    expect(subjectCovers("usage.v1.>", "usage.v2.recorded")).toBe(false);
    expect(subjectCovers("usage.*.recorded", "usage.v1.recorded")).toBe(true);
    expect(subjectCovers("usage.v1.recorded", "usage.v1.*")).toBe(false);
    expect(subjectCovers("usage.*", "usage.>")).toBe(false);
  });
});
