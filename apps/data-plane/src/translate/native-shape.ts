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
