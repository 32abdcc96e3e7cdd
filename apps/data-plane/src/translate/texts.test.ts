import { describe, expect, it } from "vitest";
import type { ChatRequestBody, MessagesRequestBody, ResponsesRequestBody } from "../providers/types.js";
import { chatAnswerTexts, chatRequestTexts, fieldTexts, messagesRequestTexts, responsesRequestTexts } from "./texts.js";

/** Masks every segment containing `secret` the way a guardrail does: by rewriting the segment's text. */
function maskSecrets(segments: Array<{ text: string }>): void {
  for (const s of segments) s.text = s.text.replaceAll("secret", "[MASKED]");
}

describe("guardrail texts", () => {
  it("build a masked copy of a chat body: the body read is unchanged, untouched messages are shared, not copied", () => {
    const body = {
      model: "m",
      messages: [
        { role: "system", content: "be brief" },
        {
          role: "user",
          content: [
            { type: "text", text: "my secret is 42" },
            { type: "image_url", image_url: { url: "data:," } },
          ],
        },
        { role: "assistant", content: "noted" },
      ],
    } as unknown as ChatRequestBody;
    const before = structuredClone(body);
    const t = chatRequestTexts(body);
    expect(t.segments.map((s) => s.text)).toEqual(["be brief", "my secret is 42", "noted"]);
    maskSecrets(t.segments);
    const masked = t.rebuild();
    expect(body).toEqual(before);
    expect(masked).not.toBe(body);
    const messages = masked.messages as Array<{ content: unknown }>;
    expect((messages[1]!.content as Array<{ text?: string }>)[0]!.text).toBe("my [MASKED] is 42");
    expect(messages[0]).toBe(body.messages[0]);
    expect(messages[2]).toBe(body.messages[2]);
    expect((messages[1]!.content as unknown[])[1]).toBe((body.messages[1] as { content: unknown[] }).content[1]);
  });

  it("answer the value itself when no mask changed a text", () => {
    const body = { model: "m", messages: [{ role: "user", content: "hello" }] } as unknown as ChatRequestBody;
    expect(chatRequestTexts(body).rebuild()).toBe(body);
  });

  it("reach tool results nested in Messages blocks and every Responses item kind, several changes in one container", () => {
    const messages = {
      model: "m",
      max_tokens: 10,
      system: "secret system",
      messages: [
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "t",
              content: [
                { type: "text", text: "a secret" },
                { type: "text", text: "secret b" },
              ],
            },
          ],
        },
      ],
    } as unknown as MessagesRequestBody;
    const before = structuredClone(messages);
    const t = messagesRequestTexts(messages);
    maskSecrets(t.segments);
    const out = t.rebuild();
    expect(messages).toEqual(before);
    expect(out.system).toBe("[MASKED] system");
    expect((out.messages[0] as { content: Array<{ content: Array<{ text: string }> }> }).content[0]!.content.map((b) => b.text)).toEqual(["a [MASKED]", "[MASKED] b"]);

    const responses = {
      model: "m",
      instructions: "secret rules",
      input: [
        { type: "message", role: "user", content: "a secret" },
        { type: "function_call_output", call_id: "c", output: [{ type: "input_text", text: "secret out" }] },
      ],
    } as unknown as ResponsesRequestBody;
    const r = responsesRequestTexts(responses);
    maskSecrets(r.segments);
    const masked = r.rebuild();
    expect(masked.instructions).toBe("[MASKED] rules");
    expect(masked.input).toEqual([
      { type: "message", role: "user", content: "a [MASKED]" },
      { type: "function_call_output", call_id: "c", output: [{ type: "input_text", text: "[MASKED] out" }] },
    ]);
    expect((responses.input as Array<{ content?: string }>)[0]!.content).toBe("a secret");
  });

  it("map a masked copy into the route's own request, and rebuild answers and array fields alike", () => {
    const request = { id: "r1", body: { model: "m", input: ["one secret", "two"] } };
    const t = fieldTexts(request.body, "input");
    maskSecrets(t.segments);
    const out = t.map((body) => ({ ...request, body })).rebuild();
    expect(out).toEqual({ id: "r1", body: { model: "m", input: ["one [MASKED]", "two"] } });
    expect(request.body.input[0]).toBe("one secret");

    const answer = { choices: [{ index: 0, message: { role: "assistant", content: "the secret" } }] };
    const a = chatAnswerTexts(answer);
    maskSecrets(a.segments);
    expect(a.rebuild()).toEqual({ choices: [{ index: 0, message: { role: "assistant", content: "the [MASKED]" } }] });
    expect(answer.choices[0]!.message.content).toBe("the secret");
  });
});
