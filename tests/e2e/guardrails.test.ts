import { createServer, type Server } from "node:http";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import type { AnyBody, UsageBody } from "../support/api.ts";

const MODELS = ["gw-chat-mini", "gw-claude", "gw-embed-small", "gw-image", "gw-video"];
let stack: Stack;
let hook: Server;
let hookUrl = "";

beforeAll(async () => {
  stack = await startStack("guardrails", { dataPlaneEnv: { DATA_PLANE_KEY_CACHE_TTL_MS: "60000" } });
  hook = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const texts = (JSON.parse(body) as { texts: string[] }).texts;
      if (req.url === "/slow") return void setTimeout(() => res.end('{"action":"allow"}'), 2_000);
      if (req.url === "/down") return void res.writeHead(503).end("down");
      if (texts.some((t) => t.includes("attack"))) return void res.end(JSON.stringify({ action: "deny", reason: "violence" }));
      res.end('{"action":"allow"}');
    });
  });
  await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}`;
});
afterAll(async () => {
  await stack?.stop();
  hook?.closeAllConnections();
  await new Promise<void>((r) => hook?.close(() => r()));
});

/** A fresh organization with these rules (YAML), and SDK clients for its key. */
async function orgWith(rules: string) {
  const org = await createOrg(stack, { balanceMinor: 50_000_000, models: MODELS });
  if (rules) await stack.admin.SetGuardrails({ org: org.orgId, document: rules });
  return {
    org,
    openai: new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 }),
    anthropic: new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: org.secret, maxRetries: 0 }),
  };
}

async function raw(org: TestOrg, path: string, body: unknown) {
  const r = await fetch(`${stack.baseUrl()}${path}`, { method: "POST", headers: { authorization: `Bearer ${org.secret}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, headers: r.headers, body: (await r.json()) as AnyBody };
}

const RULES = `rules:
  - plugin: pii
    name: no-pii
    action: mask
  - plugin: keywords
    config: { words: [forbidden] }
  - plugin: length
    config: { max_chars: 20000 }
`;

