import { randomBytes } from "node:crypto";
import { GatewayError } from "@gateway/errors";
import { inTransaction, sql } from "@gateway/db";
import type {
  ApiKey,
  ConsoleCreateKeyRequest,
  ConsoleInviteMemberRequest,
  ConsoleMember,
  ConsoleMembers,
  ConsoleSetBudgetRequest,
  Org,
  ConsoleRemoveMemberRequest,
  ConsoleRevokeKeyRequest,
  ConsoleSession,
  ConsoleSessionRequest,
  CreatedKey,
  CreateSignInLinkRequest,
  ListKeysResponse,
  RedeemSignInLinkRequest,
  RemoveConsoleMemberRequest,
  SignInLink,
  Guardrails,
} from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { hashSecret, newId } from "../keys/secret.js";
import { findOrg, toOrg } from "../orgs.js";
import { audited } from "./console-audit.js";
import { moneyFormat } from "./console-money-format.js";
import { adminOf, liveSession, memberWithRole, orgMemberOf, SESSION_IDLE_MS, sessionEnded, startSession, toMember } from "./console-session.js";
import { setOrgBudget } from "./set-org-budget.js";
import { getGuardrails } from "./guardrails.js";
import { createKey } from "./create-key.js";
import { listKeys } from "./list-keys.js";
import { revokeKey } from "./revoke-key.js";

/** A sign-in link is good for 15 minutes and one use. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
/** A session's last use is written at most once a minute (each console call checks the session). */
const SEEN_EVERY_MS = 60_000;
const ROLES = new Set(["admin", "billing", "viewer", "operator"]);
/** Loose on purpose (the address is the operator's word); bounded so it stays an identifier. */
export const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}$/;

/**
 * Adds the member (or changes its role, or brings a removed one back) and mints a one-time sign-in
 * token for it: `gwl_` and 32 random bytes, of which only the SHA-256 is kept. Bringing a removed
 * member back frees its single sign-on account (the next sign-in by single sign-on binds it again);
 * a role change or a new link keeps it.
 */
export function createSignInLink(ctx: ControlContext) {
  return async (req: CreateSignInLinkRequest): Promise<SignInLink & { member: ConsoleMember }> => {
    const email = req.email.trim();
    if (!EMAIL.test(email)) throw new GatewayError("invalid_request", `'${req.email}' is not an email address`);
    if (!ROLES.has(req.role)) throw new GatewayError("invalid_request", `role must be admin, billing, viewer or operator, got '${req.role}'`);
    const operator = req.role === "operator";
    if (operator && req.org) throw new GatewayError("invalid_request", "an operator belongs to no organization: leave org empty");
    const orgId = operator ? null : (await findOrg(ctx.db, req.org)).id;
    const token = `gwl_${randomBytes(32).toString("base64url")}`;
    const expiresAt = new Date(Date.now() + SIGN_IN_LINK_TTL_MS);
    const member = await inTransaction(ctx.db, async (trx) => {
      const row = await sql<{ id: string; org_id: string | null; email: string; role: string }>`
        INSERT INTO console_members (id, org_id, email, role, removed_at) VALUES (${newId("mem")}, ${orgId}, ${email}, ${req.role}, NULL)
        ON CONFLICT ${operator ? sql`(lower(email)) WHERE org_id IS NULL` : sql`(org_id, lower(email))`} DO UPDATE SET role = EXCLUDED.role, removed_at = NULL,
          oidc_issuer = CASE WHEN console_members.removed_at IS NULL THEN console_members.oidc_issuer END,
          oidc_subject = CASE WHEN console_members.removed_at IS NULL THEN console_members.oidc_subject END
        RETURNING id, org_id, email, role`.execute(trx);
      const m = row.rows[0]!;
      await trx
        .insertInto("console_signin_links")
        .values({ token_hash: hashSecret(token), member_id: m.id, expires_at: expiresAt, used_at: null })
        .execute();
      return m;
    });
    return { token, expires_at_ms: expiresAt.getTime(), member: toMember(member) };
  };
}

/**
 * Uses the link and starts a session for its member, in one transaction: one UPDATE marks the link
 * used only if unused and unexpired, so two redeems of one token cannot both win. The session's
 * token (`gws_` and 32 random bytes) goes to the browser; the control-plane keeps its SHA-256.
 */
