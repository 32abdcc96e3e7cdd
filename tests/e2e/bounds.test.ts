import { gzipSync } from "node:zlib";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { eventually, mp4File, pdfFile } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";

/**
 * The hold covers the worst the provider can charge for every input, shown against small balances:
 * decoded (not wire) body size, `n`, image parts, any script, token arrays. The fake provider is
 * taught to charge like the worst real one for each (one token per UTF-8 byte, a price per image,
 * every choice of `n`), and the balance must never go below zero.
 */
let stack: Stack;
// 1 minor credit per token in and out: costs read as token counts.
const perToken = { input_price_minor_per_mtok: 1_000_000, output_price_minor_per_mtok: 1_000_000 };
const chatModel = (id: string, upstream: string, extra: Record<string, unknown> = {}) => ({
  id,
  routes: ["chat", "messages"],
  context_window: 100_000,
  max_output_tokens: 1_000,
  ...perToken,
  deployments: [{ provider: "fake", upstream_model: upstream }],
  ...extra,
});
const MODELS = ["gw-chat-mini", "gw-bytes", "gw-vision", "gw-audio", "gw-embed-bytes", "gw-ns", "gemini-bytes", "gw-gemini", "gw-claude"];

beforeAll(async () => {
  stack = await startStack("bounds");
  await stack.applyCatalog({
    models: [
      chatModel("gw-bytes", "fake-chat+byte_tokens"),
      chatModel("gw-vision", "fake-chat+image_tokens=1500", { max_input_tokens_per_image: 1_600 }),
      // Audio tokens at 3 minor each (text 1), as audio costs several times text at the providers.
      chatModel("gw-audio", "fake-chat+audio_tokens=700", { max_input_tokens_per_audio: 800, audio_input_price_minor_per_mtok: 3_000_000, audio_output_price_minor_per_mtok: 3_000_000 }),
      // Responses to a chat-completions deployment: namespace tools are flattened there.
      chatModel("gw-ns", "fake-chat+byte_tokens", { routes: ["chat", "responses"], context_window: 1_000_000 }),
      { ...chatModel("gemini-bytes", "fake-gemini"), deployments: [{ provider: "fake-gemini", upstream_model: "fake-gemini" }] },
      { id: "gw-embed-bytes", routes: ["embeddings"], context_window: 8_000, max_output_tokens: 0, ...perToken, deployments: [{ provider: "fake", upstream_model: "fake-embed+byte_tokens" }] },
    ],
  });
});
afterAll(async () => {
  await stack?.stop();
});

const org = (balanceMinor: number) => createOrg(stack, { balanceMinor, models: MODELS });
const openai = (o: TestOrg) => new OpenAI({ baseURL: stack.baseUrl(), apiKey: o.secret, maxRetries: 0 });
const credits = (o: TestOrg) => stack.ledgerClient.GetCredits({ org_id: o.orgId });
const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { status?: number }) => e.status ?? 0,
  );

/** Every answered request's record is in; returns what they cost. */
async function settled(o: TestOrg, answered: number): Promise<number> {
  const rows = await eventually(
    async () => {
      const r = await sql<{ cost_minor: number }>`SELECT cost_minor FROM ledger.usage_records WHERE org_id = ${o.orgId} AND error_code IS NULL`.execute(stack.ledger().db);
      return r.rows.length >= answered ? r.rows : undefined;
    },
    10_000,
    "usage applied",
  );
  return rows.reduce((s, r) => s + r.cost_minor, 0);
}

async function post(o: TestOrg, body: Buffer, headers: Record<string, string>): Promise<{ status: number; code?: string }> {
  const r = await fetch(`${stack.baseUrl()}/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${o.secret}`, "content-type": "application/json", ...headers }, body });
  const j = (await r.json()) as { error?: { code?: string } };
  return { status: r.status, code: j.error?.code };
}

