import { TextCollector } from "../guardrails/index.js";
import type { ChatRequestBody, MessagesRequestBody, ResponsesRequestBody } from "../providers/types.js";

/**
 * The texts of each wire shape, one reader per shape and direction, for the guardrails (a
 * collector knows where each text stands, so a masked copy of the body can be built without
 * touching the one read) and the context pre-check (the texts alone). Named for what they read:
 * `…RequestTexts` read what a client sends, `…AnswerTexts` what a provider answers.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null;

/** A chat-completions request: every message's text and text parts (tool results included). */
export function chatRequestTexts(body: ChatRequestBody): TextCollector<ChatRequestBody> {
  const t = new TextCollector(body);
  (body.messages as unknown[]).forEach((m, i) => {
    if (!isObject(m)) return;
    const c = m.content;
    if (typeof c === "string") t.add(c, "messages", i, "content");
    else if (Array.isArray(c)) c.forEach((p, j) => isObject(p) && t.add(p.text, "messages", i, "content", j, "text"));
  });
  return t;
}

/** A chat completion: each choice's message content. */
export function chatAnswerTexts(answer: Json): TextCollector<Json> {
  const t = new TextCollector(answer);
  ((answer.choices as unknown[] | undefined) ?? []).forEach((c, i) => {
    if (isObject(c) && isObject(c.message)) t.add(c.message.content, "choices", i, "message", "content");
  });
  return t;
}

/** A Messages request: system, text blocks and tool results. */
export function messagesRequestTexts(body: MessagesRequestBody): TextCollector<MessagesRequestBody> {
  const t = new TextCollector(body);
  const blocks = (c: unknown, ...at: Array<string | number>) => {
    if (typeof c === "string") return t.add(c, ...at);
    if (!Array.isArray(c)) return;
    c.forEach((b, j) => {
      if (!isObject(b)) return;
      if (typeof b.text === "string") t.add(b.text, ...at, j, "text");
      else if (b.type === "tool_result") blocks(b.content, ...at, j, "content");
    });
  };
  blocks(body.system, "system");
  (body.messages as unknown[]).forEach((m, i) => isObject(m) && blocks(m.content, "messages", i, "content"));
  return t;
}

/** A Messages answer (a provider's message): its text blocks. */
export function messagesAnswerTexts(message: Json): TextCollector<Json> {
  const t = new TextCollector(message);
  ((message.content as unknown[] | undefined) ?? []).forEach((b, i) => isObject(b) && b.type === "text" && t.add(b.text, "content", i, "text"));
  return t;
}

/** A Responses request: instructions, input messages and their text parts, tool outputs. */
export function responsesRequestTexts(body: ResponsesRequestBody): TextCollector<ResponsesRequestBody> {
  const t = new TextCollector(body);
  t.add(body.instructions, "instructions");
  if (typeof body.input === "string") {
    t.add(body.input, "input");
    return t;
  }
  (body.input as Json[]).forEach((item, i) => {
    if (typeof item.content === "string") t.add(item.content, "input", i, "content");
    else if (Array.isArray(item.content)) item.content.forEach((p, j) => isObject(p) && t.add(p.text, "input", i, "content", j, "text"));
    if (item.type === "function_call_output") {
      if (typeof item.output === "string") t.add(item.output, "input", i, "output");
      // Text parts (checked at parse): every provider gets the masked text.
      else if (Array.isArray(item.output)) item.output.forEach((p, j) => isObject(p) && t.add(p.text, "input", i, "output", j, "text"));
    }
  });
  return t;
}

/** A Responses answer (a provider's Response): the output text of its message items. */
export function responsesAnswerTexts(response: Json): TextCollector<Json> {
  const t = new TextCollector(response);
  ((response.output as unknown[] | undefined) ?? []).forEach((item, i) => {
    if (!isObject(item) || item.type !== "message" || !Array.isArray(item.content)) return;
    item.content.forEach((c, j) => isObject(c) && c.type === "output_text" && t.add(c.text, "output", i, "content", j, "text"));
  });
  return t;
}

/** A text field of a body (image and video prompts), or each string of an array (embeddings input). */
export function fieldTexts<T extends object>(body: T, field: keyof T & string): TextCollector<T> {
  const t = new TextCollector(body);
  const v: unknown = body[field];
  if (typeof v === "string") t.add(v, field);
  else if (Array.isArray(v)) v.forEach((s, i) => t.add(s, field, i));
  return t;
}

/** The texts alone, for the context pre-check. */
export const textsOf = <T>(t: TextCollector<T>): string[] => t.segments.map((s) => s.text);