export function redeemSignInLink(ctx: ControlContext) {
  return async (req: RedeemSignInLinkRequest): Promise<ConsoleSession> => {
    const refused = new GatewayError("not_found", "This sign-in link is not valid: it was used, has expired, or never existed. Ask for a new one.");
    if (typeof req.token !== "string" || !req.token.startsWith("gwl_") || req.token.length > 100) throw refused;
    return ctx.db.transaction().execute(async (trx) => {
      const row = await sql<{ id: string; org_id: string | null; email: string; role: string }>`
        UPDATE console_signin_links l SET used_at = now()
        FROM console_members m
        WHERE l.token_hash = ${hashSecret(req.token)} AND l.used_at IS NULL AND l.expires_at > now() AND m.id = l.member_id AND m.removed_at IS NULL
        RETURNING m.id, m.org_id, m.email, m.role`.execute(trx);
      const member = row.rows[0];
      if (!member) throw refused;
      const session = await startSession(trx, member.id);
      return { token: session.token, member: toMember(member), expires_at_ms: session.expires_at.getTime(), idle_timeout_ms: SESSION_IDLE_MS, money: null };
    });
  };
}

/** The session's member while the session is live. */
export function getConsoleSession(ctx: ControlContext) {
  return async (req: ConsoleSessionRequest): Promise<ConsoleSession> => {
    const [live, money] = await Promise.all([liveSession(ctx, req.token), moneyFormat(ctx.db)]);
    if (Date.now() - live.last_seen_at.getTime() > SEEN_EVERY_MS) {
      await ctx.db.updateTable("console_sessions").set({ last_seen_at: new Date() }).where("token_hash", "=", hashSecret(req.token)).execute();
    }
    return { token: "", member: toMember(live), expires_at_ms: live.expires_at.getTime(), idle_timeout_ms: SESSION_IDLE_MS, money };
  };
}

/** Sign-out: the session ends (idempotent for a session that already ended). */
export function endConsoleSession(ctx: ControlContext) {
  return async (req: ConsoleSessionRequest): Promise<ConsoleSession> => {
    if (typeof req.token !== "string" || !req.token.startsWith("gws_")) throw sessionEnded();
    const row = await sql<{ id: string; org_id: string | null; email: string; role: string; expires_at: Date }>`
      UPDATE console_sessions s SET ended_at = coalesce(s.ended_at, now())
      FROM console_members m
      WHERE s.token_hash = ${hashSecret(req.token)} AND m.id = s.member_id
      RETURNING m.id, m.org_id, m.email, m.role, s.expires_at`.execute(ctx.db);
    const ended = row.rows[0];
    if (!ended) throw sessionEnded();
    return { token: "", member: toMember(ended), expires_at_ms: ended.expires_at.getTime(), idle_timeout_ms: SESSION_IDLE_MS, money: null };
  };
}

/** Removes a member: its sessions end and its unused links stop working at once. */
export function removeConsoleMember(ctx: ControlContext) {
  return async (req: RemoveConsoleMemberRequest): Promise<ConsoleMember> => {
    const org = await findOrg(ctx.db, req.org);
    return inTransaction(ctx.db, async (trx) => {
      const member = await trx
        .updateTable("console_members")
        .set({ removed_at: new Date() })
        .where("org_id", "=", org.id)
        .where(sql<boolean>`lower(email) = lower(${req.email.trim()})`)
        .where("removed_at", "is", null)
        .returning(["id", "org_id", "email", "role"])
        .executeTakeFirst();
      if (!member) throw new GatewayError("not_found", `'${req.email}' is not a console member of '${req.org}'`);
      await trx.updateTable("console_sessions").set({ ended_at: new Date() }).where("member_id", "=", member.id).where("ended_at", "is", null).execute();
      return toMember(member);
    });
  };
}

/** The keys of the session member's organization (any role may read them; secrets are never kept). */
export function consoleListKeys(ctx: ControlContext) {
  const list = listKeys(ctx);
  return async (req: ConsoleSessionRequest): Promise<ListKeysResponse> => list({ org: (await orgMemberOf(ctx, req.token)).org_id });
}

/** A new key of the session member's organization, with its routes, models and limits; admins only, audited. */
export function consoleCreateKey(ctx: ControlContext) {
  return async (req: ConsoleCreateKeyRequest): Promise<CreatedKey> => {
    const admin = await adminOf(ctx, req.token);
    return audited(
      ctx,
      admin,
      (tx) => createKey(tx)({ org: admin.org_id, routes: req.routes, models: req.models, name: req.name, rpm_limit: req.rpm_limit, tpm_limit: req.tpm_limit, mcp_tools: [] }),
      ({ key }) => ({
        org_id: admin.org_id,
        action: "key_created",
        target: key?.id ?? "",
        detail: { name: key?.name, prefix: key?.prefix, routes: key?.routes, models: key?.models, rpm_limit: key?.rpm_limit, tpm_limit: key?.tpm_limit },
      }),
    );
  };
}