describe("a compressed body", () => {
  it("is bounded by its decoded size: 7 KB on the wire, 3.6 MB decoded, is refused on a 5,000 balance", async () => {
    const o = await org(5_000);
    const body = gzipSync(JSON.stringify({ model: "gw-chat-mini", max_tokens: 16, messages: [{ role: "user", content: "x ".repeat(1_800_000) }] }));
    expect(body.length).toBeLessThan(10_000);
    expect(await post(o, body, { "content-encoding": "gzip" })).toEqual({ status: 402, code: "insufficient_credits" });
    expect((await credits(o)).balance_minor).toBe(5_000);
    // A small compressed request is served as usual.
    const small = gzipSync(JSON.stringify({ model: "gw-chat-mini", max_tokens: 16, messages: [{ role: "user", content: "hello there" }] }));
    expect((await post(o, small, { "content-encoding": "gzip" })).status).toBe(200);
  });

  it("that does not match its Content-Encoding is a 400, an unknown encoding a 415, a bomb a 413", async () => {
    const o = await org(5_000);
    const json = Buffer.from(JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "hi" }] }));
    expect(await post(o, json, { "content-encoding": "gzip" })).toEqual({ status: 400, code: "invalid_request" });
    expect(await post(o, gzipSync(json), { "content-encoding": "br" })).toEqual({ status: 400, code: "invalid_request" });
    expect(await post(o, gzipSync(json).subarray(0, 15), { "content-encoding": "gzip" })).toEqual({ status: 400, code: "invalid_request" });
    expect(await post(o, json, { "content-encoding": "compress-me" })).toEqual({ status: 415, code: "unsupported_media_type" });
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"model":"gw-chat-mini","messages":[{"role":"user","content":"'), Buffer.alloc(8 * 1024 * 1024, 0x61), Buffer.from('"}]}')]));
    expect(await post(o, bomb, { "content-encoding": "gzip" })).toEqual({ status: 413, code: "request_too_large" });
    expect((await credits(o)).balance_minor).toBe(5_000);
  });
});

describe("the hold covers what is sent, not what the client sent", () => {
  /** A Responses body with one namespace of 100 tools under a 1.5 KB description (how Codex groups its tools). */
  const namespaced = () => ({
    model: "gw-ns",
    input: "pick a tool",
    max_output_tokens: 100,
    tools: [
      {
        type: "namespace",
        name: "agents",
        description: "Tools of the agents group. ".repeat(58),
        tools: Array.from({ length: 100 }, (_, i) => ({ type: "function", name: `tool_${i}`, description: "d", parameters: { type: "object", properties: {} } })),
      },
    ],
  });
  const respond = (o: TestOrg, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${stack.baseUrl()}/responses`, { method: "POST", headers: { authorization: `Bearer ${o.secret}`, "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  it("namespace tools flattened for a chat deployment: the dry run covers the bytes sent, and a balance that covers only the client's body is refused", async () => {
    const rich = await org(10_000_000);
    const clientBytes = Buffer.byteLength(JSON.stringify(namespaced()));
    const dry = (await (await respond(rich, namespaced(), { "x-gateway-dry-run": "true" })).json()) as { lines: Array<{ item: string; quantity: number }> };
    const answered = await respond(rich, namespaced());
    expect(answered.status).toBe(200);
    // What the provider got: the namespace's description copied onto each of the 100 tools.
    const sent = [...stack.fake.requests].reverse().find((r) => r.path === "/v1/chat/completions")!;
    const sentBytes = Buffer.byteLength(JSON.stringify(sent.body));
    expect(sentBytes).toBeGreaterThan(10 * clientBytes);
    const heldPrompt = dry.lines.find((l) => l.item === "input_tokens")!.quantity;
    expect(heldPrompt).toBeGreaterThanOrEqual(sentBytes);
    // The provider bills every byte of the tools it got (one token per byte): within what was held.
    const billed = (await (await fetch(`${stack.baseUrl()}/usage/${answered.headers.get("x-gateway-trace-id")}`, { headers: { authorization: `Bearer ${rich.secret}` } })).json()) as {
      usage: { input_tokens: number };
    };
    expect(billed.usage.input_tokens).toBeGreaterThan(10 * clientBytes);
    expect(billed.usage.input_tokens).toBeLessThanOrEqual(heldPrompt);

    // A balance that covers the client's body (and its output) but not what is sent: refused, not overdrawn.
    const modest = await org(clientBytes + 100 + 20_000);
    const r = await respond(modest, namespaced());
    expect(r.status).toBe(402);
    expect((await credits(modest)).balance_minor).toBe(clientBytes + 100 + 20_000);
  });

  it("a Gemini tool schema whose references expand past the schema budget is a 400 naming it, with nothing held or sent", async () => {
    const o = await org(1_000_000);
    // 19 levels, each definition referring to the next twice: 2^19 copies once inlined, from a 2 KB body.
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 19; i++) defs[`d${i}`] = { type: "object", properties: { a: { $ref: `#/$defs/d${i + 1}` }, b: { $ref: `#/$defs/d${i + 1}` } } };
    defs.d19 = { type: "string" };
    const parameters = { type: "object", properties: { root: { $ref: "#/$defs/d0" } }, $defs: defs };
    const before = stack.fake.requests.length;
    const e = await openai(o)
      .chat.completions.create({ model: "gemini-bytes", messages: [{ role: "user", content: "call it" }], tools: [{ type: "function", function: { name: "deep", parameters } }] })
      .catch((err: unknown) => err as { status?: number; param?: string; message?: string });
    expect(e).toMatchObject({ status: 400, param: "tools[0].function.parameters" });
    expect((e as { message: string }).message).toMatch(/expands past .* once its references/);
    expect(stack.fake.requests.length).toBe(before);
    const c = await credits(o);
    expect(c.balance_minor).toBe(1_000_000);
    expect(c.held_minor).toBe(0);
  });
});

