import { createHash } from "node:crypto";
import type { Model } from "@gateway/proto";
import type { Request } from "express";

/** The prompt cache lifetime a provider gives by default, and on request (docs/providers.md, "Cache-warm routing"). */
export const SHORT_CACHE_MS = 5 * 60_000;
export const LONG_CACHE_MS = 60 * 60_000;

/** What identifies a request's agent session, before it is keyed: the client's own id, or the conversation's opening. */
export interface SessionSource {
  /** The session's id (`prompt_cache_key`, a session header) or the JSON of the messages up to the first user turn. */
  source: string;
  /** The request asked the provider for the longer cache (an hour). */
  longCache: boolean;
}

/**
 * Session headers the agents send (Claude Code's), and the gateway's own for any client: a stable
 * id per conversation, which pins it more precisely than its opening messages.
 */
const SESSION_HEADERS = ["x-gateway-session-id", "x-claude-code-session-id"] as const;

export function sessionHeader(req: Request): string | undefined {
  for (const h of SESSION_HEADERS) {
    const v = req.headers[h];
    if (typeof v === "string" && v.length > 0 && v.length <= 256) return `${h}:${v}`;
  }
  return undefined;
}

/**
 * The conversation's opening: its messages up to and including the first user turn (the system or
 * developer prompt and the first request), the part every later turn of the session repeats
 * unchanged and a provider caches first. Undefined when there is no user turn.
 */
export function openingOf(messages: readonly unknown[]): string | undefined {
  const end = messages.findIndex((m) => (m as { role?: unknown } | null)?.role === "user");
  return end < 0 ? undefined : JSON.stringify(messages.slice(0, end + 1));
}

/**
 * Whether pinning sessions can save anything on this model: a cached read costs less than a fresh
 * one, and there is more than one deployment to choose between.
 */
export function pinsPay(model: Model): boolean {
  const cached = model.cached_input_price_minor_per_mtok;
  return model.deployments.length > 1 && cached !== undefined && cached < model.input_price_minor_per_mtok;
}

/** The session's key in the PINS bucket: per organization and model (a session on another model is another cache), hashed. */
export function sessionKeyOf(orgId: string, modelId: string, source: string): string {
  return `s.${createHash("sha256").update(orgId).update("\0").update(modelId).update("\0").update(source).digest("hex").slice(0, 40)}`;
}

/** The deployment a pin names: `<provider code>/<upstream model>`. */
export const deploymentKey = (provider: string, upstreamModel: string) => `${provider}/${upstreamModel}`;

const cacheKeyOf = (body: object): string | undefined => {
  const k = (body as { prompt_cache_key?: unknown }).prompt_cache_key;
  return typeof k === "string" && k.length > 0 && k.length <= 256 ? `prompt_cache_key:${k}` : undefined;
};

/** OpenAI's extended prompt cache asked for (`prompt_cache_retention: "24h"`): pinned for the longest a pin lives. */
const asksLongRetention = (body: object) => (body as { prompt_cache_retention?: unknown }).prompt_cache_retention === "24h";

/** A chat completion's session: `prompt_cache_key`, a session header, or the messages up to the first user turn. */
export function chatSession(body: { messages: readonly unknown[] }, req: Request): SessionSource | undefined {
  const source = cacheKeyOf(body) ?? sessionHeader(req) ?? openingOf(body.messages);
  return source === undefined ? undefined : { source, longCache: asksLongRetention(body) };
}

/**
 * A Messages request's session: a session header (Claude Code sends one), or the system prompt and
 * the messages up to the first user turn. `cache_control` with `ttl: "1h"` anywhere asks Anthropic
 * for the hour-long cache.
 */
export function messagesSession(body: { system?: unknown; messages: readonly unknown[] }, req: Request): SessionSource | undefined {
  const header = sessionHeader(req);
  const opening = header ?? openingOf(body.messages);
  if (opening === undefined) return undefined;
  const source = header ?? `${JSON.stringify(body.system ?? null)}${opening}`;
  return { source, longCache: JSON.stringify(body).includes('"ttl":"1h"') };
}

/**
 * A Responses request's session: `prompt_cache_key` (Codex sends its session id), a session header,
 * or, for a first turn (no `previous_response_id`), its instructions and input up to the first user turn.
 */
export function responsesSession(body: { input?: unknown; instructions?: unknown; previous_response_id?: unknown }, req: Request): SessionSource | undefined {
  let source = cacheKeyOf(body) ?? sessionHeader(req);
  if (source === undefined && (body.previous_response_id === undefined || body.previous_response_id === null)) {
    const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : Array.isArray(body.input) ? body.input : [];
    const opening = openingOf(input);
    if (opening !== undefined) source = `${JSON.stringify(body.instructions ?? null)}${opening}`;
  }
  return source === undefined ? undefined : { source, longCache: asksLongRetention(body) };
}