/** Revokes a key of the session member's organization (another organization's key is not found); admins only. */
export function consoleRevokeKey(ctx: ControlContext) {
  return async (req: ConsoleRevokeKeyRequest): Promise<ApiKey> => {
    const admin = await adminOf(ctx, req.token);
    const key = await ctx.db.selectFrom("api_keys").select("org_id").where("id", "=", req.key_id).executeTakeFirst();
    if (!key || key.org_id !== admin.org_id) throw new GatewayError("not_found", `key '${req.key_id}' does not exist`);
    return audited(
      ctx,
      admin,
      (tx) => revokeKey(tx)({ key_id: req.key_id }),
      (k) => ({ org_id: admin.org_id, action: "key_revoked", target: k.id, detail: { name: k.name, prefix: k.prefix } }),
    );
  };
}

/** The members of the session member's organization (any role may read them). */
export function consoleListMembers(ctx: ControlContext) {
  return async (req: ConsoleSessionRequest): Promise<ConsoleMembers> => {
    const live = await orgMemberOf(ctx, req.token);
    const rows = await ctx.db.selectFrom("console_members").select(["id", "org_id", "email", "role"]).where("org_id", "=", live.org_id).where("removed_at", "is", null).orderBy("email").execute();
    return { members: rows.map(toMember) };
  };
}

/** The roles an organization's admin may give (an operator belongs to no organization). */
const MEMBER_ROLES = ["admin", "billing", "viewer"];

/**
 * Refuses a change that would leave the organization without an admin: removing its only admin, or
 * giving it another role (`role`; null: removal). The organization's admins are locked first, so two
 * admins removing each other at once cannot both pass: the second reads the first's change.
 */
async function keepAnAdmin(tx: ControlContext, orgId: string, email: string, role: string | null): Promise<void> {
  if (role === "admin") return;
  const admins = await sql<{ email: string }>`
    SELECT email FROM console_members WHERE org_id = ${orgId} AND role = 'admin' AND removed_at IS NULL ORDER BY id FOR UPDATE`.execute(tx.db);
  const target = email.trim().toLowerCase();
  if (admins.rows.length === 1 && admins.rows[0]!.email.toLowerCase() === target) {
    const change = role === null ? "be removed" : `become a ${role}`;
    throw new GatewayError("forbidden", `${admins.rows[0]!.email} is the organization's only admin and cannot ${change}: make another member an admin first.`);
  }
}

/** An admin invites someone to the organization's console: a one-time sign-in link for the address, with a role. */
export function consoleInviteMember(ctx: ControlContext) {
  return async (req: ConsoleInviteMemberRequest): Promise<SignInLink> => {
    const admin = await adminOf(ctx, req.token, "invite members");
    if (!MEMBER_ROLES.includes(req.role)) throw new GatewayError("invalid_request", `The role must be admin, billing or viewer, not '${req.role}'.`);
    return audited(
      ctx,
      admin,
      async (tx) => {
        await keepAnAdmin(tx, admin.org_id, req.email, req.role);
        return createSignInLink(tx)({ org: admin.org_id, email: req.email, role: req.role });
      },
      (l) => ({ org_id: admin.org_id, action: "member_invited", target: l.member.email, detail: { role: l.member.role } }),
    );
  };
}

/** An admin removes a member of the organization (never its only admin): its sessions end and its links stop working at once. */
export function consoleRemoveMember(ctx: ControlContext) {
  return async (req: ConsoleRemoveMemberRequest): Promise<ConsoleMember> => {
    const admin = await adminOf(ctx, req.token, "remove members");
    return audited(
      ctx,
      admin,
      async (tx) => {
        await keepAnAdmin(tx, admin.org_id, req.email, null);
        return removeConsoleMember(tx)({ org: admin.org_id, email: req.email });
      },
      (m) => ({ org_id: admin.org_id, action: "member_removed", target: m.email, detail: { role: m.role } }),
    );
  };
}

/** The session member's organization: its name, models and monthly budget. */
export function consoleGetOrg(ctx: ControlContext) {
  return async (req: ConsoleSessionRequest): Promise<Org> => {
    const live = await orgMemberOf(ctx, req.token);
    return toOrg(ctx.db, await findOrg(ctx.db, live.org_id));
  };
}

/** Sets the organization's monthly budget (0 removes the cap): admins and the billing role. */
export function consoleSetBudget(ctx: ControlContext) {
  return async (req: ConsoleSetBudgetRequest): Promise<Org> => {
    const member = await memberWithRole(ctx, req.token, ["admin", "billing"], "change the organization's budget");
    return audited(
      ctx,
      member,
      (tx) => setOrgBudget(tx)({ org: member.org_id, monthly_budget_minor: req.monthly_budget_minor }),
      (o) => ({ org_id: member.org_id, action: "budget_set", target: o.id, detail: { monthly_budget_minor: o.monthly_budget_minor } }),
    );
  };
}

/** The organization's guardrail rules (any role may read them; what fired is the ledger's to count). */
export function consoleGetGuardrails(ctx: ControlContext) {
  const get = getGuardrails(ctx);
  return async (req: ConsoleSessionRequest): Promise<Guardrails> => get({ org: (await orgMemberOf(ctx, req.token)).org_id });
}
