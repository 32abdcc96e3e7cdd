import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";
import type { UsageBody } from "../support/api.ts";

/**
 * A stream that ends before the provider's usage arrives is billed what the provider could have
 * done, never a blanket worst case (docs/billing.md, "Streams that end without usage"). When the
 * client leaves, the gateway reads on for the drain window (DATA_PLANE_CLIENT_GONE_DRAIN_MS: 2 s by
 * default, 1 s here) and bills the provider's own usage when it comes; past the window it cancels
 * and bills what was seen, the searches run, and hidden reasoning bounded by the model's catalog
 * output rate (`max_output_tokens_per_second`: 2,000 in the demo catalog, twice the fake's
 * `reasoning_rate=1000`) × the time the provider had the request before answering visibly.
 * Attacks, as Codex and a chat client use them: an interrupted agent turn, a reasoning model cut
 * mid-answer, a client gone before the first token, images, searches.
 */
/** The data-plane's drain window here, ms. */
const DRAIN_MS = 1_000;
let stack: Stack;
let org: TestOrg;
let client: OpenAI;

beforeAll(async () => {
  // A short drain window keeps the suite quick; the rule is the same at the default 2 s.
  stack = await startStack("abandoned-streams", { dataPlaneEnv: { DATA_PLANE_CLIENT_GONE_DRAIN_MS: String(DRAIN_MS) } });
  org = await createOrg(stack, { balanceMinor: 100_000_000, models: ["gw-chat-large", "gw-chat-mini", "gw-gpt"] });
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
  await eventually(async () => ((await client.models.list()).data.length >= 2 ? true : undefined), 15_000, "models visible");
});

afterAll(async () => {
  await stack?.stop();
});

