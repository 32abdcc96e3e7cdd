import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { providerUsage } from "../support/provider-usage.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * Holds in tranches (docs/billing.md): a stream holds its prompt and one output tranche, and the
 * data-plane extends the hold as the provider produces. A modest balance starts an agent's turn
 * whose worst case it could never cover; an answer that outgrows the balance stops with an
 * `insufficient_credits` error in the client's own format, billed for what was generated, and the
 * organization never spends past its balance by more than the documented margin.
 */

let stack: Stack;
const TRANCHE = 64;
/** 1,000 minor per output token: a few hundred tokens exhaust a small balance. */
const OUTPUT_PRICE = 1_000_000_000;
const DEAR = "gw-dear-output";

beforeAll(async () => {
  // Small tranches checked often, so a test's answer crosses several of them.
  stack = await startStack("tranches", { dataPlaneEnv: { DATA_PLANE_HOLD_TRANCHE_TOKENS: String(TRANCHE), DATA_PLANE_HOLD_TRANCHE_CHECK_MS: "20" } });
  await stack.applyCatalog({
    models: [
      {
        id: DEAR,
        routes: ["chat", "messages", "responses"],
        context_window: 200_000,
        max_output_tokens: 100_000,
        input_price_minor_per_mtok: 1_000_000,
        output_price_minor_per_mtok: OUTPUT_PRICE,
        deployments: [{ provider: "fake-openai", upstream_model: "fake-gpt", priority: 0 }],
      },
    ],
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

async function orgWith(balanceMinor: number, models: string[]): Promise<TestOrg> {
  const org = await createOrg(stack, { balanceMinor, models });
  await eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl()}/models`, { headers: { authorization: `Bearer ${org.secret}` } });
      const ids = ((await r.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id);
      return models.every((m) => ids.includes(m)) ? true : undefined;
    },
    15_000,
    "the models visible",
  );
  return org;
}

async function recordOf(org: TestOrg, id: string) {
  return eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${org.secret}` } });
      return r.status === 200
        ? ((await r.json()) as {
            status: number;
            stream: boolean;
            cost_credits_minor: number;
            usage: { input_tokens: number; output_tokens: number; basis: string };
            attempts: Array<{ outcome: string }>;
          })
        : undefined;
    },
    15_000,
    "the record",
  );
}

const spentOf = async (org: TestOrg) => (await stack.ledgerClient.GetCredits({ org_id: org.orgId })).spent_minor;

/** A long answer, streamed a word at a time, 2 ms apart: about 6 s if nothing stops it. */
const LONG = "[[fake:words=3000,chunk_delay=2]]";
const BALANCE = 500_000;
/** The documented margin: one tranche of output beyond what was held when the extension was refused. */
const MARGIN = TRANCHE * (OUTPUT_PRICE / 1_000_000);

