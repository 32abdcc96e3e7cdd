import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * MCP session ids without shared state (docs/mcp.md): the id the gateway answers `initialize` with
 * carries the key it belongs to and the protocol version negotiated, signed with
 * DATA_PLANE_MCP_SESSION_SECRET, so any replica can serve any request of the session — no sticky
 * sessions and nothing to store. A session is bound to its key: another key presenting it gets 404
 * (the client initializes again), as for a session that ended.
 */
export interface McpSession {
  keyId: string;
  protocolVersion: string;
  /** Unix ms it began. */
  startedAt: number;
}

const PREFIX = "mcps_";
/** A session lives a day; the client then initializes again (a 404 tells it to). */
export const SESSION_TTL_MS = 24 * 3_600_000;

export function signSession(secret: string, s: McpSession): string {
  const body = Buffer.from(JSON.stringify([s.keyId, s.protocolVersion, s.startedAt])).toString("base64url");
  return `${PREFIX}${body}.${mac(secret, body)}`;
}

/** The session an id names, if the id is ours, intact and not expired. */
export function openSession(secret: string, id: string): McpSession | undefined {
  if (!id.startsWith(PREFIX) || id.length > 300) return undefined;
  const [body, sig] = id.slice(PREFIX.length).split(".");
  if (!body || !sig) return undefined;
  const expected = Buffer.from(mac(secret, body));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const [keyId, protocolVersion, startedAt] = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as [string, string, number];
    if (typeof keyId !== "string" || typeof protocolVersion !== "string" || typeof startedAt !== "number") return undefined;
    if (Date.now() - startedAt > SESSION_TTL_MS) return undefined;
    return { keyId, protocolVersion, startedAt };
  } catch {
    return undefined;
  }
}

const mac = (secret: string, body: string) => createHmac("sha256", secret).update(`mcp-session:${body}`).digest("base64url");