async function usage(id: string | null): Promise<UsageBody> {
  return eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${org.secret}` } });
      return r.status === 200 ? ((await r.json()) as UsageBody) : undefined;
    },
    15_000,
    `usage of ${id}`,
  );
}

/** Reads `frames` chunks of a stream, then leaves; returns the request's trace id. */
async function readThenLeave(body: OpenAI.Chat.ChatCompletionCreateParamsStreaming, frames: number): Promise<string | null> {
  const { data: stream, response } = await client.chat.completions.create(body).withResponse();
  let n = 0;
  for await (const _chunk of stream) if (++n >= frames) break;
  return response.headers.get("x-gateway-trace-id");
}

it("a reasoning model's stream left after a few tokens is billed its hidden reasoning by the time bound, not the output limit", async () => {
  // gw-chat-large is a reasoning model (chat completions never stream reasoning): the provider thinks
  // 600 tokens at 1,000/s (0.6 s of quiet) before its first visible word; read on, it would bill 600 + 100.
  const id = await readThenLeave(
    { model: "gw-chat-large", stream: true, messages: [{ role: "user", content: "[[fake:words=100,chunk_delay=20,reasoning=600,reasoning_rate=1000]] think, then talk" }] },
    4,
  );
  const u = await usage(id);
  // 100 words at 20 ms take 2 s: the drain window ends first, so the bill is bounded.
  expect(u.usage).toMatchObject({ estimated: true, basis: "bounded" });
  // At least the reasoning the provider did in its 0.6 s of quiet (at the declared 2× rate: about 1,200) ...
  expect(u.usage.reasoning_tokens).toBeGreaterThanOrEqual(600);
  // ... and far from the output limit (8,192) the hold covered, which was billed before.
  expect(u.usage.output_tokens).toBeLessThan(4_000);
  expect(u.cost_credits_minor).toBeGreaterThanOrEqual(Math.ceil((600 * 15_000_000) / 1_000_000));
});

/** A Responses stream read for `deltas` text deltas, then cancelled (Codex's Esc); returns the trace id. */
async function responsesThenLeave(input: string, deltas: number): Promise<string | null> {
  const { data: stream, response } = await client.responses.create({ model: "gw-gpt", input, stream: true }).withResponse();
  let n = 0;
  for await (const ev of stream) if (ev.type === "response.output_text.delta" && ++n >= deltas) break;
  return response.headers.get("x-gateway-trace-id");
}

/** The same request read to its end; returns the trace id. */
async function responsesToTheEnd(input: string): Promise<string | null> {
  const { data: stream, response } = await client.responses.create({ model: "gw-gpt", input, stream: true }).withResponse();
  for await (const _ev of stream) void _ev;
  return response.headers.get("x-gateway-trace-id");
}

it("Codex's interrupted turn (gw-gpt Responses, no output limit, cancelled after 5 deltas) costs about what the answer would, not its 128,000-token limit", async () => {
  const prompt = "[[fake:words=400,chunk_delay=5]] explain the diff";
  const full = await usage(await responsesToTheEnd(prompt));
  const cut = await usage(await responsesThenLeave(prompt, 5));
  expect(full.usage).toMatchObject({ output_tokens: 400, reasoning_tokens: 0, basis: "reported" });
  // 400 deltas at 5 ms: the drain window ends first; what was read and the brief quiet before
  // the first token are billed (before: 128,000 output tokens, ~320× the full answer).
  expect(cut.usage.basis).toBe("bounded");
  expect(cut.cost_credits_minor).toBeLessThanOrEqual(3 * full.cost_credits_minor);
  expect(cut.cost_credits_minor).toBeGreaterThan(0);
});

it("a client that leaves near the end is billed exactly: the drain reads the provider's own usage", async () => {
  // 40 words at 5 ms: the stream ends a fifth of a second after the client left, well within the window.
  const prompt = "[[fake:words=40,chunk_delay=5,reasoning=50]] answer soon";
  const full = await usage(await responsesToTheEnd(prompt));
  const cut = await usage(await responsesThenLeave(prompt, 5));
  expect(cut.usage).toMatchObject({ estimated: false, basis: "drained", output_tokens: full.usage.output_tokens, reasoning_tokens: 50 });
  expect(cut.cost_credits_minor).toBe(full.cost_credits_minor);
  expect(cut.status).toBe(200);
});

it("a reasoning stream the provider cuts 60 frames in is billed at least 0.9× the whole answer", async () => {
  // 500 reasoning tokens at 1,000/s (half a second of quiet), then 150 words; the cut variant breaks off after 60.
  const think = "reasoning=500,reasoning_rate=1000,words=150";
  const full = await usage(await responsesToTheEnd(`[[fake:${think}]] work it out`));
  const { data: stream, response } = await client.responses.create({ model: "gw-gpt", input: `[[fake:${think},cut=60]] work it out`, stream: true }).withResponse();
  await expect(
    (async () => {
      for await (const _ev of stream) void _ev;
    })(),
  ).rejects.toThrow();
  const cut = await usage(response.headers.get("x-gateway-trace-id"));
  expect(full.usage.reasoning_tokens).toBe(500);
  expect(cut.usage.basis).toBe("bounded");
  expect(cut.cost_credits_minor).toBeGreaterThanOrEqual(0.9 * full.cost_credits_minor);
  // Bounded by the time, not the 128,000-token limit.
  expect(cut.usage.output_tokens).toBeLessThan(10_000);
});

it("a client that leaves before the first frame is billed the prompt and the provider's time, status 499", async () => {
  // 2,000 reasoning tokens at 1,000/s: 2 s before the first chunk. The client gives up after 0.3 s.
  const abort = new AbortController();
  const started = client.chat.completions.create(
    { model: "gw-chat-large", stream: true, messages: [{ role: "user", content: "[[fake:reasoning=2000,reasoning_rate=1000,words=20]] slow thinker" }] },
    { signal: abort.signal },
  );
  setTimeout(() => abort.abort(), 300);
  await expect(started).rejects.toThrow();
  // No trace id reached the client: the record is found in the organization's request log.
  const rec = await eventually(
    async () => {
      const r = await stack.ledgerClient.ListUsage({
        org_id: org.orgId,
        key_id: "",
        model: "gw-chat-large",
        route: "",
        status: 499,
        from_ms: Date.now() - 600_000,
        to_ms: Date.now() + 1_000,
        limit: 5,
        cursor: "",
      });
      return r.records[0];
    },
    15_000,
    "the 499 record",
  );
  expect(rec.basis).toBe("bounded");
  // The provider had it for most of the client's 0.3 s and then the whole drain window: at 2,000/s,
  // more than the window's 2,000 tokens of reasoning (the fake had done at least 1,000 by then).
  expect(rec.reasoning_tokens).toBeGreaterThan((DRAIN_MS * 2_000) / 1_000);
  expect(rec.output_tokens).toBeLessThan(20_000);
  expect(rec.cost_minor).toBeGreaterThan(0);
});

it("searches run before the client left are billed", async () => {
  const { data: stream, response } = await client.responses
    .create({ model: "gw-gpt", input: "[[fake:words=400,chunk_delay=5]] look it up", tools: [{ type: "web_search" }], stream: true })
    .withResponse();
  let n = 0;
  for await (const ev of stream) if (ev.type === "response.output_text.delta" && ++n >= 3) break;
  const u = await usage(response.headers.get("x-gateway-trace-id"));
  expect(u.usage.basis).toBe("bounded");
  // The fake runs two searches before it writes; gw-gpt prices a search at 10,000.
  expect(u.line_items).toContainEqual(expect.objectContaining({ item: "web_search_requests", quantity: 2 }));
});

it("a stream with an image, left before its usage, bills the image at the catalog's maximum per image", async () => {
  // gw-chat-mini counts an image at most 48,169 prompt tokens (gpt-4o-mini's largest); the data URL is a few bytes.
  const id = await readThenLeave(
    {
      model: "gw-chat-mini",
      stream: true,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "[[fake:words=100,chunk_delay=20]] describe it" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          ],
        },
      ],
    },
    3,
  );
  const u = await usage(id);
  expect(u.usage.estimated).toBe(true);
  expect(u.usage.input_tokens).toBeGreaterThanOrEqual(48_169);
  // gw-chat-mini bills no hidden reasoning (the catalog prices none for it): only what was seen.
  expect(u.usage.reasoning_tokens).toBe(0);
  expect(u.usage.output_tokens).toBeLessThan(300);
});
