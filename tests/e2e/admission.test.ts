import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import type { DataPlane } from "@gateway/data-plane";
import { startStack, type Stack } from "../support/stack.ts";
import { chatBody, createOrg, post } from "../support/orgs.ts";
import type { ErrorBody, ModelsBody, TrialPolicyBody } from "../support/api.ts";

let stack: Stack;
let strict: DataPlane;
const model = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  routes: ["chat", "messages"],
  context_window: 128_000,
  max_output_tokens: 1_000,
  input_price_minor_per_mtok: 150_000,
  output_price_minor_per_mtok: 600_000,
  deployments: [{ provider: "fake", upstream_model: "fake-chat" }],
  ...extra,
});

beforeAll(async () => {
  // Gossip every 50 ms so the cross-replica rate-limit test has ample slack under CI load.
  stack = await startStack("admission", { dataPlanes: 2, dataPlaneEnv: { DATA_PLANE_RATE_LIMIT_GOSSIP_MS: "50" } });
  await stack.applyCatalog({
    providers: [{ code: "nocred", kind: "openai-compatible", base_url: `${stack.fake.url}/v1`, credential_ref: "NO_SUCH_CREDENTIAL" }],
    models: [
      model("gw-draft", { status: "draft" }),
      model("gw-nocred", { deployments: [{ provider: "nocred", upstream_model: "fake-chat" }] }),
      model("gw-embed-only", { routes: ["embeddings"] }),
      model("gw-tiny", { context_window: 40, max_output_tokens: 10, deployments: [{ provider: "fake", upstream_model: "gpt-4o-mini" }] }),
    ],
  });
  // A replica with a small chat body limit and the context-window pre-check on.
  strict = await stack.addDataPlane({ DATA_PLANE_BODY_LIMIT_CHAT_BYTES: "2048", DATA_PLANE_CONTEXT_PRECHECK: "true" });
});
afterAll(async () => {
  await stack?.stop();
});

const ALL = ["gw-chat-mini", "gw-chat-large", "gw-draft", "gw-nocred", "gw-embed-only", "gw-tiny"];

describe("visibility and policy", () => {
  it("a key sees and may call only published ∩ org-enabled ∩ its allowlist", async () => {
    const org = await createOrg(stack, { balanceMinor: 1_000_000, models: ALL, keyModels: ["gw-chat-mini", "gw-draft", "gw-embed-only"] });
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids.sort()).toEqual(["gw-chat-mini", "gw-embed-only"]);

    const denied = await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("hi", { model: "gw-chat-large" }));
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: "model_not_allowed", action: "contact_org_admin", allowed_models: ["gw-chat-mini"] });

    const err = await client.chat.completions.create({ model: "gw-chat-large", messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.PermissionDeniedError);
    const apiErr = err as InstanceType<typeof OpenAI.APIError>;
    expect(apiErr.code).toBe("model_not_allowed");
    expect((apiErr.error as { allowed_models?: string[] }).allowed_models).toEqual(["gw-chat-mini"]);

    const draft = await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("hi", { model: "gw-draft" }));
    expect(draft.status).toBe(404);
    expect(draft.body.error.code).toBe("model_not_found");

    const wrongRoute = await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("hi", { model: "gw-embed-only" }));
    expect(wrongRoute.status).toBe(400);
    expect(wrongRoute.body.error.code).toBe("model_not_supported_for_route");
  });

  it("a call outside the key's route scopes is 403", async () => {
    const org = await createOrg(stack, { balanceMinor: 1_000_000, keyRoutes: ["embeddings"] });
    const r = await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("hi"));
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("route_not_allowed");
  });

  it("a model whose provider credentials are not configured is a runtime configuration error", async () => {
    const org = await createOrg(stack, { balanceMinor: 1_000_000, models: ALL });
    const r = await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("hi", { model: "gw-nocred" }));
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe("model_unavailable");
    const credits = await stack.ledgerClient.GetCredits({ org_id: org.orgId });
    expect(credits.spent_minor).toBe(0);
  });
});

