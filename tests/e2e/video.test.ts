import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import type { AnyBody, ErrorBody } from "../support/api.ts";

const VIDEO_MODELS = ["gw-video", "gw-video-i2v", "gw-video-ref", "gw-video-edit", "gw-chat-mini"];
// Names the media checks resolve without DNS (the data-plane's static host map).
const HOSTS = [
  "cdn.test=93.184.216.34",
  "loop.test=127.0.0.1",
  "loop6.test=::1",
  "private10.test=10.1.2.3",
  "private172.test=172.20.0.5",
  "private192.test=192.168.1.7",
  "linklocal.test=169.254.10.1",
  "ula.test=fd12:3456::1",
  "mcast.test=239.1.1.1",
  "mcast6.test=ff02::1",
  "metadata.test=169.254.169.254",
  "mapped.test=::ffff:127.0.0.1",
  "mixed.test=93.184.216.34,10.0.0.9",
].join(";");

let stack: Stack;
let org: TestOrg;
beforeAll(async () => {
  stack = await startStack("video", {
    dataPlanes: 2,
    dataPlaneEnv: {
      DATA_PLANE_MEDIA_STATIC_HOSTS: HOSTS,
      DATA_PLANE_MEDIA_DNS_TIMEOUT_MS: "500",
      DATA_PLANE_VIDEO_POLL_STALE_MS: "0",
      DATA_PLANE_VIDEO_RECONCILE_MS: "100",
      DATA_PLANE_VIDEO_STALE_MS: "200",
      DATA_PLANE_VIDEO_CLAIM_MS: "2000",
      DATA_PLANE_VIDEO_MAX_AGE_MS: "3000",
    },
  });
  org = await createOrg(stack, { balanceMinor: 50_000_000, models: VIDEO_MODELS });
});
afterAll(async () => {
  await stack?.stop();
});