describe("media is held as the provider bills it: pages, seconds, a URL part at its maximum", () => {
  /** The dry run's held prompt tokens for a chat body (`x-gateway-dry-run`), or the error. */
  async function heldPrompt(o: TestOrg, path: string, body: unknown): Promise<{ status: number; prompt?: number; error?: { param?: string; message: string } }> {
    const r = await fetch(`${stack.baseUrl()}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${o.secret}`, "content-type": "application/json", "x-gateway-dry-run": "true" },
      body: JSON.stringify(body),
    });
    const j = (await r.json()) as { lines?: Array<{ item: string; quantity: number }>; error?: { param?: string; message: string } };
    return { status: r.status, prompt: j.lines?.find((l) => l.item === "input_tokens")?.quantity, ...(j.error ? { error: j.error } : {}) };
  }
  const video = (url: string) => ({
    model: "gw-gemini",
    max_tokens: 10,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "what happens?" },
          { type: "image_url", image_url: { url } },
        ],
      },
    ],
  });

  it("a YouTube link to Gemini is held at the model's maximum per URL part (before: as one image, 114 minor against 630,010 billed), and refused on a balance below it", async () => {
    const rich = await org(100_000_000);
    const held = await heldPrompt(rich, "/chat/completions", video("https://www.youtube.com/watch?v=dQw4w9WgXcQ"));
    expect(held.status).toBe(200);
    // gw-gemini declares 1,048,576 tokens per URL part (its whole context window).
    expect(held.prompt).toBe(1_048_576);
    const modest = await org(200_000);
    expect(await status(openai(modest).chat.completions.create(video("https://youtu.be/dQw4w9WgXcQ") as never))).toBe(402);
  });

  it("a data:video/mp4 part is held at its seconds (read from its header) × the model's tokens per second", async () => {
    const o = await org(100_000_000);
    const minute = `data:video/mp4;base64,${mp4File(60).toString("base64")}`;
    const held = await heldPrompt(o, "/chat/completions", video(minute));
    // 60 s at gw-gemini's 300 tokens a second, beside a few hundred bytes of text (before: 800, its bytes).
    expect(held.prompt).toBeGreaterThanOrEqual(60 * 300);
    expect(held.prompt).toBeLessThan(60 * 300 + 1_000);
  });

  it("a 40-page PDF of a few hundred bytes to Claude is held at 40 pages, not its bytes", async () => {
    const o = await org(100_000_000);
    const file = pdfFile(40, true);
    const body = {
      model: "gw-claude",
      max_tokens: 10,
      messages: [
        {
          role: "user",
          content: [
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: file.toString("base64") } },
            { type: "text", text: "summarize" },
          ],
        },
      ],
    };
    const held = await heldPrompt(o, "/messages", body);
    // gw-claude declares 3,000 tokens a page (a page image plus its text).
    expect(held.prompt).toBeGreaterThanOrEqual(40 * 3_000);
    // The whole body is a few KB: held by its bytes, as before, it would have covered under 3% of that.
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(3_000);
  });

  it("a model whose catalog does not bound an input refuses it, naming the field: a PDF, a video, a URL it would fetch", async () => {
    const o = await org(100_000_000);
    const pdf = `data:application/pdf;base64,${pdfFile(2).toString("base64")}`;
    const refused = await heldPrompt(o, "/chat/completions", { model: "gw-bytes", messages: [{ role: "user", content: [{ type: "file", file: { filename: "a.pdf", file_data: pdf } }] }] });
    expect(refused).toMatchObject({ status: 400, error: { param: "messages" } });
    expect(refused.error!.message).toContain("max_input_tokens_per_pdf_page");
    const clip = await heldPrompt(o, "/chat/completions", { ...video(`data:video/mp4;base64,${mp4File(5).toString("base64")}`), model: "gw-vision" });
    expect(clip.error!.message).toContain("max_input_tokens_per_media_second");
    const link = await heldPrompt(o, "/chat/completions", { ...video("https://youtu.be/abc"), model: "gw-vision" });
    expect(link.error!.message).toContain("max_input_tokens_per_url_part");
  });
});