describe("trial", () => {
  it("limits an org in trial to the trial allowlist until a top-up crosses the threshold", async () => {
    const before = (await (await fetch(`${stack.baseUrl()}/trial-policy`)).json()) as TrialPolicyBody;
    const policy = await stack.admin.SetTrialPolicy({ allowed_models: ["gw-chat-mini"], unlock_topup_minor: 1_000 });
    expect(policy.version).toBe(before.version + 1);
    const after = await eventually(
      async () => {
        const p = (await (await fetch(`${stack.baseUrl(1)}/trial-policy`)).json()) as TrialPolicyBody;
        return p.version === policy.version ? p : undefined;
      },
      15_000,
      "new trial policy served",
    );
    expect(after.policy_hash).not.toBe(before.policy_hash);
    expect(after.allowed_models).toEqual(["gw-chat-mini"]);
    // Setting the same content again changes nothing.
    expect((await stack.admin.SetTrialPolicy({ allowed_models: ["gw-chat-mini"], unlock_topup_minor: 1_000 })).version).toBe(policy.version);

    const org = await createOrg(stack, { inTrial: true, balanceMinor: 500 });
    const models = (await (await fetch(`${stack.baseUrl()}/models`, { headers: { authorization: `Bearer ${org.secret}` } })).json()) as ModelsBody;
    expect(models.data.map((m: { id: string }) => m.id)).toEqual(["gw-chat-mini"]);
    const denied = await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("hi", { model: "gw-chat-large" }));
    expect(denied.status).toBe(403);
    // The trial, not the key, keeps the model out: the answer says so, and that a top-up lifts it.
    expect(denied.body.error).toMatchObject({ code: "model_not_in_trial", action: "top_up", allowed_models: ["gw-chat-mini"] });
    expect(denied.body.error.message).toMatch(/is in trial, which allows only gw-chat-mini\. Top-ups totalling 1000 minor units/);

    await stack.ledgerClient.TopUp({ org_id: org.orgId, amount_minor: 600, idempotency_key: `unlock-${org.orgId}` });
    // ledger event → control-plane → change event → both replicas, within about a second.
    for (const replica of [0, 1]) {
      await eventually(
        async () => {
          const m = (await (await fetch(`${stack.baseUrl(replica)}/models`, { headers: { authorization: `Bearer ${org.secret}` } })).json()) as ModelsBody;
          return m.data.length === 2 ? true : undefined;
        },
        15_000,
        `trial ended on replica ${replica}`,
      );
      const r = await post(stack.baseUrl(replica), org.secret, "/chat/completions", chatBody("hi", { model: "gw-chat-large", max_tokens: 5 }));
      expect(r.status).toBe(200);
    }
  });
});

describe("credits and budgets", () => {
  it("402 insufficient_credits with action top_up and the trace id", async () => {
    const org = await createOrg(stack, {});
    const r = await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("hi"));
    expect(r.status).toBe(402);
    const sdk = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const err = (await sdk.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err.status).toBe(402);
    expect(err.code).toBe("insufficient_credits");
    expect((err.error as { action?: string }).action).toBe("top_up");
    expect(r.body.error).toMatchObject({ code: "insufficient_credits", action: "top_up", type: "insufficient_credits_error" });
    expect(r.headers.get("x-gateway-trace-id")).toBe(r.body.error.request_id);
  });

  it("a monthly budget below the request's maximum cost is 402 budget_exceeded, distinct from credits", async () => {
    const org = await createOrg(stack, { balanceMinor: 10_000_000, budgetMinor: 50 });
    const r = await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("hi", { max_tokens: 1_000 }));
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe("budget_exceeded");
    const small = await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("hi", { max_tokens: 10 }));
    expect(small.status).toBe(200);
  });
});