async function call(method: string, path: string, secret: string, body?: unknown, replica = 0, headers: Record<string, string> = {}) {
  const r = await fetch(`${stack.baseUrl(replica)}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await r.text();
  let json: AnyBody = text;
  try {
    json = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: r.status, body: json, headers: r.headers };
}
const create = (body: unknown, o: TestOrg = org, replica = 0) => call("POST", "/video/generations", o.secret, body, replica);
const poll = (id: string, o: TestOrg = org, replica = 0) => call("GET", `/video/generations/${id}`, o.secret, undefined, replica);
const credits = async (o: TestOrg = org) => (await call("GET", "/credits", o.secret)).body as { balance_minor: number; held_minor: number; spent_minor: number };

async function until(id: string, status: string, replica = 0, o: TestOrg = org) {
  return eventually(
    async () => {
      const r = await poll(id, o, replica);
      return r.body.status === status ? r : undefined;
    },
    15_000,
    `job ${id} ${status}`,
  );
}

function expect400(r: { status: number; body: AnyBody }, param: string, message: RegExp) {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.error.code).toBe("invalid_request");
  expect(r.body.error.param).toBe(param);
  expect(r.body.error.message).toMatch(message);
}

describe("validation against the model's kind and values", () => {
  it("text-to-video needs a prompt and takes no source media", async () => {
    expect400(await create({ model: "gw-video" }), "prompt", /'prompt' is required by the text-to-video model/);
    expect400(await create({ model: "gw-video", prompt: "a cat", imageUrl: "https://cdn.test/a.png" }), "imageUrl", /not accepted by the text-to-video/);
  });

  it("names the allowed durations, resolutions and aspect ratios", async () => {
    expect400(await create({ model: "gw-video", prompt: "a cat", duration: 5 }), "duration", /one of 4, 8, 12 \(seconds\)/);
    expect400(await create({ model: "gw-video", prompt: "a cat", resolution: "4k" }), "resolution", /one of 720p, 1080p/);
    expect400(await create({ model: "gw-video", prompt: "a cat", aspectRatio: "21:9" }), "aspectRatio", /one of 16:9, 9:16, 1:1/);
    expect400(await create({ model: "gw-video", prompt: "a cat", aspectRatio: "wide" }), "aspectRatio", /<w>:<h>/);
    expect400(await create({ model: "gw-video", prompt: "a cat", generateAudio: true }), "generateAudio", /generates no audio/);
    expect400(await create({ model: "gw-video", prompt: "a cat", duration: 4.5 }), "duration", /positive integer/);
  });

  it("image-to-video needs imageUrl and accepts a media-only request", async () => {
    expect400(await create({ model: "gw-video-i2v", prompt: "pan left" }), "imageUrl", /'imageUrl' is required by the image-to-video model/);
    expect400(await create({ model: "gw-video-i2v", imageUrls: ["https://cdn.test/a.png"] }), "imageUrls", /send one image in 'imageUrl'/);
    const ok = await create({ model: "gw-video-i2v", imageUrl: "https://cdn.test/a.png" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.request).not.toHaveProperty("prompt");
  });

  it("reference-to-video takes 1 to max_images imageUrls", async () => {
    expect400(await create({ model: "gw-video-ref", prompt: "x" }), "imageUrls", /1 to 4 reference image URLs/);
    const five = Array.from({ length: 5 }, (_, i) => `https://cdn.test/${i}.png`);
    expect400(await create({ model: "gw-video-ref", imageUrls: five }), "imageUrls", /got 5/);
    expect400(await create({ model: "gw-video-ref", imageUrl: "https://cdn.test/a.png" }), "imageUrl", /send references in 'imageUrls'/);
    expect((await create({ model: "gw-video-ref", imageUrls: ["https://cdn.test/a.png", "https://cdn.test/b.png"] })).status).toBe(200);
  });

  it("video edit needs refVideoUrl and an instruction", async () => {
    expect400(await create({ model: "gw-video-edit", prompt: "make it snow" }), "refVideoUrl", /'refVideoUrl' is required by the video-edit model/);
    expect400(await create({ model: "gw-video-edit", refVideoUrl: "https://cdn.test/v.mp4" }), "prompt", /the edit to make/);
    expect((await create({ model: "gw-video-edit", prompt: "make it snow", refVideoUrl: "https://cdn.test/v.mp4" })).status).toBe(200);
  });

  it("refuses file uploads: 415 for multipart, 400 for upload fields and inline data", async () => {
    const form = new FormData();
    form.append("model", "gw-video-i2v");
    form.append("image", new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" }), "a.png");
    const r = await fetch(`${stack.baseUrl()}/video/generations`, { method: "POST", headers: { authorization: `Bearer ${org.secret}` }, body: form });
    expect(r.status).toBe(415);
    expect(((await r.json()) as ErrorBody).error.message).toMatch(/URLs only: file uploads are not accepted/);
    expect400(await create({ model: "gw-video-i2v", image: "iVBORw0KGgo=" }), "image", /File uploads are not accepted/);
    expect400(await create({ model: "gw-video-i2v", imageUrl: "data:image/png;base64,iVBORw0KGgo=" }), "imageUrl", /inline data \(file uploads\) is not accepted/);
  });

  it("answers catalog and policy errors before value errors", async () => {
    const r = await create({ model: "gw-nope", prompt: "x", duration: 99 });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("model_not_found");
  });
});

