import { randomBytes } from "node:crypto";
import { GatewayError } from "@gateway/errors";
import { sql, type Kysely } from "@gateway/db";
import type { ConsoleMember } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import type { ControlDb } from "../db/schema.js";
import { hashSecret } from "../keys/secret.js";

/** A console session lasts 12 hours at most, and ends after 30 minutes unused. */
export const SESSION_TTL_MS = 12 * 3_600_000;
export const SESSION_IDLE_MS = 30 * 60_000;

export interface LiveMember {
  id: string;
  /** null for an operator. */
  org_id: string | null;
  email: string;
  role: string;
  expires_at: Date;
  last_seen_at: Date;
}
/** An organization's member (not an operator): its organization is known. */
export type OrgMember = LiveMember & { org_id: string };

export const toMember = (r: { id: string; org_id: string | null; email: string; role: string }): ConsoleMember => ({ id: r.id, org_id: r.org_id ?? "", email: r.email, role: r.role });

export const sessionEnded = () => new GatewayError("not_found", "This console session has ended: sign in again.");

/** The member of a live session (not ended, within its absolute and idle expiry, member not removed). */
export async function liveSession(ctx: ControlContext, token: unknown): Promise<LiveMember> {
  if (typeof token !== "string" || !token.startsWith("gws_") || token.length > 100) throw sessionEnded();
  const row = await sql<LiveMember>`
    SELECT m.id, m.org_id, m.email, m.role, s.expires_at, s.last_seen_at
    FROM console_sessions s JOIN console_members m ON m.id = s.member_id
    WHERE s.token_hash = ${hashSecret(token)} AND s.ended_at IS NULL AND s.expires_at > now()
      AND s.last_seen_at > now() - make_interval(secs => ${SESSION_IDLE_MS / 1000}) AND m.removed_at IS NULL`.execute(ctx.db);
  const live = row.rows[0];
  if (!live) throw sessionEnded();
  return live;
}

/** A live session of an organization's member; an operator acts on organizations from the operator pages. */
export async function orgMemberOf(ctx: ControlContext, token: unknown): Promise<OrgMember> {
  const live = await liveSession(ctx, token);
  if (live.org_id === null) throw new GatewayError("forbidden", "An operator is not a member of an organization: use the operator pages.");
  return live as OrgMember;
}

/** A live session's member with one of `roles`; anyone else gets 403 with what they may not do. */
export async function memberWithRole(ctx: ControlContext, token: unknown, roles: readonly string[], what: string): Promise<OrgMember> {
  const live = await orgMemberOf(ctx, token);
  if (!roles.includes(live.role)) throw new GatewayError("forbidden", `A ${live.role} may not ${what}; ask one of the organization's ${roles.join(" or ")} members.`);
  return live;
}

/** A live session's admin member. */
export const adminOf = (ctx: ControlContext, token: unknown, what = "change the organization's keys") => memberWithRole(ctx, token, ["admin"], what);

/** A live operator session; an organization's member gets 403. */
export async function operatorOf(ctx: ControlContext, token: unknown): Promise<LiveMember> {
  const live = await liveSession(ctx, token);
  if (live.role !== "operator") throw new GatewayError("forbidden", "Only operators may do this.");
  return live;
}

/** A new session for the member: its token (`gws_` and 32 random bytes) for the browser, only its SHA-256 kept. */
export async function startSession(db: Kysely<ControlDb>, memberId: string): Promise<{ token: string; expires_at: Date }> {
  const token = `gws_${randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await db
    .insertInto("console_sessions")
    .values({ token_hash: hashSecret(token), member_id: memberId, expires_at: expiresAt, ended_at: null })
    .execute();
  return { token, expires_at: expiresAt };
}