describe("outcomes and headers", () => {
  it("masks PII before it reaches the provider (the echo shows what was sent), with the header on 200", async () => {
    const { openai } = await orgWith(RULES);
    const { data, response } = await openai.chat.completions
      .create({ model: "gw-chat-mini", messages: [{ role: "user", content: "mail jane.doe@example.com or call +1 415 555 0100" }] })
      .withResponse();
    expect(data.choices[0]!.message.content).toContain("[EMAIL]");
    expect(data.choices[0]!.message.content).toContain("[PHONE]");
    expect(data.choices[0]!.message.content).not.toContain("jane.doe");
    expect(response.headers.get("x-gateway-guardrails")).toBe("pii:masked,keywords:pass,length:pass");
    const sent = stack.fake.requests.at(-1)!;
    expect(JSON.stringify(sent.body)).not.toContain("jane.doe@example.com");
    // The outcomes are stored with the usage record.
    const id = response.headers.get("x-gateway-trace-id")!;
    const usage = (await (await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${await openai.apiKey}` } })).json()) as UsageBody;
    expect(usage.guardrails).toEqual([
      { plugin: "pii", name: "no-pii", outcome: "masked" },
      { plugin: "keywords", outcome: "pass" },
      { plugin: "length", outcome: "pass" },
    ]);
  });

  it("denies with 400 guardrail_denied, the header and the trace id; later rules are skipped", async () => {
    const { openai } = await orgWith(RULES);
    const err = await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "this is forbidden" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const e = err as InstanceType<typeof OpenAI.BadRequestError>;
    expect(e.code).toBe("guardrail_denied");
    expect(e.message).toMatch(/Input blocked by guardrail 'keywords': contains a blocked word/);
    expect(e.headers?.get("x-gateway-guardrails")).toBe("pii:pass,keywords:denied,length:skipped");
    expect(e.headers?.get("x-gateway-trace-id")).toMatch(/^req_/);
  });

  it("records an input denial as a usage record of cost 0 that its trace id finds; the balance is untouched; a dry run's denial records nothing", async () => {
    const { org, openai } = await orgWith(RULES);
    const lookup = async (id: string) => fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${org.secret}` } });
    const balance = async () => ((await (await fetch(`${stack.baseUrl()}/credits`, { headers: { authorization: `Bearer ${org.secret}` } })).json()) as AnyBody).balance_minor as number;
    const before = await balance();
    const sentBefore = stack.fake.requests.length;
    for (const stream of [false, true]) {
      const err = (await openai.chat.completions.create({ model: "gw-chat-mini", stream, messages: [{ role: "user", content: "this is forbidden" }] }).catch((e: unknown) => e)) as InstanceType<
        typeof OpenAI.BadRequestError
      >;
      expect(err.code).toBe("guardrail_denied");
      const r = await lookup(err.headers!.get("x-gateway-trace-id")!);
      expect(r.status).toBe(200);
      const usage = (await r.json()) as UsageBody;
      expect(usage).toMatchObject({ model: "gw-chat-mini", route: "chat", provider: "", status: 400, stream: false, cost_credits_minor: 0, attempts: [], line_items: [] });
      expect(usage.usage).toMatchObject({ input_tokens: 0, output_tokens: 0 });
      expect(usage.guardrails).toEqual([
        { plugin: "pii", name: "no-pii", outcome: "pass" },
        { plugin: "keywords", outcome: "denied" },
        { plugin: "length", outcome: "skipped" },
      ]);
    }
    expect(stack.fake.requests.length).toBe(sentBefore);
    expect(await balance()).toBe(before);
    // In the operator's cost report the denials are requests of this organization, billed nothing, and no provider's attempts.
    const report = await stack.ledgerClient.CostReport({ from_ms: Date.now() - 600_000, to_ms: Date.now() + 1_000 });
    expect(report.orgs.find((o) => o.org_id === org.orgId)).toMatchObject({ requests: 2, billed_minor: 0, provider_cost_minor: 0, absorbed_minor: 0 });
    expect(report.providers.filter((p) => p.provider === "")).toEqual([]);
    // The console's count of each rule's outcomes (from the usage records) has the denials.
    const counts = await stack.ledgerClient.GuardrailCounts({ org_id: org.orgId, from_ms: Date.now() - 600_000, to_ms: Date.now() + 1_000 });
    expect(counts.counts.find((c) => c.plugin === "keywords" && c.outcome === "denied")?.count).toBe(2);

    const dry = await fetch(`${stack.baseUrl()}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.secret}`, "content-type": "application/json", "x-gateway-dry-run": "true" },
      body: JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "this is forbidden" }] }),
    });
    expect(dry.status).toBe(400);
    expect((await lookup(dry.headers.get("x-gateway-trace-id")!)).status).toBe(404);
  });

  it("carries the header on other 400s of an organization with rules, and never for one without", async () => {
    const { org } = await orgWith(RULES);
    const bad = await raw(org, "/chat/completions", { model: "gw-chat-mini", messages: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("x-gateway-guardrails")).toBe("pii:skipped,keywords:skipped,length:skipped");
    const plain = await orgWith("");
    const ok = await plain.openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "forbidden jane@example.com" }] }).withResponse();
    expect(ok.response.headers.get("x-gateway-guardrails")).toBeNull();
    expect(ok.data.choices[0]!.message.content).toContain("jane@example.com");
    const badPlain = await raw(plain.org, "/chat/completions", { model: "gw-chat-mini", messages: "nope" });
    expect(badPlain.headers.get("x-gateway-guardrails")).toBeNull();
  });

  it("applies to the Anthropic SDK's messages, including tool results and multi-part content", async () => {
    const { anthropic } = await orgWith(RULES);
    const { data, response } = await anthropic.messages
      .create({ model: "gw-chat-mini", max_tokens: 100, messages: [{ role: "user", content: [{ type: "text", text: "card 4111 1111 1111 1111 please" }] }] })
      .withResponse();
    expect(response.headers.get("x-gateway-guardrails")).toBe("pii:masked,keywords:pass,length:pass");
    expect((data.content[0] as { text: string }).text).toContain("[CARD]");
    const denied = await anthropic.messages
      .create({
        model: "gw-chat-mini",
        max_tokens: 100,
        messages: [
          { role: "user", content: "look it up" },
          { role: "assistant", content: [{ type: "tool_use", id: "tu_1", name: "lookup", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "tu_1", content: "the forbidden answer" }] },
        ],
        tools: [{ name: "lookup", input_schema: { type: "object", properties: {} } }],
      })
      .catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(Anthropic.BadRequestError);
    expect((denied as InstanceType<typeof Anthropic.BadRequestError>).headers?.get("x-gateway-guardrails")).toBe("pii:pass,keywords:denied,length:skipped");
  });

  it("applies to /v1/messages passed natively to an Anthropic deployment: the forwarded body is masked, text blocks and stream text checked", async () => {
    const { anthropic } = await orgWith(RULES);
    const system = [{ type: "text" as const, text: "Operator: ops@example.com", cache_control: { type: "ephemeral" as const } }];
    const { data, response } = await anthropic.messages
      .create({ model: "gw-claude", max_tokens: 100, system, top_k: 3, messages: [{ role: "user", content: "card 4111 1111 1111 1111 please" }] } as Anthropic.MessageCreateParamsNonStreaming)
      .withResponse();
    expect(response.headers.get("x-gateway-guardrails")).toBe("pii:masked,keywords:pass,length:pass");
    expect((data.content[0] as { text: string }).text).toContain("[CARD]");
    const sent = stack.fake.requests.filter((r) => r.path === "/v1/messages").at(-1)!.body as { system: Array<{ text: string; cache_control?: unknown }>; top_k?: number };
    expect(sent.system[0]).toEqual({ type: "text", text: "Operator: [EMAIL]", cache_control: { type: "ephemeral" } });
    expect(sent.top_k).toBe(3);

    const out = await orgWith("rules:\n  - plugin: pii\n    stage: output\n    action: mask\n");
    const masked = await out.anthropic.messages.create({ model: "gw-claude", max_tokens: 100, messages: [{ role: "user", content: "reach me at bob@example.com" }] });
    expect(masked.content).toEqual([{ type: "text", text: "Echo: reach me at [EMAIL]" }]);

    const win = await orgWith("rules:\n  - plugin: keywords\n    stage: output\n    streaming: window\n    config: { words: [classified] }\n");
    const got: string[] = [];
    const stream = win.anthropic.messages.stream({ model: "gw-claude", max_tokens: 100, messages: [{ role: "user", content: "one two three classified four five six" }] });
    stream.on("text", (t) => got.push(t));
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(String((err as Error).message)).toMatch(/Output blocked by guardrail 'keywords'/);
    expect(got.join("")).toContain("three");
    expect(got.join("")).not.toContain("classified");
  });

  it("covers embeddings input, image prompts and video prompts", async () => {
    const { org, openai } = await orgWith(RULES);
    await openai.embeddings.create({ model: "gw-embed-small", input: ["plain", "write to a@b.co"] });
    const sent = stack.fake.requests.filter((r) => r.path === "/v1/embeddings").at(-1)!;
    expect((sent.body as { input: string[] }).input).toEqual(["plain", "write to [EMAIL]"]);
    const img = await raw(org, "/images/generations", { model: "gw-image", prompt: "a forbidden castle", size: "1024x1024" });
    expect(img.status).toBe(400);
    expect(img.body.error.code).toBe("guardrail_denied");
    const vid = await raw(org, "/video/generations", { model: "gw-video", prompt: "a forbidden dance" });
    expect(vid.status).toBe(400);
    expect(vid.headers.get("x-gateway-guardrails")).toBe("pii:pass,keywords:denied,length:skipped");
  });

  it("stores a video job's input outcomes with its usage record, and counts outcomes in metrics", async () => {
    const { org } = await orgWith(RULES);
    const r = await raw(org, "/video/generations", { model: "gw-video", prompt: "a beach, ask jane@example.com [[fake:video_ms=100]]", duration: 4 });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-gateway-guardrails")).toBe("pii:masked,keywords:pass,length:pass");
    expect(r.body.request.prompt).toContain("[EMAIL]");
    const usage = await eventually(
      async () => {
        await fetch(`${stack.baseUrl()}/video/generations/${r.body.id}`, { headers: { authorization: `Bearer ${org.secret}` } });
        const u = await fetch(`${stack.baseUrl()}/usage/${r.body.id}`, { headers: { authorization: `Bearer ${org.secret}` } });
        return u.status === 200 ? ((await u.json()) as UsageBody) : undefined;
      },
      10_000,
      "video billed",
    );
    expect(usage.guardrails.map((g: { outcome: string }) => g.outcome)).toEqual(["masked", "pass", "pass"]);
    const metrics = await (await fetch(`${stack.dataPlanes[0]!.url}/metrics`)).text();
    expect(metrics).toMatch(/gateway_guardrail_outcomes_total\{plugin="pii",outcome="masked"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/gateway_guardrail_outcomes_total\{plugin="keywords",outcome="denied"[^}]*\} [1-9]/);
  });

  it("log-only rules record and leave the request untouched", async () => {
    const { openai } = await orgWith("rules:\n  - plugin: regex\n    action: log\n    config: { patterns: ['ord-\\d{4}'] }\n");
    const { data, response } = await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "about ord-1234" }] }).withResponse();
    expect(data.choices[0]!.message.content).toContain("ord-1234");
    expect(response.headers.get("x-gateway-guardrails")).toBe("regex:logged");
  });

  it("masks the output the caller receives", async () => {
    const { openai } = await orgWith("rules:\n  - plugin: pii\n    stage: output\n    action: mask\n");
    const r = await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "[[fake:reply=reach me at bob@example.com]]" }] }).withResponse();
    expect(r.data.choices[0]!.message.content).toBe("reach me at [EMAIL]");
    expect(r.response.headers.get("x-gateway-guardrails")).toBe("pii:masked");
  });
});

