import { TextCollector } from "../guardrails/index.js";
import type { ClientShape } from "./client-shape.js";

const frame = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/**
 * The Messages shape when the provider already answered in it (a native passthrough): the answer
 * is the provider's message (model id already public) and every stream event goes out as the
 * provider framed it. Only message_stop is held back until the usage event is durable.
 */
export function anthropicNativeShape(): ClientShape {
  return {
    route: "messages",
    body: (message) => message,
    stream: () => ({
      chunk: (ev) => ev.forward ?? "",
      end: () => frame("message_stop", {}),
      error: (e) => frame("error", { error: { type: e.type === "overloaded_error" ? "overloaded_error" : "api_error", message: e.message } }),
    }),
  };
}

/** The text blocks of a provider's message, for output guardrails (masking rewrites them). */
export function messageTexts(message: Record<string, unknown>): TextCollector {
  const t = new TextCollector();
  for (const b of (message.content as Array<{ type?: unknown; text?: unknown }> | undefined) ?? []) {
    if (b && b.type === "text") t.add(b.text, (v) => (b.text = v));
  }
  return t;
}

/** The output text of a provider's Response, for output guardrails (masking rewrites it). */
export function responseTexts(response: Record<string, unknown>): TextCollector {
  const t = new TextCollector();
  for (const item of (response.output as Array<{ type?: unknown; content?: unknown }> | undefined) ?? []) {
    if (!item || item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const c of item.content as Array<{ type?: unknown; text?: unknown }>) if (c && c.type === "output_text") t.add(c.text, (v) => (c.text = v));
  }
  return t;
}
