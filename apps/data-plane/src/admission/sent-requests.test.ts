import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import type { ChatRequestBody, ResponsesRequestBody } from "../providers/index.js";
import { testbed } from "../pipeline/testing/scripted-upstream.js";
import { translateFor } from "../translate/pairs/index.js";
import { responsesToChat } from "../translate/responses.js";
import { sentRequests } from "./admit.js";

/**
 * The plan step's last part (admission/admit.ts): the request translated for each planned
 * provider kind, built once, and the largest body the hold must cover.
 */
const kinds = testbed({
  script: [],
  deployments: [
    { code: "compat", kind: "openai-compatible" },
    { code: "claude", kind: "anthropic" },
    { code: "gem", kind: "gemini" },
  ],
});

/** A Responses body with one namespace of `n` tools under a long description. */
const namespaced = (n: number): ResponsesRequestBody => ({
  model: "gw-chat",
  input: "pick one",
  tools: [
    {
      type: "namespace",
      name: "agents",
      description: "Shared description. ".repeat(60),
      tools: Array.from({ length: n }, (_, i) => ({ type: "function", name: `t${i}`, parameters: { type: "object", properties: {} } })),
    },
  ],
});

const responsesRequest = (body: ResponsesRequestBody) => ({
  body,
  chat: () => responsesToChat(body),
  echo: { id: "resp_1", createdAt: 0, model: "gw-chat", request: body, names: new Map() },
  keep: undefined,
  headers: { version: undefined, beta: undefined },
  model: kinds.model,
});

describe("sentRequests: what each provider kind is sent, bounded before the hold", () => {
  it("bounds the largest request among the kinds: namespace tools flattened with their description on each", () => {
    const body = namespaced(50);
    const { routed, sentBytes } = sentRequests(translateFor("responses", kinds.planned, responsesRequest(body)));
    expect(routed.map((r) => r.target.provider.code)).toEqual(["compat", "claude", "gem"]);
    const sizes = routed.map((r) => Buffer.byteLength(r.translation.request(r.target).body ?? ""));
    expect(sentBytes).toBe(Math.max(...sizes));
    // Each inner tool carries the namespace's 1.2 KB description: far more than the client sent.
    expect(sentBytes).toBeGreaterThan(10 * Buffer.byteLength(JSON.stringify(body)));
  });

  it("builds each request once: the attempt sends the very request admission measured", () => {
    const { routed } = sentRequests(translateFor("chat", kinds.planned, { body: { model: "gw-chat", messages: [{ role: "user", content: "hi" }] }, model: kinds.model }));
    for (const r of routed) expect(r.translation.request(r.target)).toBe(r.translation.request(r.target));
  });

  it("leaves out a kind whose request cannot be built, and answers its 400 when none is left", () => {
    // 19 levels of definitions each used twice: past Gemini's schema budget, nothing for the others.
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 19; i++) $defs[`d${i}`] = { type: "object", properties: { a: { $ref: `#/$defs/d${i + 1}` }, b: { $ref: `#/$defs/d${i + 1}` } } };
    $defs.d19 = { type: "string" };
    const body: ChatRequestBody = {
      model: "gw-chat",
      messages: [{ role: "user", content: "call" }],
      tools: [{ type: "function", function: { name: "deep", parameters: { $ref: "#/$defs/d0", $defs } } }],
    };
    const { routed } = sentRequests(translateFor("chat", kinds.planned, { body, model: kinds.model }));
    expect(routed.map((r) => r.target.provider.code)).toEqual(["compat", "claude"]);
    const geminiOnly = kinds.planned.filter((p) => p.target.provider.kind === "gemini");
    let refused: unknown;
    try {
      sentRequests(translateFor("chat", geminiOnly, { body, model: kinds.model }));
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).context.param).toBe("tools[0].function.parameters");
  });

  it("a fallback of the same kind with a longer upstream model name adds its extra bytes", () => {
    const two = testbed({
      script: [],
      deployments: [
        { code: "a", kind: "openai-compatible" },
        { code: "longer-name", kind: "openai-compatible" },
      ],
    });
    const { routed, sentBytes } = sentRequests(translateFor("chat", two.planned, { body: { model: "gw-chat", messages: [{ role: "user", content: "hi" }] }, model: two.model }));
    const first = Buffer.byteLength(routed[0]!.translation.request(routed[0]!.target).body ?? "");
    expect(sentBytes).toBe(first + ("longer-name-model".length - "a-model".length));
  });
});