describe("media URL safety", () => {
  const cases: Array<[string, string, RegExp]> = [
    ["http scheme", "http://cdn.test/a.png", /must be an https:\/\/ URL/],
    ["credentials", "https://user:pw@cdn.test/a.png", /credentials/],
    ["IPv4 literal", "https://93.184.216.34/a.png", /IP address/],
    ["IPv6 literal", "https://[2606:4700::1]/a.png", /IP address/],
    ["numeric IPv4 form", "https://2130706433/a.png", /IP address/],
    ["localhost", "https://localhost/a.png", /localhost|resolves/],
    ["too long", `https://cdn.test/${"a".repeat(2040)}`, /2048/],
    ["loopback", "https://loop.test/a.png", /loopback/],
    ["IPv6 loopback", "https://loop6.test/a.png", /loopback/],
    ["private 10/8", "https://private10.test/a.png", /private/],
    ["private 172.16/12", "https://private172.test/a.png", /private/],
    ["private 192.168/16", "https://private192.test/a.png", /private/],
    ["link-local", "https://linklocal.test/a.png", /link-local/],
    ["unique-local", "https://ula.test/a.png", /unique-local/],
    ["multicast", "https://mcast.test/a.png", /multicast/],
    ["IPv6 multicast", "https://mcast6.test/a.png", /multicast/],
    ["cloud metadata", "https://metadata.test/a.png", /metadata/],
    ["IPv4-mapped IPv6", "https://mapped.test/a.png", /loopback/],
    ["one private address among public ones", "https://mixed.test/a.png", /private/],
    ["unresolvable", "https://no-such-host.invalid/a.png", /could not be resolved/],
  ];
  for (const [name, url, message] of cases) {
    it(`refuses ${name}`, async () => {
      const r = await create({ model: "gw-video-i2v", imageUrl: url });
      expect400(r, "imageUrl", message);
      expect(r.body.error.message).toContain("imageUrl");
    });
  }

  it("checks every field, naming the element of imageUrls", async () => {
    expect400(await create({ model: "gw-video-ref", imageUrls: ["https://cdn.test/a.png", "https://loop.test/b.png"] }), "imageUrls[1]", /loopback/);
    expect400(await create({ model: "gw-video-edit", prompt: "x", refVideoUrl: "https://private10.test/v.mp4" }), "refVideoUrl", /private/);
  });

  it("charges nothing for a refused request", async () => {
    // An org of its own: jobs the earlier tests started for the shared one are billed when they finish.
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const before = await credits(o);
    const r = await create({ model: "gw-video-i2v", imageUrl: "https://metadata.test/a.png" }, o);
    expect(r.status).toBe(400);
    const after = await credits(o);
    expect(after).toMatchObject({ balance_minor: before.balance_minor, held_minor: 0 });
  });
});