describe("rate limits", () => {
  it("a key's requests per minute hold across two replicas", async () => {
    const org = await createOrg(stack, { balanceMinor: 10_000_000, rpm: 5 });
    const statuses: number[] = [];
    const remaining: Array<string | null> = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 12; i++) {
      const r = await post(stack.baseUrl(i % 2), org.secret, "/chat/completions", chatBody(`n${i}`));
      statuses.push(r.status);
      if (r.status === 200) {
        expect(r.headers.get("x-ratelimit-limit-requests")).toBe("5");
        remaining.push(r.headers.get("x-ratelimit-remaining-requests"));
      }
      if (r.status === 429) {
        expect(r.body.error.code).toBe("rate_limit_exceeded");
        retryAfter = r.headers.get("retry-after");
      }
      // Wait until the other replica has this one's count (its gossip arrived), not for a guess at how long that takes.
      const [served, other] = [stack.dataPlanes[i % 2]!, stack.dataPlanes[(i + 1) % 2]!];
      const local = served.ctx.rateLimiter.counted(org.keyId).local;
      await eventually(() => (other.ctx.rateLimiter.counted(org.keyId).remote >= local ? true : undefined), 10_000, "rate-limit gossip reached the other replica");
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    const sdk = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const limited = await sdk.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it("a key's tokens per minute stop it once used", async () => {
    const org = await createOrg(stack, { balanceMinor: 10_000_000, tpm: 12 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("three word prompt"))).status);
    // Each request uses 3 prompt + 5 completion tokens: the second reaches 16 ≥ 12.
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
  });
});

describe("limits", () => {
  it("413 before buffering a body over the route's limit, with or without a content-length", async () => {
    const org = await createOrg(stack, { balanceMinor: 1_000_000 });
    const big = chatBody("x".repeat(4_000));
    const r = await post(strict.url + "/v1", org.secret, "/chat/completions", big);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe("request_too_large");
    const chunked = await fetch(`${strict.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.secret}`, "content-type": "application/json" },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 8; i++) c.enqueue(new TextEncoder().encode(" ".repeat(1_000)));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as ErrorBody).error.code).toBe("request_too_large");
  });

  it("the context-window pre-check refuses a prompt that cannot fit, with a real tokenizer", async () => {
    const org = await createOrg(stack, { balanceMinor: 1_000_000, models: ALL });
    const long = await post(strict.url + "/v1", org.secret, "/chat/completions", chatBody("word ".repeat(60), { model: "gw-tiny" }));
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe("context_length_exceeded");
    const short = await post(strict.url + "/v1", org.secret, "/chat/completions", chatBody("short prompt", { model: "gw-tiny" }));
    expect(short.body).not.toHaveProperty("error");
    expect(short.status).toBe(200);
    // The replica without the pre-check lets the provider decide.
    expect((await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("word ".repeat(60), { model: "gw-tiny" }))).status).toBe(200);
  });
});

describe("body types", () => {
  it("a multipart or urlencoded body on a JSON route is 413 when too large and 415 otherwise", async () => {
    const org = await createOrg(stack, { balanceMinor: 1_000_000 });
    const form = new FormData();
    form.append("model", "gw-chat-mini");
    form.append("file", new Blob(["x".repeat(5_000)]), "big.txt");
    const big = await fetch(`${strict.url}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${org.secret}` }, body: form });
    expect(big.status).toBe(413);
    expect(((await big.json()) as ErrorBody).error.code).toBe("request_too_large");
    const small = await fetch(`${strict.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.secret}`, "content-type": "application/x-www-form-urlencoded" },
      body: "model=gw-chat-mini",
    });
    expect(small.status).toBe(415);
    expect(((await small.json()) as ErrorBody).error.code).toBe("unsupported_media_type");
  });
});

describe("slow clients", () => {
  it("a client that never finishes its headers is cut off", async () => {
    const dp = await stack.addDataPlane({ DATA_PLANE_HEADERS_TIMEOUT_MS: "500" });
    const { connect } = await import("node:net");
    const started = Date.now();
    let answer = "";
    const closedAfter = await new Promise<number>((resolve, reject) => {
      const sock = connect({ host: "127.0.0.1", port: dp.port }, () => sock.write("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"));
      sock.on("data", (d: Buffer) => void (answer += d.toString()));
      sock.on("close", () => resolve(Date.now() - started));
      sock.on("error", reject);
      setTimeout(() => reject(new Error("socket still open after 10 s")), 10_000).unref();
    });
    // Cut by the server for its headers timeout (408), not by anything else, and not before it.
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfter).toBeGreaterThanOrEqual(500);
  });
});
