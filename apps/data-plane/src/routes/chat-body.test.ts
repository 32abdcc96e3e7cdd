import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import { ChatBody, plainChatBody, validateChatBody } from "./chat-body.js";

const ok = { model: "gw-chat-mini", messages: [{ role: "user", content: "hi" }] };

/** Bodies around every rule of the schema: valid, invalid, and the odd values JSON can carry. */
const bodies: unknown[] = [
  ok,
  { ...ok, stream: true, stream_options: { include_usage: true }, max_tokens: 64, n: 2, temperature: 0.2, tools: [] },
  { ...ok, stream: null, stream_options: null, max_tokens: null, max_completion_tokens: null, n: null },
  { ...ok, max_completion_tokens: 9_007_199_254_740_991 },
  { ...ok, model: "m".repeat(256) },
  {
    ...ok,
    messages: [
      { role: "system", content: "a" },
      { role: "user", content: [{ type: "text", text: "b" }] },
    ],
  },
  null,
  [],
  [ok],
  "text",
  {},
  { ...ok, model: "" },
  { ...ok, model: "m".repeat(257) },
  { ...ok, model: 7 },
  { ...ok, messages: [] },
  { ...ok, messages: {} },
  { ...ok, messages: [null] },
  { ...ok, messages: [[]] },
  { ...ok, messages: [{ content: "no role" }] },
  { ...ok, messages: [{ role: 1 }] },
  { ...ok, stream: "true" },
  { ...ok, stream: 1 },
  { ...ok, stream_options: [] },
  { ...ok, stream_options: "yes" },
  { ...ok, stream_options: { include_usage: "yes" } },
  { ...ok, stream_options: { include_usage: null } },
  { ...ok, max_tokens: 0 },
  { ...ok, max_tokens: -1 },
  { ...ok, max_tokens: 1.5 },
  { ...ok, max_tokens: "64" },
  { ...ok, max_tokens: 9_007_199_254_740_992 },
  { ...ok, max_completion_tokens: 0 },
  { ...ok, service_tier: "flex" },
  { ...ok, service_tier: "default" },
  { ...ok, service_tier: "auto" },
  { ...ok, service_tier: null },
  { ...ok, service_tier: "priority" },
  { ...ok, service_tier: "scale" },
  { ...ok, service_tier: 1 },
  { ...ok, n: 0 },
  { ...ok, n: 128 },
  { ...ok, n: 129 },
  { ...ok, n: true },
];

const schemaAccepts = (b: unknown) => b !== null && typeof b === "object" && !Array.isArray(b) && ChatBody.safeParse(b).success;

describe("chat body validation", () => {
  it("takes the fast path only for bodies the schema accepts, and for every common valid body", () => {
    for (const b of bodies) {
      if (plainChatBody(b)) expect(schemaAccepts(b), JSON.stringify(b)).toBe(true);
    }
    expect(bodies.slice(0, 6).every((b) => plainChatBody(b))).toBe(true);
  });

  it("accepts and refuses exactly what the schema does, with the schema's message and field", () => {
    for (const b of bodies) {
      let err: unknown;
      try {
        validateChatBody(b);
      } catch (e) {
        err = e;
      }
      expect(err === undefined, JSON.stringify(b)).toBe(schemaAccepts(b));
      if (err) expect(err).toBeInstanceOf(GatewayError);
    }
    expect(() => validateChatBody({ ...ok, n: 129 })).toThrow("'n' must be an integer from 1 to 128.");
    const refused = (() => {
      try {
        validateChatBody({ ...ok, messages: [{ role: "user" }, { content: "x" }] });
      } catch (e) {
        return e;
      }
    })();
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).context).toMatchObject({ param: "messages[1].role" });
  });
});