describe("streaming", () => {
  it("refuses a stream when an output rule needs the whole answer", async () => {
    const { openai, anthropic } = await orgWith("rules:\n  - plugin: pii\n    name: out-pii\n    stage: output\n    action: mask\n");
    const err = await openai.chat.completions.create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("guardrail_requires_non_streaming");
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).headers?.get("x-gateway-guardrails")).toBe("pii:denied");
    const aerr = await anthropic.messages.create({ model: "gw-chat-mini", max_tokens: 50, stream: true, messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(aerr).toBeInstanceOf(Anthropic.BadRequestError);
    // Without stream the same request is served.
    expect((await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "hi" }] })).choices).toHaveLength(1);
  });

  it("input rules apply to streams as to any request", async () => {
    const { openai } = await orgWith(RULES);
    const chunks: string[] = [];
    const stream = await openai.chat.completions.create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "ssn 123-45-6789 ok" }] });
    for await (const c of stream) chunks.push(c.choices[0]?.delta?.content ?? "");
    expect(chunks.join("")).toContain("[SSN]");
  });

  it("window mode ends the stream with an error event when the answer crosses the line", async () => {
    const { openai } = await orgWith("rules:\n  - plugin: keywords\n    stage: output\n    streaming: window\n    config: { words: [classified] }\n");
    const stream = await openai.chat.completions.create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "one two three classified four five six" }] });
    const got: string[] = [];
    const err = await (async () => {
      for await (const c of stream) got.push(c.choices[0]?.delta?.content ?? "");
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(String((err as Error).message)).toMatch(/Output blocked by guardrail 'keywords'/);
    expect(got.join("")).toContain("three");
    expect(got.join("")).not.toContain("classified");
  });
});

