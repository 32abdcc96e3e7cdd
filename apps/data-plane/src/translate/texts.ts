import { TextCollector } from "../guardrails/index.js";
import type { ChatRequestBody, MessagesRequestBody, ResponsesRequestBody } from "../providers/types.js";

/**
 * The texts of each wire shape, one reader per shape and direction, for the guardrails (a
 * collector remembers how to write masked text back into the body it read) and the context
 * pre-check (the texts alone). Named for what they read: `…RequestTexts` read what a client sends,
 * `…AnswerTexts` what a provider answers.
 */

/** A chat-completions request: every message's text and text parts (tool results included). */
export function chatRequestTexts(body: ChatRequestBody): TextCollector {
  const t = new TextCollector();
  for (const m of body.messages as Array<{ content?: unknown }>) {
    if (!m || typeof m !== "object") continue;
    const c = m.content;
    if (typeof c === "string") t.add(c, (v) => (m.content = v));
    else if (Array.isArray(c)) {
      for (const p of c as Array<{ type?: unknown; text?: unknown }>) {
        if (p && typeof p === "object" && typeof p.text === "string") t.add(p.text, (v) => (p.text = v));
      }
    }
  }
  return t;
}

/** A chat completion: each choice's message content. */
export function chatAnswerTexts(answer: Record<string, unknown>): TextCollector {
  const t = new TextCollector();
  for (const c of (answer.choices as Array<{ message?: { content?: unknown } }> | undefined) ?? []) {
    const m = c.message;
    if (m) t.add(m.content, (v) => (m.content = v));
  }
  return t;
}

/** A Messages request: system, text blocks and tool results. */
export function messagesRequestTexts(body: MessagesRequestBody): TextCollector {
  const t = new TextCollector();
  const blocks = (o: Record<string, unknown>, field: string) => {
    const c = o[field];
    if (typeof c === "string") return t.add(c, (v) => (o[field] = v));
    if (!Array.isArray(c)) return;
    for (const b of c as Array<Record<string, unknown>>) {
      if (!b || typeof b !== "object") continue;
      if (typeof b.text === "string") t.add(b.text, (v) => (b.text = v));
      else if (b.type === "tool_result") blocks(b, "content");
    }
  };
  blocks(body, "system");
  for (const m of body.messages as Array<Record<string, unknown>>) if (m && typeof m === "object") blocks(m, "content");
  return t;
}

/** A Messages answer (a provider's message): its text blocks. */
export function messagesAnswerTexts(message: Record<string, unknown>): TextCollector {
  const t = new TextCollector();
  for (const b of (message.content as Array<{ type?: unknown; text?: unknown }> | undefined) ?? []) {
    if (b && b.type === "text") t.add(b.text, (v) => (b.text = v));
  }
  return t;
}

/** A Responses request: instructions, input messages and their text parts, tool outputs. */
export function responsesRequestTexts(body: ResponsesRequestBody): TextCollector {
  const t = new TextCollector();
  if (typeof body.instructions === "string") t.add(body.instructions, (v) => (body.instructions = v));
  if (typeof body.input === "string") {
    t.add(body.input, (v) => (body.input = v));
    return t;
  }
  for (const item of body.input as Array<Record<string, unknown>>) {
    if (typeof item.content === "string") t.add(item.content, (v) => (item.content = v));
    else if (Array.isArray(item.content)) for (const p of item.content as Array<Record<string, unknown>>) if (p && typeof p.text === "string") t.add(p.text, (v) => (p.text = v));
    if (item.type === "function_call_output") {
      if (typeof item.output === "string") t.add(item.output, (v) => (item.output = v));
      // Text parts (checked at parse): rewritten in place, so every provider gets the masked text.
      else if (Array.isArray(item.output)) for (const p of item.output as Array<Record<string, unknown>>) t.add(p.text, (v) => (p.text = v));
    }
  }
  return t;
}

/** A Responses answer (a provider's Response): the output text of its message items. */
export function responsesAnswerTexts(response: Record<string, unknown>): TextCollector {
  const t = new TextCollector();
  for (const item of (response.output as Array<{ type?: unknown; content?: unknown }> | undefined) ?? []) {
    if (!item || item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const c of item.content as Array<{ type?: unknown; text?: unknown }>) if (c && c.type === "output_text") t.add(c.text, (v) => (c.text = v));
  }
  return t;
}

/** A text field of a body (image and video prompts), or each string of an array (embeddings input). */
export function fieldTexts(body: Record<string, unknown>, field: string): TextCollector {
  const t = new TextCollector();
  const v = body[field];
  if (typeof v === "string") t.add(v, (x) => (body[field] = x));
  else if (Array.isArray(v)) v.forEach((s, i) => t.add(s, (x) => (v[i] = x)));
  return t;
}

/** The texts alone, for the context pre-check. */
export const textsOf = (t: TextCollector): string[] => t.segments.map((s) => s.text);
