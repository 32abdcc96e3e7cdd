import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countTokens, stripMarkers } from "@gateway/fake-upstream";
import { eventually, pdfFile } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg } from "../support/orgs.ts";
import type { AnyBody } from "../support/api.ts";

/**
 * The output limit the hold covers is the one the provider gets, in the field its kind reads: the
 * official SDKs send no max_tokens by default, and a provider left to its own default (16k and more)
 * would generate past the hold into a negative balance.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack("output_limit");
});
afterAll(async () => {
  await stack?.stop();
});

/** The last request the fake provider received on `path`. */
function sent(path: string): Record<string, unknown> {
  const r = [...stack.fake.requests].reverse().find((q) => q.path === path);
  if (!r) throw new Error(`nothing reached ${path}`);
  return r.body as Record<string, unknown>;
}

async function get(path: string, secret: string): Promise<AnyBody> {
  const r = await fetch(`${stack.baseUrl()}${path}`, { headers: { authorization: `Bearer ${secret}` } });
  return r.json();
}

describe("the output limit the hold covered goes upstream", () => {
  it("a request without max_tokens cannot spend past the balance: the provider gets the catalog's limit", async () => {
    // gw-chat-mini: 4,096 output tokens at 600,000 minor per million, input at 150,000. The hold is
    // about 2,480; 3,000 covers it, but not the 12,000 that 20,000 generated words would cost.
    const topUp = 3_000;
    const org = await createOrg(stack, { balanceMinor: topUp, models: ["gw-chat-mini"] });
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const prompt = "[[fake:words=20000]] write the longest story you can";
    const { data, response } = await eventually(
      () => client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: prompt }] }).withResponse(),
      5_000,
      "gw-chat-mini visible to the new org",
    );
    expect(sent("/v1/chat/completions")).toMatchObject({ max_tokens: 4_096 });
    expect(sent("/v1/chat/completions")).not.toHaveProperty("max_completion_tokens");
    expect(data.choices[0]!.finish_reason).toBe("length");
    expect(data.usage?.completion_tokens).toBe(4_096);
    const cost = Math.ceil((countTokens(stripMarkers(prompt)) * 150_000 + 4_096 * 600_000) / 1_000_000);
    const record = await get(`/usage/${response.headers.get("x-request-id")}`, org.secret);
    expect(record.cost_credits_minor).toBe(cost);
    await eventually(async () => ((await get("/credits", org.secret)).balance_minor === topUp - cost ? true : undefined), 5_000, `balance ${topUp - cost}`);
    expect(topUp - cost).toBeGreaterThanOrEqual(0);
  });

  it("two limit fields: the larger is held and is the one limit forwarded; past the model's limit it is clamped, or a 400 for a strict organization", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    await client.chat.completions.create({ model: "gw-chat-mini", max_completion_tokens: 5, max_tokens: 50, messages: [{ role: "user", content: "[[fake:words=100]] go" }] });
    const body = sent("/v1/chat/completions");
    expect(body.max_tokens).toBe(50);
    expect(body).not.toHaveProperty("max_completion_tokens");

    // One field set: an OpenAI-compatible server gets the client's own (Azure's reasoning models take only max_completion_tokens).
    await client.chat.completions.create({ model: "gw-chat-mini", max_completion_tokens: 40, messages: [{ role: "user", content: "go" }] });
    expect(sent("/v1/chat/completions")).toMatchObject({ max_completion_tokens: 40 });
    expect(sent("/v1/chat/completions")).not.toHaveProperty("max_tokens");

    // Past the model's limit: clamped to it (the hold and the provider get 4,096), and said so.
    const { response } = await client.chat.completions.create({ model: "gw-chat-mini", max_completion_tokens: 1, max_tokens: 1_000_000, messages: [{ role: "user", content: "go" }] }).withResponse();
    expect(response.headers.get("x-gateway-clamped")).toBe("max_tokens=4096");
    expect(sent("/v1/chat/completions")).toMatchObject({ max_tokens: 4_096 });

    // An organization that asked for strict limits gets the 400, and nothing is sent.
    const strict = await createOrg(stack, { balanceMinor: 1_000_000, models: ["gw-chat-mini"] });
    await stack.admin.SetOrgOutputLimit({ org: strict.orgId, output_limit: "strict" });
    const strictClient = new OpenAI({ baseURL: stack.baseUrl(), apiKey: strict.secret, maxRetries: 0 });
    const before = stack.fake.requests.length;
    const err = await eventually(
      async () => {
        const e = await strictClient.chat.completions.create({ model: "gw-chat-mini", max_tokens: 1_000_000, messages: [{ role: "user", content: "go" }] }).catch((x: unknown) => x);
        return e instanceof OpenAI.BadRequestError ? e : undefined;
      },
      10_000,
      "the strict policy applied",
    );
    expect(err.param).toBe("max_tokens");
    expect(err.message).toContain("exceeds the output limit of 'gw-chat-mini' (4096)");
    expect(stack.fake.requests.length).toBe(before);
  });

  it("Claude Code's max_tokens 32000 on a model that allows 4,096: clamped, the hold covers 4,096, the header says so (Messages, Responses, dry run)", async () => {
    const org = await createOrg(stack, { balanceMinor: 10_000_000, models: ["gw-chat-mini"] });
    const anthropic = new Anthropic({ baseURL: stack.dataPlanes[0]!.url, apiKey: org.secret, maxRetries: 0 });
    // Streamed, as Claude Code sends it (the SDK refuses a non-streamed request this large).
    const { data: stream, response } = await eventually(
      () => anthropic.messages.create({ model: "gw-chat-mini", max_tokens: 32_000, stream: true, messages: [{ role: "user", content: "hello" }] }).withResponse(),
      5_000,
      "gw-chat-mini visible to the new org",
    );
    const kinds: string[] = [];
    for await (const ev of stream) kinds.push(ev.type);
    expect(kinds).toContain("message_stop");
    expect(response.headers.get("x-gateway-clamped")).toBe("max_tokens=4096");
    expect(sent("/v1/chat/completions")).toMatchObject({ max_tokens: 4_096 });
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const r = await client.responses.create({ model: "gw-chat-mini", input: "hello", store: false, max_output_tokens: 50_000 }).withResponse();
    expect(r.response.headers.get("x-gateway-clamped")).toBe("max_output_tokens=4096");
    expect(sent("/v1/chat/completions")).toMatchObject({ max_tokens: 4_096 });
    // The hold a dry run reports is the clamped one: 4,096 output tokens, not 32,000.
    const dry = await fetch(`${stack.baseUrl()}/messages`, {
      method: "POST",
      headers: { "x-api-key": org.secret, "content-type": "application/json", "anthropic-version": "2023-06-01", "x-gateway-dry-run": "true" },
      body: JSON.stringify({ model: "gw-chat-mini", max_tokens: 32_000, messages: [{ role: "user", content: "hello" }] }),
    });
    expect(dry.status).toBe(200);
    expect(dry.headers.get("x-gateway-clamped")).toBe("max_tokens=4096");
    const estimate = (await dry.json()) as { lines: Array<{ item: string; quantity: number }> };
    expect(estimate.lines.find((l) => l.item.includes("output"))?.quantity).toBe(4_096);
  });

  it("an OpenAI deployment gets max_completion_tokens (its reasoning models refuse max_tokens)", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    await client.chat.completions.create({ model: "gw-gpt", max_tokens: 100, messages: [{ role: "user", content: "hello" }] });
    expect(sent("/v1/chat/completions")).toMatchObject({ max_completion_tokens: 100 });
    expect(sent("/v1/chat/completions")).not.toHaveProperty("max_tokens");
    await client.chat.completions.create({ model: "gw-gpt", messages: [{ role: "user", content: "hello" }] });
    expect(sent("/v1/chat/completions")).toMatchObject({ max_completion_tokens: 128_000 });
  });

  it("chat completions to Claude without a limit send the catalog's, not a fixed 4,096", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    await client.chat.completions.create({ model: "gw-claude", messages: [{ role: "user", content: "hello" }] });
    expect(sent("/v1/messages")).toMatchObject({ max_tokens: 64_000 });
  });

  it("the Responses API and Messages to a chat deployment send the limit too", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    await client.responses.create({ model: "gw-chat-mini", input: "hello", store: false });
    expect(sent("/v1/chat/completions")).toMatchObject({ max_tokens: 4_096 });
    await client.responses.create({ model: "gw-chat-mini", input: "hello", store: false, max_output_tokens: 64 });
    expect(sent("/v1/chat/completions")).toMatchObject({ max_tokens: 64 });
    const anthropic = new Anthropic({ baseURL: stack.dataPlanes[0]!.url, apiKey: stack.demo.secret, maxRetries: 0 });
    await anthropic.messages.create({ model: "gw-gpt", max_tokens: 300, messages: [{ role: "user", content: "hello" }] });
    expect(sent("/v1/chat/completions")).toMatchObject({ max_completion_tokens: 300 });
    expect(sent("/v1/chat/completions")).not.toHaveProperty("max_tokens");
  });

  it("chat file parts by file id are refused (read from the gateway's provider account, billed unseen); inline files go through", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    const before = stack.fake.requests.length;
    const err = await client.chat.completions
      .create({
        model: "gw-chat-mini",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "read" },
              { type: "file", file: { file_id: "file-abc123" } },
            ],
          },
        ],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.APIError>).param).toBe("messages[0].content[1].file.file_id");
    expect(stack.fake.requests.length).toBe(before);
    const ok = await client.chat.completions.create({
      model: "gw-chat-mini",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "read" },
            // A one-page PDF: held at gw-chat-mini's tokens per page (docs/billing.md, "Media").
            { type: "file", file: { filename: "a.pdf", file_data: `data:application/pdf;base64,${pdfFile(1).toString("base64")}` } },
          ],
        },
      ],
    });
    expect(ok.choices[0]!.message.role).toBe("assistant");
  });
});
