import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";
import type { UsageBody } from "../support/api.ts";

/**
 * A stream the client abandons before the provider's usage arrives is billed at least what the
 * provider bills for the work it did (issue 21, item 3; docs/billing.md, "Streams that end without
 * usage"). The gateway cancels the upstream call when the client leaves (ARCHITECTURE.md), so the
 * usage never comes; these attack the two ways that used to be billed at almost nothing: reasoning
 * the provider never streams (done before the first visible token), and images, which a provider
 * bills by their pixels, not the bytes of their URL.
 */
let stack: Stack;
let org: TestOrg;
let client: OpenAI;

beforeAll(async () => {
  stack = await startStack("abandoned-streams");
  org = await createOrg(stack, { balanceMinor: 10_000_000, models: ["gw-chat-large", "gw-chat-mini"] });
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
  await eventually(async () => ((await client.models.list()).data.length >= 2 ? true : undefined), 15_000, "models visible");
});

afterAll(async () => {
  await stack?.stop();
});

async function usage(id: string | null): Promise<UsageBody & { usage: { reasoning_tokens: number } }> {
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

it("a reasoning model's stream left after a few tokens is billed its hidden reasoning at the bound, not the few tokens seen", async () => {
  // gw-chat-large prices reasoning (an OpenAI-style reasoning model: chat completions never stream it).
  // The provider reasons 600 tokens before the first visible one; had the client read on, it would bill 600 + 300.
  const id = await readThenLeave(
    { model: "gw-chat-large", stream: true, max_completion_tokens: 1_000, messages: [{ role: "user", content: "[[fake:words=300,chunk_delay=20,reasoning=600]] think, then talk" }] },
    4,
  );
  const u = await usage(id);
  expect(u.usage.estimated).toBe(true);
  // Everything the limit allows: what was seen, and the reasoning that may have preceded it.
  expect(u.usage.output_tokens).toBe(1_000);
  expect(u.usage.reasoning_tokens).toBeGreaterThanOrEqual(1_000 - 300);
  // gw-chat-large: output and reasoning at 15,000,000 per million: at least the 900 tokens the provider did.
  expect(u.cost_credits_minor).toBeGreaterThanOrEqual(Math.ceil((900 * 15_000_000) / 1_000_000));
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
            { type: "text", text: "[[fake:words=300,chunk_delay=20]] describe it" },
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
