import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type { ConsoleSession, StartOidcSessionRequest } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { EMAIL } from "./console-links.js";
import { SESSION_IDLE_MS, startSession, toMember } from "./console-session.js";

/**
 * Starts a console session for the member a verified email address belongs to, after the console
 * signed the person in at the organization's OpenID Connect issuer (docs/console.md, "OpenID
 * Connect"). Membership stays the control-plane's: the issuer proves the address, an admin (or
 * `gatewayctl console link`) must have made it a member. An address that is a member of several
 * organizations names one (`org`, id or name); an operator's address signs in as the operator.
 * The member's first sign-in by single sign-on binds it to that account (issuer and subject: an
 * address is not a stable identifier, OpenID Connect Core 5.7); another account of the same issuer
 * with the address is refused until an admin removes the member and invites the address again. A
 * new issuer binds anew.
 */
export function startOidcSession(ctx: ControlContext) {
  return async (req: StartOidcSessionRequest): Promise<ConsoleSession> => {
    const email = req.email.trim();
    if (!EMAIL.test(email)) throw new GatewayError("invalid_request", "a verified email address is required");
    const rows = await sql<{ id: string; org_id: string | null; email: string; role: string; org_name: string | null }>`
      SELECT m.id, m.org_id, m.email, m.role, o.name AS org_name
      FROM console_members m LEFT JOIN organizations o ON o.id = m.org_id
      WHERE lower(m.email) = lower(${email}) AND m.removed_at IS NULL
      ORDER BY o.name NULLS FIRST`.execute(ctx.db);
    const org = req.org.trim();
    const members = org ? rows.rows.filter((m) => m.org_id === org || m.org_name === org) : rows.rows;
    if (members.length === 0)
      throw new GatewayError("not_found", org ? `${email} is not a console member of '${org}'.` : `${email} is not a console member: ask an admin of your organization to invite you.`);
    if (members.length > 1)
      throw new GatewayError("invalid_request", `${email} is a member of several organizations (${members.map((m) => m.org_name ?? "operator").join(", ")}): name the one to sign in to.`);
    const member = members[0]!;
    const [issuer, subject] = [req.issuer.trim(), req.subject.trim()];
    if (!issuer || !subject) throw new GatewayError("invalid_request", "the ID token's issuer and subject are required");
    const session = await ctx.db.transaction().execute(async (trx) => {
      // One statement binds or matches: two first sign-ins at once are serialized by the row's lock.
      const bound = await sql<{ id: string }>`
        UPDATE console_members SET oidc_issuer = ${issuer}, oidc_subject = ${subject}
        WHERE id = ${member.id} AND (oidc_subject IS NULL OR oidc_issuer IS DISTINCT FROM ${issuer} OR oidc_subject = ${subject})
        RETURNING id`.execute(trx);
      if (bound.rows.length === 0) {
        throw new GatewayError(
          "forbidden",
          `${member.email} signs in by single sign-on as another account at ${issuer}: an admin of the organization must remove the member and invite the address again.`,
        );
      }
      return startSession(trx, member.id);
    });
    return { token: session.token, member: toMember(member), expires_at_ms: session.expires_at.getTime(), idle_timeout_ms: SESSION_IDLE_MS, money: null };
  };
}