describe("jobs", () => {
  it("create → poll → completed: billed by duration at catalog price, credits lower by exactly that", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const before = await credits(o);
    const r = await create({ model: "gw-video", prompt: "a lighthouse at dusk [[fake:video_ms=400]]", duration: 8, resolution: "720p", aspectRatio: "9:16" }, o);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ object: "video.generation", model: "gw-video", status: "queued", progress: 0, error: null, outputs: [], cost_credits_minor: null, max_cost_credits_minor: 800_000 });
    expect(r.body.id).toMatch(/^vid_[0-9a-f]{28}$/);
    expect(r.headers.get("x-gateway-provider")).toBe("fake");
    expect(r.headers.get("x-gateway-trace-id")).toMatch(/^req_/);
    // The hold covers the maximum cost while the job runs.
    expect((await credits(o)).held_minor).toBeGreaterThanOrEqual(800_000);
    // The provider was asked for OpenAI's shape: seconds as a string and the portrait size.
    const sent = stack.fake.requests.find((q) => q.path === "/v1/videos" && JSON.stringify(q.body).includes("lighthouse"));
    expect(sent?.body).toMatchObject({ model: "fake-video", seconds: "8", size: "720x1280" });

    const done = await until(r.body.id, "completed", 0, o);
    expect(done.body).toMatchObject({ progress: 100, cost_credits_minor: 800_000, usage: { duration_seconds: 8, resolution: "720p", audio: false }, error: null });
    expect(done.body.completed_at).toBeGreaterThanOrEqual(done.body.created_at);
    const url = done.body.outputs[0].url as string;
    expect(url).toBe(`${stack.baseUrl()}/video/generations/${r.body.id}/content`);
    // The gateway serves the bytes: the caller needs no provider credentials.
    const content = await fetch(url, { headers: { authorization: `Bearer ${o.secret}` } });
    expect(content.status).toBe(200);
    expect(content.headers.get("content-type")).toBe("video/mp4");
    expect(
      Buffer.from(await content.arrayBuffer())
        .subarray(4, 8)
        .toString(),
    ).toBe("ftyp");

    const usage = await call("GET", `/usage/${r.body.id}`, o.secret);
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ route: "video", cost_credits_minor: 800_000, line_items: [{ item: "video_seconds", quantity: 8, unit_price_minor: 100_000, per: "second" }] });
    await eventually(
      async () => {
        const c = await credits(o);
        return c.held_minor === 0 ? c : undefined;
      },
      5_000,
      "hold released",
    );
    const after = await credits(o);
    expect(before.balance_minor - after.balance_minor).toBe(800_000);
  });

  it("a failed job bills nothing, releases its hold and has a record at 0 that says nobody pays for its submit", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const before = await credits(o);
    const r = await create({ model: "gw-video-i2v", imageUrl: "https://cdn.test/a.png", prompt: "[[fake:video_ms=300,video_fail]]", duration: 10, resolution: "1080p", generateAudio: true }, o);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.max_cost_credits_minor).toBe(10 * (250_000 + 50_000));
    const failed = await until(r.body.id, "failed", 0, o);
    expect(failed.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(failed.body.cost_credits_minor).toBe(0);
    expect(failed.body.outputs).toEqual([]);
    await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 15_000, "hold released");
    expect((await credits(o)).balance_minor).toBe(before.balance_minor);
    // The provider generated nothing: recorded, billed to nobody.
    const usage = await call("GET", `/usage/${r.body.id}`, o.secret);
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    expect(usage.body).toMatchObject({ cost_credits_minor: 0, status: 502, line_items: [], attempts: [{ outcome: "failed", payer: "none", cost_minor: 0 }] });
  });

  it("a job nobody polls is billed by the reconciler exactly once, with two replicas running", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const before = await credits(o);
    const r = await create({ model: "gw-video-i2v", imageUrl: "https://cdn.test/a.png", prompt: "[[fake:video_ms=300]]", duration: 5 }, o);
    expect(r.status).toBe(200);
    const cost = 5 * 100_000;
    // No poll: watch the ledger only.
    const record = await eventually(
      async () => {
        try {
          return await stack.ledgerClient.GetUsage({ request_id: r.body.id, org_id: o.orgId, wait_ms: 0 });
        } catch {
          return undefined;
        }
      },
      15_000,
      "usage recorded without a poll",
    );
    expect(record.cost_minor).toBe(cost);
    await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 15_000, "hold released");
    // Both reconcilers keep running: nothing is billed twice.
    await new Promise((res) => setTimeout(res, 1_000));
    const after = await credits(o);
    expect(before.balance_minor - after.balance_minor).toBe(cost);
    expect(after.spent_minor - before.spent_minor).toBe(cost);
    const job = await poll(r.body.id, o, 1);
    expect(job.body).toMatchObject({ status: "completed", cost_credits_minor: cost });
    // The fal shape: result fetched once the queue says COMPLETED, its public URL passed through.
    expect(job.body.outputs[0].url).toMatch(/\/files\/video-.*\.mp4$/);
  });

  it("a job that finishes while NATS is down keeps its hold open until its usage is in JetStream, then is billed once", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const before = await credits(o);
    const r = await create({ model: "gw-video-i2v", imageUrl: "https://cdn.test/a.png", prompt: "[[fake:video_ms=300]]", duration: 5 }, o);
    expect(r.status).toBe(200);
    const cost = 5 * 100_000;
    const openLeases = async () => (await stack.ledgerClient.ListHolds({ org_id: o.orgId })).leases.filter((l) => l.status === "open");
    expect(await openLeases()).toHaveLength(1);
    await stack.stopNats();
    try {
      // Finished and billed as far as the job says, its usage event only in a replica's spool.
      const done = await until(r.body.id, "completed", 0, o);
      expect(done.body.cost_credits_minor).toBe(cost);
      // A few reconciler passes (every 100 ms) and polls try to settle it: the lease stays open, nothing applied.
      for (let i = 0; i < 5; i++) await poll(r.body.id, o, i % 2);
      await new Promise((res) => setTimeout(res, 500));
      const held = await openLeases();
      expect(held).toHaveLength(1);
      expect(held[0]!.applied_minor).toBe(0);
      expect((await credits(o)).balance_minor).toBe(before.balance_minor);
    } finally {
      await stack.startNats();
    }
    // Once JetStream has the event: applied once, and the hold released.
    await eventually(async () => ((await openLeases()).length === 0 && (await credits(o)).held_minor === 0 ? true : undefined), 20_000, "lease settled after NATS returned");
    await new Promise((res) => setTimeout(res, 500));
    const after = await credits(o);
    expect(before.balance_minor - after.balance_minor).toBe(cost);
    expect(after.spent_minor - before.spent_minor).toBe(cost);
  });

  it("honours Idempotency-Key: a retried create answers the first job, holds and submits nothing again, and a reused key with another request is a 409", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const body = { model: "gw-video-i2v", imageUrl: "https://cdn.test/a.png", prompt: "[[fake:video_ms=300]] idempotent", duration: 5 };
    const submits = () => stack.fake.requests.filter((q) => q.method === "POST" && JSON.stringify(q.body ?? "").includes("idempotent")).length;
    const before = submits();
    const idem = { "idempotency-key": `video-${o.orgId}` };
    const first = await call("POST", "/video/generations", o.secret, body, 0, idem);
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const max = first.body.max_cost_credits_minor as number;
    expect((await credits(o)).held_minor).toBe(max);
    // The retry (another replica, as after a lost response): the same job, one hold, one submit.
    const again = await call("POST", "/video/generations", o.secret, body, 1, idem);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    expect((await credits(o)).held_minor).toBe(max);
    expect(submits() - before).toBe(1);
    // The key with a different request: refused, nothing held or sent.
    const other = await call("POST", "/video/generations", o.secret, { ...body, duration: 10 }, 0, idem);
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: "already_exists", param: "Idempotency-Key" });
    expect(other.body.error.message).toContain(first.body.id);
    expect(submits() - before).toBe(1);
    // Another organization's key space is its own.
    const o2 = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const theirs = await call("POST", "/video/generations", o2.secret, body, 0, idem);
    expect(theirs.status).toBe(200);
    expect(theirs.body.id).not.toBe(first.body.id);
    // A malformed key is a 400 naming the header.
    const bad = await call("POST", "/video/generations", o.secret, body, 0, { "idempotency-key": "has space" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe("Idempotency-Key");
    // Billed once when it completes (it may have by now: a 300 ms job), against the organization's top-up.
    const startBalance = 10_000_000;
    await until(first.body.id, "completed", 0, o);
    await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 15_000, "hold released");
    expect(startBalance - (await credits(o)).balance_minor).toBe(5 * 100_000);
  });

  it("two creates racing with one Idempotency-Key end with one job, billed once; the other hold is released", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const before = await credits(o);
    const body = { model: "gw-video-i2v", imageUrl: "https://cdn.test/a.png", prompt: "[[fake:video_ms=300]] racing", duration: 5 };
    const idem = { "idempotency-key": `race-${o.orgId}` };
    const [a, b] = await Promise.all([call("POST", "/video/generations", o.secret, body, 0, idem), call("POST", "/video/generations", o.secret, body, 1, idem)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.id).toBe(b.body.id);
    await until(a.body.id, "completed", 0, o);
    await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 10_000, "both holds released");
    await new Promise((res) => setTimeout(res, 500));
    expect(before.balance_minor - (await credits(o)).balance_minor).toBe(5 * 100_000);
    // The provider received both submits. The loser's has a record of its own (its request id): the
    // caller pays nothing for it, the operator absorbs what the provider may bill for it (the clip).
    // Published before the answer; applied by the ledger a moment later (a loaded machine: longer).
    const records = await eventually(
      async () => {
        const rs = await Promise.all([a, b].map((r) => call("GET", `/usage/${r.headers.get("x-gateway-trace-id")}`, o.secret)));
        return rs.some((r) => r.status === 200) ? rs : undefined;
      },
      10_000,
      "the losing submit's record",
    );
    const lost = records.filter((r) => r.status === 200);
    expect(lost, JSON.stringify(records.map((r) => r.body))).toHaveLength(1);
    expect(lost[0]!.body).toMatchObject({ cost_credits_minor: 0, status: 200, attempts: [{ outcome: "served", payer: "operator", cost_minor: 5 * 100_000, estimated: true }] });
    expect(records.filter((r) => r.status === 404)).toHaveLength(1);
  });

  it("a job whose submit was retried bills once and its usage record lists both submits", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const r = await create({ model: "gw-video-i2v", imageUrl: "https://cdn.test/a.png", prompt: `[[fake:video_ms=300,flaky=submit-${o.orgId}:1]] retried`, duration: 5 }, o);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await until(r.body.id, "completed", 0, o);
    const usage = await eventually(
      async () => {
        const u = await call("GET", `/usage/${r.body.id}`, o.secret);
        return u.status === 200 ? u.body : undefined;
      },
      10_000,
      "the job's usage record",
    );
    expect(usage.cost_credits_minor).toBe(5 * 100_000);
    expect(usage.attempts).toMatchObject([
      { attempt: 1, status: 503, outcome: "failed", cost_minor: 0, payer: "none" },
      { attempt: 2, status: 200, outcome: "served", cost_minor: 5 * 100_000, payer: "caller" },
    ]);
  });

  it("a poll is served by a replica other than the creator, even after the creator is gone", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const extra = await stack.addDataPlane();
    const idx = stack.dataPlanes.indexOf(extra);
    const r = await create({ model: "gw-video", prompt: "waves [[fake:video_ms=600]]", duration: 4 }, o, idx);
    expect(r.status).toBe(200);
    await extra.stop();
    const seen = await poll(r.body.id, o, 1);
    expect(seen.status).toBe(200);
    expect(seen.body.id).toBe(r.body.id);
    expect(seen.headers.get("x-gateway-provider")).toBe("fake");
    const done = await until(r.body.id, "completed", 1, o);
    expect(done.body.cost_credits_minor).toBe(400_000);
  });

  it("another organization's job is the same 404 as a missing one", async () => {
    const r = await create({ model: "gw-video", prompt: "mine [[fake:video_ms=200]]" });
    expect(r.status).toBe(200);
    const other = await createOrg(stack, { balanceMinor: 1_000_000, models: VIDEO_MODELS });
    const theirs = await poll(r.body.id, other);
    const missing = await poll("vid_0000000000000000000000000000", other);
    expect(theirs.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(theirs.body.error.code).toBe(missing.body.error.code);
    expect(theirs.body.error.message.replace(r.body.id, "ID")).toBe(missing.body.error.message.replace("vid_0000000000000000000000000000", "ID"));
    expect((await call("GET", `/video/generations/${r.body.id}/content`, other.secret)).status).toBe(404);
  });

  it("a stuck job is failed after the maximum age and its hold released", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const before = await credits(o);
    const r = await create({ model: "gw-video", prompt: "forever [[fake:video_stuck]]" }, o);
    expect(r.status).toBe(200);
    const failed = await until(r.body.id, "failed", 1, o);
    expect(failed.body.error.code).toBe("timeout");
    await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 15_000, "hold released");
    expect((await credits(o)).balance_minor).toBe(before.balance_minor);
  });

  it("a job the control-plane could not confirm in time keeps its hold and names its id; once its record lands it is settled (the provider was asked to stop it), nothing billed", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const before = await credits(o);
    let refused!: Awaited<ReturnType<typeof create>>;
    let heldAfter = 0;
    // Inserts into video_jobs wait behind this lock (reads do not): the control-plane answers
    // CreateVideoJob after the data-plane's deadline, and the row lands once the lock is gone.
    await stack.control.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE video_jobs IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
      refused = await create({ model: "gw-video-i2v", imageUrl: "https://cdn.test/a.png", prompt: "[[fake:video_stuck]]" }, o);
      heldAfter = (await credits(o)).held_minor;
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(503);
    const id = /vid_[0-9a-f]{28}/.exec(refused.body.error.message)?.[0];
    expect(id).toBeDefined();
    // Not released: had the record landed and the cancel failed, the job would be billed from it.
    expect(heldAfter).toBeGreaterThan(0);
    expect(stack.fake.requests.some((q) => q.method === "PUT" && q.path.endsWith("/cancel"))).toBe(true);
    // The record did land: the job is the caller's to look up, and is settled at nothing (the provider stopped it).
    const failed = await until(id!, "failed", 0, o);
    expect(failed.body.cost_credits_minor).toBe(0);
    await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 15_000, "hold released");
    expect((await credits(o)).balance_minor).toBe(before.balance_minor);
  });

  it("cancel stops an unfinished job, releases its hold and bills nothing", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const before = await credits(o);
    const earlier = new Set(stack.fake.requests);
    const r = await create({ model: "gw-video-i2v", imageUrl: "https://cdn.test/a.png", prompt: "[[fake:video_stuck]]" }, o);
    expect(r.status).toBe(200);
    const c = await call("POST", `/video/generations/${r.body.id}/cancel`, o.secret, undefined, 1);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body).toMatchObject({ status: "cancelled", cost_credits_minor: 0, error: { code: "cancelled" } });
    expect((await credits(o)).held_minor).toBe(0);
    expect((await credits(o)).balance_minor).toBe(before.balance_minor);
    // The provider was told (fal's cancel endpoint), and a second cancel is refused.
    expect(stack.fake.requests.some((q) => q.method === "PUT" && q.path.endsWith("/cancel"))).toBe(true);
    const again = await call("POST", `/video/generations/${r.body.id}/cancel`, o.secret);
    expect(again.status).toBe(400);
    expect(again.body.error.message).toMatch(/already cancelled/);
    expect((await poll(r.body.id, o)).body.status).toBe("cancelled");
    // The provider was asked for the job's status before it was told to stop.
    const seen = stack.fake.requests.filter((q) => !earlier.has(q));
    const stop = seen.findIndex((q) => q.method === "PUT" && q.path.endsWith("/cancel"));
    const asked = seen.findIndex((q) => q.method === "GET" && q.path === seen[stop]!.path.replace(/\/cancel$/, "/status"));
    expect(asked).toBeGreaterThanOrEqual(0);
    expect(asked).toBeLessThan(stop);
    // The caller pays nothing; the record says the operator absorbs what the provider may bill for the started clip.
    const usage = await call("GET", `/usage/${r.body.id}`, o.secret);
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    expect(usage.body).toMatchObject({ cost_credits_minor: 0, status: 499, attempts: [{ outcome: "client_gone", payer: "operator", cost_minor: r.body.max_cost_credits_minor, estimated: true }] });
  });

  it("a cancel while the ledger is away stands: answered cancelled at once, its hold released once the ledger is back", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const before = await credits(o);
    const r = await create({ model: "gw-video-i2v", imageUrl: "https://cdn.test/a.png", prompt: "[[fake:video_stuck]]" }, o);
    expect(r.status).toBe(200);
    await stack.stopLedger();
    let c: Awaited<ReturnType<typeof call>>;
    try {
      c = await call("POST", `/video/generations/${r.body.id}/cancel`, o.secret);
    } finally {
      await stack.startLedger();
    }
    // Recorded before the hold could be given back: the caller is told so, not asked to retry into a 400.
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body).toMatchObject({ status: "cancelled", cost_credits_minor: 0 });
    await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 15_000, "hold released once the ledger is back");
    expect((await credits(o)).balance_minor).toBe(before.balance_minor);
  });

  it("cancels racing completions the provider already made bill the completions, on either replica", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS });
    const before = await credits(o);
    // Finished at the provider 1 ms after it started: every cancel below comes after the provider finished.
    const jobs = await Promise.all(Array.from({ length: 6 }, (_, i) => create({ model: "gw-video", prompt: `race ${i} [[fake:video_ms=1]]`, duration: 4 }, o, i % 2)));
    expect(jobs.map((j) => j.status)).toEqual(Array(6).fill(200));
    const cancels = await Promise.all(jobs.map((j, i) => call("POST", `/video/generations/${j.body.id}/cancel`, o.secret, undefined, (i + 1) % 2)));
    for (const c of cancels) {
      // Either the cancel found it finished (its record, 200) or a refresh had recorded it first (400, already completed).
      if (c.status === 400) expect(c.body.error.message).toMatch(/already completed/);
      else expect(c.body, JSON.stringify(c.body)).toMatchObject({ status: "completed", cost_credits_minor: 400_000 });
    }
    for (const j of jobs) expect((await until(j.body.id, "completed", 0, o)).body.cost_credits_minor).toBe(400_000);
    await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 15_000, "holds released");
    await new Promise((res) => setTimeout(res, 500));
    const after = await credits(o);
    expect(before.balance_minor - after.balance_minor).toBe(6 * 400_000);
    expect(after.spent_minor - before.spent_minor).toBe(6 * 400_000);
  });

  it("refuses a job the balance cannot cover with 402, and a key without the video scope with 403", async () => {
    const poor = await createOrg(stack, { balanceMinor: 100_000, models: VIDEO_MODELS });
    const r = await create({ model: "gw-video", prompt: "x", duration: 12 }, poor);
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe("insufficient_credits");
    const chatOnly = await createOrg(stack, { balanceMinor: 10_000_000, models: VIDEO_MODELS, keyRoutes: ["chat"] });
    const s = await create({ model: "gw-video", prompt: "x" }, chatOnly);
    expect(s.status).toBe(403);
    expect(s.body.error.code).toBe("route_not_allowed");
  });
});