describe("webhook", () => {
  it("denies on the moderation service's answer", async () => {
    const { org } = await orgWith(`rules:\n  - plugin: webhook\n    config: { url: "${hookUrl}/check", timeout_ms: 500 }\n`);
    const r = await raw(org, "/chat/completions", { model: "gw-chat-mini", messages: [{ role: "user", content: "plan the attack" }] });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/violence/);
    expect(r.headers.get("x-gateway-guardrails")).toBe("webhook:denied");
  });

  it("fails open: outcome error and the request continues", async () => {
    const { org } = await orgWith(`rules:\n  - plugin: webhook\n    failure_mode: open\n    config: { url: "${hookUrl}/slow", timeout_ms: 200 }\n`);
    const r = await raw(org, "/chat/completions", { model: "gw-chat-mini", messages: [{ role: "user", content: "hello" }] });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-gateway-guardrails")).toBe("webhook:error");
  });

  it("fails closed: denied when the service is down or slow", async () => {
    const down = await orgWith(`rules:\n  - plugin: webhook\n    failure_mode: closed\n    config: { url: "${hookUrl}/down", timeout_ms: 500 }\n`);
    const r = await raw(down.org, "/chat/completions", { model: "gw-chat-mini", messages: [{ role: "user", content: "hello" }] });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("guardrail_denied");
    expect(r.body.error.message).toMatch(/moderation service did not answer/);
    const slow = await orgWith(`rules:\n  - plugin: webhook\n    config: { url: "${hookUrl}/slow", timeout_ms: 200 }\n`);
    expect((await raw(slow.org, "/chat/completions", { model: "gw-chat-mini", messages: [{ role: "user", content: "hello" }] })).status).toBe(400);
  });
});

