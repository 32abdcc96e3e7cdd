import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.ts";
import type { UsageBody } from "../support/api.ts";

let stack: Stack;
let client: OpenAI;
beforeAll(async () => {
  stack = await startStack("embeddings");
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
});

async function usageOf(id: string) {
  return (await (await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${stack.demo.secret}` } })).json()) as UsageBody;
}

it("embeds a string and bills its input tokens at the catalog price", async () => {
  const { data, response } = await client.embeddings.create({ model: "gw-embed-small", input: "the quick brown fox" }).withResponse();
  expect(data.model).toBe("gw-embed-small");
  expect(data.data).toHaveLength(1);
  expect(data.data[0]!.embedding).toHaveLength(8);
  expect(data.usage.prompt_tokens).toBe(4);
  expect(response.headers.get("x-gateway-provider")).toBe("fake");
  const u = await usageOf(response.headers.get("x-gateway-trace-id")!);
  expect(u).toMatchObject({ route: "embeddings", usage: { input_tokens: 4, output_tokens: 0 } });
  expect(u.cost_credits_minor).toBe(Math.ceil((4 * 20_000) / 1_000_000));
});

it("embeds arrays, honours dimensions and base64 encoding", async () => {
  const many = await client.embeddings.create({ model: "gw-embed-small", input: ["one", "two words", "three more words"], dimensions: 3 });
  expect(many.data.map((d) => d.index)).toEqual([0, 1, 2]);
  expect(many.data.every((d) => d.embedding.length === 3)).toBe(true);
  expect(many.usage.prompt_tokens).toBe(6);
  // The SDK asks for base64 and decodes it back to floats.
  const b64 = await client.embeddings.create({ model: "gw-embed-small", input: "one", dimensions: 3, encoding_format: "base64" });
  expect(typeof b64.data[0]!.embedding).toBe("string");
  const bytes = Buffer.from(b64.data[0]!.embedding as unknown as string, "base64");
  const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
  expect(decoded.map((x) => Math.round(x * 1000))).toEqual(many.data[0]!.embedding.map((x) => Math.round(x * 1000)));
});

it("refuses bad input naming the field, and a chat model on the embeddings route", async () => {
  const empty = await client.embeddings.create({ model: "gw-embed-small", input: [] }).catch((e: unknown) => e);
  expect(empty).toBeInstanceOf(OpenAI.BadRequestError);
  expect((empty as InstanceType<typeof OpenAI.APIError>).param).toBe("input");
  const chatModel = await client.embeddings.create({ model: "gw-chat-mini", input: "x" }).catch((e: unknown) => e);
  expect((chatModel as InstanceType<typeof OpenAI.APIError>).code).toBe("model_not_supported_for_route");
});

it("falls back when the first embeddings deployment fails, and says so", async () => {
  const { data, response } = await client.embeddings.create({ model: "gw-embed-small", input: "fail first [[fake:flaky=emb-1:3]]" }).withResponse();
  expect(data.data).toHaveLength(1);
  expect(response.headers.get("x-gateway-provider")).toBe("fake-backup");
  expect(response.headers.get("x-gateway-attempted-fallbacks")).toBe("fake");
});