describe("holds in tranches", () => {
  it("a modest balance starts a Codex-sized turn (no output limit: the model's 128,000) and bills exactly what the provider reported", async () => {
    const org = await orgWith(200_000, ["gw-gpt"]);
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    // Held whole, the turn would need the model's whole output: the dry run shows both.
    const dry = await fetch(`${stack.baseUrl()}/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.secret}`, "content-type": "application/json", "x-gateway-dry-run": "true" },
      body: JSON.stringify({ model: "gw-gpt", input: "fix the failing test", stream: true }),
    });
    const estimate = (await dry.json()) as { max_cost_minor: number; hold_minor: number; tranche_tokens: number };
    expect(dry.status).toBe(200);
    expect(estimate.max_cost_minor).toBeGreaterThan(200_000);
    expect(estimate.hold_minor).toBeLessThan(200_000);
    expect(estimate.tranche_tokens).toBe(TRANCHE);

    const { data: stream, response } = await client.responses.create({ model: "gw-gpt", input: "fix the failing test", stream: true }).withResponse();
    let text = "";
    for await (const ev of stream) if (ev.type === "response.output_text.delta") text += ev.delta;
    expect(text.length).toBeGreaterThan(0);
    const record = await recordOf(org, response.headers.get("x-gateway-trace-id")!);
    expect(record).toMatchObject({ status: 200, usage: { basis: "reported" } });
    expect(await spentOf(org)).toBe(record.cost_credits_minor);
  });

  it("an answer that outgrows the balance stops with insufficient_credits in each client's format; what was generated is billed, never past the balance by more than the margin", async () => {
    const org = await orgWith(BALANCE, [DEAR]);
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const stopped: Array<{ format: string; text: string; err: unknown; id: string }> = [];

    const chat = await openai.chat.completions.create({ model: DEAR, stream: true, messages: [{ role: "user", content: `talk ${LONG}` }] }).withResponse();
    let text = "";
    const chatErr = await (async () => {
      for await (const c of chat.data) text += c.choices[0]?.delta.content ?? "";
    })().catch((e: unknown) => e);
    stopped.push({ format: "chat", text, err: chatErr, id: chat.response.headers.get("x-gateway-trace-id")! });
    await recordOf(org, stopped[0]!.id);
    const spentAfterChat = await spentOf(org);
    expect(spentAfterChat).toBeGreaterThan(0);
    expect(spentAfterChat).toBeLessThanOrEqual(BALANCE + MARGIN);

    // What is left starts another stream (its first tranche fits) or is refused at admission; either way nothing goes past the margin.
    const again = await openai.chat.completions
      .create({ model: DEAR, stream: true, messages: [{ role: "user", content: `again ${LONG}` }] })
      .then(async (stream) => {
        for await (const _ of stream) {
        }
        return undefined;
      })
      .catch((e: unknown) => e);
    // Completed, refused (402) or stopped for credit: an error is the only other way it may end.
    expect(again === undefined || again instanceof Error).toBe(true);
    expect(await spentOf(org)).toBeLessThanOrEqual(BALANCE + MARGIN);

    // The Messages and Responses formats, each on a fresh balance.
    const org2 = await orgWith(BALANCE, [DEAR]);
    const anthropic2 = new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: org2.secret, maxRetries: 0 });
    const messages = await anthropic2.messages.create({ model: DEAR, max_tokens: 50_000, stream: true, messages: [{ role: "user", content: `talk ${LONG}` }] }).withResponse();
    text = "";
    const messagesErr = await (async () => {
      for await (const ev of messages.data) if (ev.type === "content_block_delta" && ev.delta.type === "text_delta") text += ev.delta.text;
    })().catch((e: unknown) => e);
    stopped.push({ format: "messages", text, err: messagesErr, id: messages.response.headers.get("x-gateway-trace-id")! });
    await recordOf(org2, stopped[1]!.id);
    expect(await spentOf(org2)).toBeLessThanOrEqual(BALANCE + MARGIN);

    const org3 = await orgWith(BALANCE, [DEAR]);
    const openai3 = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org3.secret, maxRetries: 0 });
    const responses = await openai3.responses.create({ model: DEAR, stream: true, input: `talk ${LONG}` }).withResponse();
    text = "";
    const responsesErr = await (async () => {
      for await (const ev of responses.data) {
        if (ev.type === "response.output_text.delta") text += ev.delta;
        if (ev.type === "error") throw Object.assign(new Error(ev.message), { code: ev.code });
      }
    })().catch((e: unknown) => e);
    stopped.push({ format: "responses", text, err: responsesErr, id: responses.response.headers.get("x-gateway-trace-id")! });
    await recordOf(org3, stopped[2]!.id);
    expect(await spentOf(org3)).toBeLessThanOrEqual(BALANCE + MARGIN);

    // The Responses API's WebSocket mode (Codex's transport): the turn's events, then its error event; the connection stays open.
    const org4 = await orgWith(BALANCE, [DEAR]);
    const ws = new WebSocket(`${stack.baseUrl().replace(/^http/, "ws")}/responses`, { headers: { authorization: `Bearer ${org4.secret}` } });
    const events: Array<Record<string, unknown>> = [];
    const ended = new Promise<void>((resolve, reject) => {
      ws.on("message", (d) => {
        const e = JSON.parse(String(d)) as Record<string, unknown>;
        events.push(e);
        if (["error", "response.completed", "response.failed"].includes(String(e.type))) resolve();
      });
      ws.on("error", reject);
    });
    await new Promise<void>((resolve, reject) => ws.once("open", resolve).once("error", reject));
    ws.send(JSON.stringify({ type: "response.create", model: DEAR, input: `talk ${LONG}` }));
    await ended;
    expect(events.some((e) => e.type === "response.output_text.delta")).toBe(true);
    const last = events.at(-1)!;
    expect(last.type).toBe("error");
    expect(JSON.stringify(last)).toMatch(/insufficient_credits/);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
    const turn = events.find((e) => e.type === "gateway.turn") as { request_id: string };
    await recordOf(org4, turn.request_id);
    expect(await spentOf(org4)).toBeLessThanOrEqual(BALANCE + MARGIN);

    for (const s of stopped) {
      // Part of the answer came, then the client's own error, naming the credit.
      expect(s.text.length, s.format).toBeGreaterThan(0);
      expect(s.err, s.format).toBeInstanceOf(Error);
      expect(String((s.err as Error).message), s.format).toMatch(/credit ran out/);
      const record = await recordOf(s.format === "chat" ? org : s.format === "messages" ? org2 : org3, s.id);
      // Billed what was generated (counted: the provider's usage never came), the attempt cut.
      expect(record.usage.output_tokens, s.format).toBeGreaterThan(0);
      expect(record.attempts.at(-1)?.outcome, s.format).toBe("cut");
    }
  });
  it("the ledger stopped while a stream extends its hold: the stream goes on within the replica's lease, then stops (no credit is assumed); billed once when the ledger is back", async () => {
    const org = await orgWith(10_000_000, [DEAR]);
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    // 3,000 tokens at 1,000 minor each: 3,000,000, more than the replica's lease holds beyond the first tranche.
    const { data: stream, response } = await openai.chat.completions.create({ model: DEAR, stream: true, messages: [{ role: "user", content: `talk ${LONG}` }] }).withResponse();
    let text = "";
    let stoppedLedger = false;
    const err = await (async () => {
      for await (const c of stream) {
        text += c.choices[0]?.delta.content ?? "";
        if (!stoppedLedger) {
          stoppedLedger = true;
          await stack.stopLedger();
        }
      }
    })().catch((e: unknown) => e);
    try {
      // Extensions past the lease need the ledger: refused, so the stream stopped for credit.
      expect(err).toBeInstanceOf(Error);
      expect(String((err as Error).message)).toMatch(/credit ran out/);
      expect(text.length).toBeGreaterThan(0);
    } finally {
      await stack.startLedger();
    }
    const record = await recordOf(org, response.headers.get("x-gateway-trace-id")!);
    expect(record.attempts.at(-1)?.outcome).toBe("cut");
    // Billed what was generated, exactly once, within what the lease could hold: nowhere near the balance.
    expect(await spentOf(org)).toBe(record.cost_credits_minor);
    expect(record.cost_credits_minor).toBeLessThan(3_000_000);
  });
});
/** The fake provider's last request whose body contains `marker`. */
const sentTo = (marker: string) => [...stack.fake.requests].reverse().find((r) => JSON.stringify(r.body ?? "").includes(marker))!;
/** Whether the gateway asked the provider for a stream (`stream: true`; Gemini's in the method it calls). */
const streamedTo = (marker: string) => {
  const r = sentTo(marker);
  return (r.body as { stream?: unknown }).stream === true || r.path.endsWith(":streamGenerateContent");
};
/** The request id the gateway answered an SDK's error with. */
const failedId = (err: unknown) => (err as { headers: Headers }).headers.get("x-gateway-trace-id")!;
/** Minor units for tokens at per-million prices, rounded up once (docs/billing.md). */
const priced = (input: number, inPrice: number, output: number, outPrice: number) => Math.ceil((input * inPrice + output * outPrice) / 1_000_000);