describe("operator patterns", () => {
  it("a catastrophic-backtracking pattern does not stall the server", async () => {
    const { org } = await orgWith("rules:\n  - plugin: regex\n    config: { patterns: ['(a+)+$', '(x+x+)+y'] }\n");
    const evil = "a".repeat(50_000) + "!" + "x".repeat(20_000);
    // Backtracking on these 70,000 characters would outlast the test's timeout: both answering is the proof.
    const [slowOne, other] = await Promise.all([
      raw(org, "/chat/completions", { model: "gw-chat-mini", messages: [{ role: "user", content: evil }], max_tokens: 5 }),
      raw(org, "/chat/completions", { model: "gw-chat-mini", messages: [{ role: "user", content: "hi" }] }),
    ]);
    expect(slowOne.status).toBe(200);
    expect(other.status).toBe(200);
  });

  it("checks the earlier turns a previous_response_id sends, not only the new input", async () => {
    const { org, openai } = await orgWith("");
    const first = await openai.responses.create({ model: "gw-chat-mini", input: "a forbidden plan" });
    expect(first.output_text).toBe("Echo: a forbidden plan");
    await stack.admin.SetGuardrails({ org: org.orgId, document: RULES });
    await eventually(
      async () => {
        const r = await raw(org, "/chat/completions", { model: "gw-chat-mini", messages: [{ role: "user", content: "forbidden" }] });
        return r.status === 400 ? r : undefined;
      },
      5_000,
      "rules applied",
    );
    // The new input is harmless; the history it continues is not, and it would go to the provider.
    const err = await openai.responses.create({ model: "gw-chat-mini", input: "and now?", previous_response_id: first.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("guardrail_denied");
    expect((await openai.responses.create({ model: "gw-chat-mini", input: "and now?" })).output_text).toBe("Echo: and now?");
  });

  it("a rule can name the responses route: it guards /v1/responses and leaves chat alone", async () => {
    const { openai } = await orgWith(`rules:
  - plugin: keywords
    routes: [responses]
    config: { words: [forbidden] }
`);
    const err = await openai.responses.create({ model: "gw-chat-mini", input: "a forbidden plan" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("guardrail_denied");
    const chat = await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "a forbidden plan" }] });
    expect(chat.choices[0]!.message.content).toBe("Echo: a forbidden plan");
  });

  it("checks and masks a tool output sent as text parts, as it does a string one", async () => {
    const { org } = await orgWith(RULES);
    const turn = (output: unknown) => ({
      model: "gw-chat-mini",
      input: [
        { type: "function_call", call_id: "call_1", name: "lookup", arguments: "{}" },
        { type: "function_call_output", call_id: "call_1", output },
      ],
    });
    const denied = await raw(
      org,
      "/responses",
      turn([
        { type: "input_text", text: "the " },
        { type: "input_text", text: "forbidden plan" },
      ]),
    );
    expect(denied.status).toBe(400);
    expect(denied.body.error.code).toBe("guardrail_denied");
    const masked = await raw(org, "/responses", turn([{ type: "input_text", text: "write to jane.doe@example.com" }]));
    expect(masked.status).toBe(200);
    expect(JSON.stringify(stack.fake.requests.at(-1)!.body)).not.toContain("jane.doe@example.com");
  });

  it("rules changes reach the data-plane without a restart", async () => {
    const { org, openai } = await orgWith("");
    expect((await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "forbidden" }] })).choices).toHaveLength(1);
    await stack.admin.SetGuardrails({ org: org.orgId, document: RULES });
    await eventually(
      async () => {
        const r = await raw(org, "/chat/completions", { model: "gw-chat-mini", messages: [{ role: "user", content: "forbidden" }] });
        return r.status === 400 ? r : undefined;
      },
      5_000,
      "rules applied",
    );
  });
});

describe("masks that grow the prompt", () => {
  it("are held: the prompt bound is taken after the input guardrails masked", async () => {
    const { org } = await orgWith(RULES);
    // Each 6-byte address becomes the 7-byte "[EMAIL]": the prompt sent is 100 bytes longer than the body received.
    const body = JSON.stringify({ model: "gw-chat-mini", max_tokens: 10, messages: [{ role: "user", content: Array(100).fill("x@y.io").join(" ") }] });
    const r = await eventually(
      async () => {
        const x = await fetch(`${stack.baseUrl()}/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${org.secret}`, "content-type": "application/json", "x-gateway-dry-run": "true" },
          body,
        });
        return x.status === 200 ? ((await x.json()) as AnyBody) : undefined;
      },
      5_000,
      "the org's models visible",
    );
    // The bound is the largest request sent (the backup deployment's: its upstream model's name is the longest), masked.
    const sent = Buffer.byteLength(JSON.stringify({ ...JSON.parse(body), model: "fake-chat-backup" })) + 100;
    expect(r.lines[0]).toMatchObject({ item: "input_tokens", quantity: sent });
  });
});