describe("the hold", () => {
  it("multiplies the output by n, and n choices are billed", async () => {
    const o = await org(800);
    const ask = (n: number) => openai(o).chat.completions.create({ model: "gw-bytes", n, max_tokens: 100, messages: [{ role: "user", content: "say a few words" }] });
    // n = 8 could cost 800 output tokens plus the prompt: more than the balance.
    expect(await status(ask(8))).toBe(402);
    const tooMany = await ask(129).catch((e: unknown) => e as { status?: number; param?: string });
    expect(tooMany).toMatchObject({ status: 400, param: "n" });
    const three = await ask(3);
    expect(three.choices).toHaveLength(3);
    expect(three.usage!.completion_tokens).toBe(3 * three.choices[0]!.message.content!.split(" ").length);
    const spent = await settled(o, 1);
    expect(spent).toBe(three.usage!.prompt_tokens + three.usage!.completion_tokens);
    expect((await credits(o)).balance_minor).toBe(800 - spent);
  });

  it("counts every image part at the model's per-image maximum: a 40-byte URL cannot slip through", async () => {
    const o = await org(1_500);
    const ask = () =>
      openai(o).chat.completions.create({
        model: "gw-vision",
        max_tokens: 10,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "what is it" },
              { type: "image_url", image_url: { url: "https://img.example/cat.png" } },
            ],
          },
        ],
      });
    expect(await status(ask())).toBe(402);
    const rich = await org(20_000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        status(
          openai(rich).chat.completions.create({
            model: "gw-vision",
            max_tokens: 10,
            messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://img.example/dog.png" } }] }],
          }),
        ),
      ),
    );
    const ok = answers.filter((s) => s === 200).length;
    expect(ok).toBeGreaterThan(0);
    expect(answers.every((s) => s === 200 || s === 402)).toBe(true);
    const spent = await settled(rich, ok);
    expect(spent).toBeGreaterThanOrEqual(ok * 1_500);
    expect((await credits(rich)).balance_minor).toBe(20_000 - spent);
    expect((await credits(rich)).balance_minor).toBeGreaterThanOrEqual(0);
  });

  it("counts every audio part at the model's per-part maximum: a few bytes of audio cannot slip through", async () => {
    const audio = (o: TestOrg) =>
      status(
        openai(o).chat.completions.create({
          model: "gw-audio",
          max_tokens: 10,
          messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } }] }],
        }),
      );
    // 800 audio tokens at 3 each are held: 2,400 and the text cannot be covered by 2,000.
    expect(await audio(await org(2_000))).toBe(402);
    const o = await org(5_000);
    expect(await audio(o)).toBe(200);
    const spent = await settled(o, 1);
    // The provider reported 700 audio tokens: billed at the audio price, not as text.
    const r = await sql<{
      line_items: Array<{ item: string; quantity: number; unit_price_minor: number }>;
    }>`SELECT line_items FROM ledger.usage_records WHERE org_id = ${o.orgId} AND error_code IS NULL`.execute(stack.ledger().db);
    expect(r.rows[0]!.line_items).toContainEqual({ item: "audio_input_tokens", quantity: 700, unit_price_minor: 3_000_000, per: "1M tokens" });
    expect(spent).toBeGreaterThanOrEqual(700 * 3);
    expect((await credits(o)).balance_minor).toBe(5_000 - spent);
  });

  it("refuses audio on a model the catalog prices no audio for, in or out, naming the field, before anything is sent or held", async () => {
    const o = await org(100_000);
    const sent = stack.fake.requests.length;
    const input = await openai(o)
      .chat.completions.create({ model: "gw-bytes", max_tokens: 10, messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } }] }] })
      .catch((e: unknown) => e);
    expect(input).toBeInstanceOf(OpenAI.BadRequestError);
    expect((input as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("messages");
    expect((input as Error).message).toContain("Audio input is not available on model 'gw-bytes'");
    const output = await openai(o)
      .chat.completions.create({ model: "gw-bytes", max_tokens: 10, modalities: ["text", "audio"], audio: { voice: "alloy", format: "wav" }, messages: [{ role: "user", content: "say it" }] })
      .catch((e: unknown) => e);
    expect(output).toBeInstanceOf(OpenAI.BadRequestError);
    expect((output as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("audio");
    expect(stack.fake.requests.length).toBe(sent);
    expect((await credits(o)).held_minor).toBe(0);
  });

  it("bounds text in any script: concurrent CJK prompts billed a token per byte never overdraw", async () => {
    const o = await org(30_000);
    const prompt = "日本語の文章です。".repeat(200); // 5,400 UTF-8 bytes, 1,800 characters
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => status(openai(o).chat.completions.create({ model: "gw-bytes", max_tokens: 20, messages: [{ role: "user", content: prompt }] }))),
    );
    const ok = answers.filter((s) => s === 200).length;
    expect(ok).toBeGreaterThan(0);
    expect(answers.every((s) => s === 200 || s === 402)).toBe(true);
    const spent = await settled(o, ok);
    expect(spent).toBeGreaterThanOrEqual(ok * 5_400);
    expect((await credits(o)).balance_minor).toBe(30_000 - spent);
    expect((await credits(o)).balance_minor).toBeGreaterThanOrEqual(0);
  });

  it("counts token-array embedding inputs exactly", async () => {
    const o = await org(2_999);
    const tokens = Array.from({ length: 3_000 }, () => 0); // "0," = 2 bytes a token: bytes/3 would see 2,000
    expect(await status(openai(o).embeddings.create({ model: "gw-embed-bytes", input: tokens }))).toBe(402);
    const enough = await org(3_000);
    const r = await openai(enough).embeddings.create({ model: "gw-embed-bytes", input: tokens });
    expect(r.usage.prompt_tokens).toBe(3_000);
    expect(await settled(enough, 1)).toBe(3_000);
    expect((await credits(enough)).balance_minor).toBe(0);
  });
});