describe("holds in tranches: non-streamed requests", () => {
  it("a modest balance gets a whole answer with no output limit (chat and Responses on gw-gpt's 128,000, Messages on gw-claude's 64,000), billed exactly what the provider reported", async () => {
    const org = await orgWith(200_000, ["gw-gpt", "gw-claude"]);
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    // A non-streamed call with a large max_tokens states its timeout (the SDK refuses to guess one past 21,333 tokens).
    const anthropic = new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: org.secret, maxRetries: 0, timeout: 120_000 });
    // Held whole, each would need more than the balance; the dry run says it holds one tranche now.
    const dry = await fetch(`${stack.baseUrl()}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.secret}`, "content-type": "application/json", "x-gateway-dry-run": "true" },
      body: JSON.stringify({ model: "gw-gpt", messages: [{ role: "user", content: "fix the failing test" }] }),
    });
    const estimate = (await dry.json()) as { max_cost_minor: number; hold_minor: number; tranche_tokens: number; admitted: boolean };
    expect(estimate).toMatchObject({ tranche_tokens: TRANCHE, admitted: true });
    expect(estimate.max_cost_minor).toBeGreaterThan(200_000);
    expect(estimate.hold_minor).toBeLessThan(200_000);

    const ids: string[] = [];
    const chat = await openai.chat.completions.create({ model: "gw-gpt", messages: [{ role: "user", content: "nonstream-chat fix the failing test" }] }).withResponse();
    expect(chat.data.object).toBe("chat.completion");
    expect(chat.data.choices[0]!.message.content).toBe("Echo: nonstream-chat fix the failing test");
    ids.push(chat.response.headers.get("x-gateway-trace-id")!);

    const messages = await anthropic.messages.create({ model: "gw-claude", max_tokens: 64_000, messages: [{ role: "user", content: "nonstream-messages fix the failing test" }] }).withResponse();
    expect(messages.data.content).toEqual([{ type: "text", text: "Echo: nonstream-messages fix the failing test" }]);
    ids.push(messages.response.headers.get("x-gateway-trace-id")!);

    const responses = await openai.responses.create({ model: "gw-gpt", input: "nonstream-responses fix the failing test" }).withResponse();
    expect(responses.data.output_text).toBe("Echo: nonstream-responses fix the failing test");
    ids.push(responses.response.headers.get("x-gateway-trace-id")!);

    // Each was asked of the provider as a stream, and billed from the provider's own usage at the catalog's prices.
    const prices = [
      ["nonstream-chat", 1_250_000, 10_000_000],
      ["nonstream-messages", 800_000, 4_000_000],
      ["nonstream-responses", 1_250_000, 10_000_000],
    ] as const;
    let spent = 0;
    for (const [i, [marker, inPrice, outPrice]] of prices.entries()) {
      expect(streamedTo(marker), marker).toBe(true);
      const record = await recordOf(org, ids[i]!);
      const p = providerUsage(stack.fake, marker);
      expect(record, marker).toMatchObject({ status: 200, stream: false, usage: { input_tokens: p.input + p.cacheRead + p.cacheWrite, output_tokens: p.output, basis: "reported" } });
      expect(record.cost_credits_minor, marker).toBe(priced(p.input + p.cacheRead + p.cacheWrite, inPrice, p.output, outPrice));
      spent += record.cost_credits_minor;
    }
    expect(await spentOf(org)).toBe(spent);
  });

  it("a whole answer that outgrows the balance is refused with a 402 in each client's format, nothing partial answered; what was generated is billed, never past the balance by more than the margin", async () => {
    const refusals: Array<{ format: string; org: TestOrg; err: unknown }> = [];
    const org1 = await orgWith(BALANCE, [DEAR]);
    const openai1 = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org1.secret, maxRetries: 0 });
    refusals.push({ format: "chat", org: org1, err: await openai1.chat.completions.create({ model: DEAR, messages: [{ role: "user", content: `nonstream-talk ${LONG}` }] }).catch((e: unknown) => e) });

    const org2 = await orgWith(BALANCE, [DEAR]);
    const anthropic2 = new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: org2.secret, maxRetries: 0, timeout: 120_000 });
    refusals.push({
      format: "messages",
      org: org2,
      err: await anthropic2.messages.create({ model: DEAR, max_tokens: 50_000, messages: [{ role: "user", content: `nonstream-talk ${LONG}` }] }).catch((e: unknown) => e),
    });

    const org3 = await orgWith(BALANCE, [DEAR]);
    const openai3 = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org3.secret, maxRetries: 0 });
    refusals.push({ format: "responses", org: org3, err: await openai3.responses.create({ model: DEAR, input: `nonstream-talk ${LONG}` }).catch((e: unknown) => e) });

    for (const { format, org, err } of refusals) {
      // The client's own error: OpenAI's {"error": {"code": …}}, Anthropic's {"type": "error", "error": {…}}.
      expect(err, format).toBeInstanceOf(format === "messages" ? Anthropic.APIError : OpenAI.APIError);
      const e = err as { status: number; error: Record<string, unknown> };
      expect(e.status, format).toBe(402);
      const body = format === "messages" ? (e.error as { type: string; error: Record<string, unknown> }) : { type: "error", error: e.error };
      expect(body, format).toMatchObject({ type: "error", error: { code: "insufficient_credits", action: "top_up", message: expect.stringMatching(/credit ran out/) } });
      // Billed what the provider generated before it was stopped: the attempt cut, within the margin.
      const record = await recordOf(org, failedId(err));
      expect(record, format).toMatchObject({ status: 402, usage: { basis: "estimated" } });
      expect(record.usage.output_tokens, format).toBeGreaterThan(0);
      expect(record.attempts.at(-1)?.outcome, format).toBe("cut");
      const spent = await spentOf(org);
      expect(spent, format).toBe(record.cost_credits_minor);
      expect(spent, format).toBeLessThanOrEqual(BALANCE + MARGIN);
    }
    // Stopped, not read to its end: the provider's 3,000 words were cut short.
    expect(streamedTo("nonstream-talk")).toBe(true);
  });

  it("an answer read from the provider's stream is the answer its JSON gives: tool calls, n = 2, thinking and its signature, structured output, on every provider kind and client API", async () => {
    const org = await orgWith(10_000_000, ["gw-gpt", "gw-claude", "gw-gemini"]);
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: org.secret, maxRetries: 0 });
    const tools = [
      { type: "function" as const, function: { name: "lookup", description: "Look it up.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } } },
    ];
    const person = {
      type: "json_schema" as const,
      json_schema: { name: "person", schema: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name", "age"] } },
    };
    // Each case at a limit within one tranche (sent as asked: the JSON answer) and above it (streamed and collected).
    const cases: Array<[string, (limit: number, marker: string) => Promise<unknown>, number]> = [
      [
        "chat → OpenAI, tool calls, n = 2",
        (limit, m) => openai.chat.completions.create({ model: "gw-gpt", n: 2, max_completion_tokens: limit, tools, messages: [{ role: "user", content: m }] }),
        TRANCHE / 2,
      ],
      ["chat → Anthropic, tool calls", (limit, m) => openai.chat.completions.create({ model: "gw-claude", max_tokens: limit, tools, messages: [{ role: "user", content: m }] }), TRANCHE],
      [
        "chat → Anthropic, structured output",
        (limit, m) => openai.chat.completions.create({ model: "gw-claude", max_tokens: limit, response_format: person, messages: [{ role: "user", content: m }] }),
        TRANCHE,
      ],
      ["chat → Gemini, tool calls", (limit, m) => openai.chat.completions.create({ model: "gw-gemini", max_tokens: limit, tools, messages: [{ role: "user", content: m }] }), TRANCHE],
      ["chat → Gemini, n = 2", (limit, m) => openai.chat.completions.create({ model: "gw-gemini", n: 2, max_tokens: limit, messages: [{ role: "user", content: m }] }), TRANCHE / 2],
      [
        "Messages → Anthropic, thinking",
        (limit, m) => anthropic.messages.create({ model: "gw-claude", max_tokens: limit, thinking: { type: "enabled", budget_tokens: 1024 }, messages: [{ role: "user", content: m }] }),
        TRANCHE,
      ],
      [
        "Messages → OpenAI, tool use",
        (limit, m) =>
          anthropic.messages.create({
            model: "gw-gpt",
            max_tokens: limit,
            tools: [{ name: "lookup", input_schema: { type: "object", properties: { text: { type: "string" } } } }],
            messages: [{ role: "user", content: m }],
          }),
        TRANCHE,
      ],
      [
        "Responses → OpenAI, reasoning and a function call",
        (limit, m) =>
          openai.responses.create({ model: "gw-gpt", max_output_tokens: limit, tools: [{ type: "function", name: "lookup", parameters: null, strict: false }], input: `${m} [[fake:reasoning=5]]` }),
        TRANCHE,
      ],
      [
        "Responses → Anthropic, a function call",
        (limit, m) => openai.responses.create({ model: "gw-claude", max_output_tokens: limit, tools: [{ type: "function", name: "lookup", parameters: null, strict: false }], input: m }),
        TRANCHE,
      ],
      ["Responses → Gemini, text", (limit, m) => openai.responses.create({ model: "gw-gemini", max_output_tokens: limit, input: m }), TRANCHE],
    ];
    for (const [what, ask, limit] of cases) {
      const marker = `same-answer ${what.replace(/\W+/g, "-")}`;
      const json = await ask(limit, `${marker} VIAJSON`);
      expect(streamedTo(`${marker} VIAJSON`), what).toBe(false);
      const collected = await ask(1_000, `${marker} VIASSE2`);
      expect(streamedTo(`${marker} VIASSE2`), what).toBe(true);
      expect(comparable(collected, "VIASSE2"), what).toEqual(comparable(json, "VIAJSON"));
    }
  });
});

/**
 * An answer as two requests that differ only in their marker word and output limit can be compared:
 * ids and times (fresh for every answer) and the echoed limit left out, the marker word named alike.
 */
function comparable(answer: unknown, word: string): unknown {
  if (Array.isArray(answer)) return answer.map((a) => comparable(a, word));
  if (typeof answer === "string") return answer.replaceAll(word, "<marker>");
  if (!answer || typeof answer !== "object") return answer;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(answer)) {
    if (["id", "created", "created_at", "call_id", "max_output_tokens"].includes(k)) continue;
    // A signature or a tool input carries the prompt's words too (the fake thinks and calls with them).
    out[k] = typeof v === "string" && k === "signature" ? Buffer.from(Buffer.from(v.replace(/^sig_/, ""), "base64").toString().replaceAll(word, "<marker>")).toString("base64") : comparable(v, word);
  }
  return out;
}
