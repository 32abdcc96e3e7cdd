import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminServiceMethods, TypedClient } from "@gateway/proto";
import { sql } from "@gateway/db";
import type { ControlPlane } from "../src/index.js";
import { startTestControlPlane } from "./support.js";

/** The console's RPCs at the control-plane: sign-in links, sessions, OpenID Connect and the audit log (docs/console.md). */
const sha = (s: string) => createHash("sha256").update(s).digest("hex");
let cp: ControlPlane;
let admin: TypedClient<AdminServiceMethods>;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ cp, admin, stop } = await startTestControlPlane("cp_console", "console-test-admin-token", "console-test-data-plane-token"));
});
afterAll(async () => {
  await stop?.();
});

describe("console sign-in links", () => {
  it("are single use, stored only as their hash, and sign in the member with its role", async () => {
    await admin.CreateOrg({ name: "console-org" });
    const link = await admin.CreateSignInLink({ org: "console-org", email: "Ada@Example.com", role: "admin" });
    expect(link.token).toMatch(/^gwl_[A-Za-z0-9_-]{43}$/);
    expect(link.expires_at_ms - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(link.expires_at_ms - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const stored = await sql<Record<string, unknown>>`SELECT * FROM console_signin_links`.execute(cp.db);
    expect(
      stored.rows.some((r) =>
        Object.values(r)
          .map(String)
          .some((v) => v.includes(link.token)),
      ),
    ).toBe(false);
    expect(stored.rows.map((r) => r.token_hash)).toContain(sha(link.token));

    // Two redeems at once: exactly one signs in.
    const both = await Promise.allSettled([admin.RedeemSignInLink({ token: link.token }), admin.RedeemSignInLink({ token: link.token })]);
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(both.find((r) => r.status === "fulfilled")).toMatchObject({ value: { member: { org_id: link.member?.org_id, email: "Ada@Example.com", role: "admin" } } });
    await expect(admin.RedeemSignInLink({ token: link.token })).rejects.toMatchObject({ code: "not_found" });

    // The same address (any case) is the same member: a new link can change its role.
    const again = await admin.CreateSignInLink({ org: "console-org", email: "ada@example.com", role: "viewer" });
    expect(again.member?.id).toBe(link.member?.id);
    expect(await admin.RedeemSignInLink({ token: again.token })).toMatchObject({ member: { id: link.member?.id, role: "viewer" } });
  });

  it("start server-side sessions that end on sign-out, after their idle or absolute expiry, and when the member is removed", async () => {
    const start = async (email: string) => admin.RedeemSignInLink({ token: (await admin.CreateSignInLink({ org: "console-org", email, role: "viewer" })).token });
    const s = await start("carol@example.com");
    expect(s.token).toMatch(/^gws_[A-Za-z0-9_-]{43}$/);
    expect(s.idle_timeout_ms).toBe(30 * 60_000);
    expect(s.expires_at_ms - Date.now()).toBeGreaterThan(11 * 3_600_000);
    const stored = await sql<Record<string, unknown>>`SELECT * FROM console_sessions`.execute(cp.db);
    expect(
      stored.rows.some((r) =>
        Object.values(r)
          .map(String)
          .some((v) => v.includes(s.token)),
      ),
    ).toBe(false);
    expect(await admin.GetConsoleSession({ token: s.token })).toMatchObject({ token: "", member: { email: "carol@example.com", role: "viewer" } });

    await admin.EndConsoleSession({ token: s.token });
    await expect(admin.GetConsoleSession({ token: s.token })).rejects.toMatchObject({ code: "not_found" });

    const idle = await start("carol@example.com");
    await sql`UPDATE console_sessions SET last_seen_at = now() - interval '31 minutes' WHERE token_hash = ${sha(idle.token)}`.execute(cp.db);
    await expect(admin.GetConsoleSession({ token: idle.token })).rejects.toMatchObject({ code: "not_found" });
    const old = await start("carol@example.com");
    await sql`UPDATE console_sessions SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha(old.token)}`.execute(cp.db);
    await expect(admin.GetConsoleSession({ token: old.token })).rejects.toMatchObject({ code: "not_found" });

    // Removed: the live session ends at once and an unused link no longer signs in.
    const live = await start("dave@example.com");
    const unused = await admin.CreateSignInLink({ org: "console-org", email: "dave@example.com", role: "viewer" });
    expect(await admin.RemoveConsoleMember({ org: "console-org", email: "DAVE@example.com" })).toMatchObject({ email: "dave@example.com" });
    await expect(admin.GetConsoleSession({ token: live.token })).rejects.toMatchObject({ code: "not_found" });
    await expect(admin.RedeemSignInLink({ token: unused.token })).rejects.toMatchObject({ code: "not_found" });
    await expect(admin.RemoveConsoleMember({ org: "console-org", email: "dave@example.com" })).rejects.toMatchObject({ code: "not_found" });
    await expect(admin.GetConsoleSession({ token: "gws_forged" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuse expired and unknown tokens, and bad roles or addresses", async () => {
    const link = await admin.CreateSignInLink({ org: "console-org", email: "bob@example.com", role: "billing" });
    await sql`UPDATE console_signin_links SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha(link.token)}`.execute(cp.db);
    await expect(admin.RedeemSignInLink({ token: link.token })).rejects.toMatchObject({ code: "not_found" });
    await expect(admin.RedeemSignInLink({ token: "gwl_never-minted" })).rejects.toMatchObject({ code: "not_found" });
    await expect(admin.CreateSignInLink({ org: "console-org", email: "bob@example.com", role: "owner" as never })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(admin.CreateSignInLink({ org: "console-org", email: "not an address", role: "viewer" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(admin.CreateSignInLink({ org: "no-such-org", email: "x@example.com", role: "viewer" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("make operators (no organization, one per address) whose sessions may not act as an organization's member", async () => {
    const link = await admin.CreateSignInLink({ org: "", email: "Ops@Example.com", role: "operator" });
    expect(link.member).toMatchObject({ org_id: "", role: "operator" });
    expect((await admin.CreateSignInLink({ org: "", email: "ops@example.com", role: "operator" })).member?.id).toBe(link.member?.id);
    await expect(admin.CreateSignInLink({ org: "console-org", email: "ops2@example.com", role: "operator" })).rejects.toMatchObject({ code: "invalid_request" });
    const s = await admin.RedeemSignInLink({ token: link.token });
    await expect(admin.ConsoleListKeys({ token: s.token })).rejects.toMatchObject({ code: "forbidden" });
    expect((await admin.ConsoleListOrgs({ token: s.token, query: "CONSOLE-o" })).orgs.map((o) => o.name)).toEqual(["console-org"]);
    const member = await admin.RedeemSignInLink({ token: (await admin.CreateSignInLink({ org: "console-org", email: "eve@example.com", role: "admin" })).token });
    await expect(admin.ConsoleListOrgs({ token: member.token, query: "" })).rejects.toMatchObject({ code: "forbidden" });
    await expect(admin.ConsoleGetCatalog({ token: member.token })).rejects.toMatchObject({ code: "forbidden" });
  });

  it("start a session for the member an OpenID Connect address belongs to; an address of several organizations names one", async () => {
    await admin.CreateOrg({ name: "second-console-org" });
    await admin.CreateSignInLink({ org: "console-org", email: "grace@example.com", role: "viewer" });
    const one = await admin.StartOidcSession({ email: "GRACE@example.com", issuer: "https://idp.example.com", subject: "g1", org: "" });
    expect(one.token).toMatch(/^gws_/);
    expect((await admin.GetConsoleSession({ token: one.token })).member).toMatchObject({ email: "grace@example.com", role: "viewer" });
    await admin.CreateSignInLink({ org: "second-console-org", email: "grace@example.com", role: "admin" });
    await expect(admin.StartOidcSession({ email: "grace@example.com", issuer: "https://idp.example.com", subject: "g1", org: "" })).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining("console-org, second-console-org"),
    });
    const chosen = await admin.StartOidcSession({ email: "grace@example.com", issuer: "https://idp.example.com", subject: "g1", org: "second-console-org" });
    expect(chosen.member).toMatchObject({ role: "admin" });
    await admin.RemoveConsoleMember({ org: "second-console-org", email: "grace@example.com" });
    await expect(admin.StartOidcSession({ email: "grace@example.com", issuer: "https://idp.example.com", subject: "g1", org: "second-console-org" })).rejects.toMatchObject({ code: "not_found" });
    await expect(admin.StartOidcSession({ email: "nobody@example.com", issuer: "https://idp.example.com", subject: "n", org: "" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("bind a member to its first single sign-on account: another account with the address is refused until the member is removed and invited again", async () => {
    await admin.CreateSignInLink({ org: "console-org", email: "heidi@example.com", role: "viewer" });
    const start = (subject: string, issuer = "https://idp.example.com") => admin.StartOidcSession({ email: "heidi@example.com", issuer, subject, org: "" });
    expect((await start("h1")).token).toMatch(/^gws_/);
    expect((await start("h1")).token).toMatch(/^gws_/);
    // The issuer gave the address to someone else: same issuer, another subject.
    await expect(start("h2")).rejects.toMatchObject({ code: "forbidden", message: expect.stringContaining("remove the member and invite the address again") });
    // A role change keeps the account; removing the member and inviting the address again frees it.
    await admin.CreateSignInLink({ org: "console-org", email: "heidi@example.com", role: "billing" });
    await expect(start("h2")).rejects.toMatchObject({ code: "forbidden" });
    await admin.RemoveConsoleMember({ org: "console-org", email: "heidi@example.com" });
    await admin.CreateSignInLink({ org: "console-org", email: "heidi@example.com", role: "viewer" });
    // Two first sign-ins of different accounts at once: one binds, the other is refused.
    const raced = await Promise.allSettled([start("h3"), start("h4")]);
    expect(raced.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(raced.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(["forbidden"]);
    // The console moved to another issuer: its accounts bind anew.
    expect((await start("other-1", "https://new-idp.example.com")).token).toMatch(/^gws_/);
    await expect(start("other-2", "https://new-idp.example.com")).rejects.toMatchObject({ code: "forbidden" });
    await expect(admin.StartOidcSession({ email: "heidi@example.com", issuer: "", subject: "", org: "" })).rejects.toMatchObject({ code: "invalid_request" });
  });

  it("audit a console change in its own transaction: a refused or failed change leaves no entry", async () => {
    const s = await admin.RedeemSignInLink({ token: (await admin.CreateSignInLink({ org: "console-org", email: "frank@example.com", role: "admin" })).token });
    const entries = async () =>
      (await sql<{ action: string; actor_email: string }>`SELECT action, actor_email FROM console_audit WHERE actor_email = 'frank@example.com' ORDER BY id`.execute(cp.db)).rows;
    // The key insert itself fails (a model not in the catalog): no entry.
    await expect(admin.ConsoleCreateKey({ token: s.token, name: "k", routes: [], models: ["no-such-model"] })).rejects.toMatchObject({ code: "not_found" });
    await expect(admin.ConsoleSetBudget({ token: s.token, monthly_budget_minor: -1 })).rejects.toMatchObject({ code: "invalid_request" });
    expect(await entries()).toEqual([]);
    await admin.ConsoleCreateKey({ token: s.token, name: "k", routes: [], models: [] });
    await admin.ConsoleSetBudget({ token: s.token, monthly_budget_minor: 5 });
    expect(await entries()).toEqual([
      { action: "key_created", actor_email: "frank@example.com" },
      { action: "budget_set", actor_email: "frank@example.com" },
    ]);
    // Recording an operator's top-up needs an operator's session, and records one entry per top-up.
    await expect(admin.ConsoleRecordAudit({ token: s.token, org: "console-org", action: "top_up", target: "top_1", detail_json: "{}" })).rejects.toMatchObject({ code: "forbidden" });
    const ops = await admin.RedeemSignInLink({ token: (await admin.CreateSignInLink({ org: "", email: "ops@example.com", role: "operator" })).token });
    const first = await admin.ConsoleRecordAudit({ token: ops.token, org: "console-org", action: "top_up", target: "top_1", detail_json: '{"amount_minor":5}' });
    expect((await admin.ConsoleRecordAudit({ token: ops.token, org: "console-org", action: "top_up", target: "top_1", detail_json: '{"amount_minor":5}' })).id).toBe(first.id);
    // A double-submitted form records the same top-up from two requests at once: still one entry.
    const racing = await Promise.all(Array.from({ length: 8 }, () => admin.ConsoleRecordAudit({ token: ops.token, org: "console-org", action: "top_up", target: "top_2", detail_json: "{}" })));
    expect(new Set(racing.map((e) => e.id)).size).toBe(1);
    expect((await admin.ConsoleListAudit({ token: ops.token, org: "", cursor: "", limit: 200 })).entries.filter((e) => e.target === "top_2")).toHaveLength(1);
    await expect(admin.ConsoleRecordAudit({ token: ops.token, org: "console-org", action: "key_created", target: "x", detail_json: "{}" })).rejects.toMatchObject({ code: "invalid_request" });
  });
});

describe("console organization rules", () => {
  const signIn = async (org: string, email: string, role: "admin" | "billing" | "viewer" | "operator") =>
    admin.RedeemSignInLink({ token: (await admin.CreateSignInLink({ org: role === "operator" ? "" : org, email, role })).token });

  it("keep an admin: the only admin cannot remove itself or become a billing or viewer member; of two admins removing each other at once, one stays", async () => {
    await admin.CreateOrg({ name: "one-admin-org" });
    const only = await signIn("one-admin-org", "only@example.com", "admin");
    await expect(admin.ConsoleRemoveMember({ token: only.token, email: "ONLY@example.com" })).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("only admin and cannot be removed"),
    });
    await expect(admin.ConsoleInviteMember({ token: only.token, email: "only@example.com", role: "viewer" })).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("cannot become a viewer"),
    });
    // Inviting it again as an admin (a new link) changes nothing it is refused for.
    expect((await admin.ConsoleInviteMember({ token: only.token, email: "only@example.com", role: "admin" })).member).toMatchObject({ role: "admin" });
    expect((await admin.GetConsoleSession({ token: only.token })).member).toMatchObject({ role: "admin" });

    // With a second admin, either may go, but not both: two removals at once leave one admin.
    const second = await signIn("one-admin-org", "second@example.com", "admin");
    const raced = await Promise.allSettled([
      admin.ConsoleRemoveMember({ token: only.token, email: "second@example.com" }),
      admin.ConsoleRemoveMember({ token: second.token, email: "only@example.com" }),
    ]);
    expect(raced.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const admins = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM console_members m JOIN organizations o ON o.id = m.org_id
      WHERE o.name = 'one-admin-org' AND m.role = 'admin' AND m.removed_at IS NULL`.execute(cp.db);
    expect(admins.rows[0]!.n).toBe(1);
    // Refused changes write no audit entry.
    const refused = await sql<{ n: number }>`SELECT count(*)::int AS n FROM console_audit WHERE actor_email = 'only@example.com' AND action = 'member_removed' AND target = 'only@example.com'`.execute(
      cp.db,
    );
    expect(refused.rows[0]!.n).toBe(0);
  });

  it("refuse a role an organization cannot give: an operator or an unknown one is not quietly made a viewer", async () => {
    await admin.CreateOrg({ name: "roles-org" });
    const boss = await signIn("roles-org", "boss@example.com", "admin");
    for (const role of ["operator", "owner", ""])
      await expect(admin.ConsoleInviteMember({ token: boss.token, email: "new@example.com", role })).rejects.toMatchObject({
        code: "invalid_request",
        message: expect.stringContaining("The role must be admin, billing or viewer"),
      });
    expect((await admin.ConsoleListMembers({ token: boss.token })).members.map((m) => m.email)).toEqual(["boss@example.com"]);
  });

  it("carry the operator's money format on every session; only an operator sets it (0 to 6 decimals, a unit), audited", async () => {
    const member = await signIn("roles-org", "reader@example.com", "viewer");
    expect((await admin.GetConsoleSession({ token: member.token })).money).toEqual({ decimals: 2, unit: "credits" });
    await expect(admin.ConsoleSetMoneyFormat({ token: member.token, decimals: 3, unit: "cr" })).rejects.toMatchObject({ code: "forbidden" });
    const ops = await signIn("", "money-ops@example.com", "operator");
    await expect(admin.ConsoleSetMoneyFormat({ token: ops.token, decimals: 7, unit: "cr" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(admin.ConsoleSetMoneyFormat({ token: ops.token, decimals: 2, unit: "<b>" })).rejects.toMatchObject({ code: "invalid_request" });
    expect(await admin.ConsoleSetMoneyFormat({ token: ops.token, decimals: 3, unit: " USD " })).toEqual({ decimals: 3, unit: "USD" });
    expect((await admin.GetConsoleSession({ token: member.token })).money).toEqual({ decimals: 3, unit: "USD" });
    const audit = await admin.ConsoleListAudit({ token: ops.token, org: "", cursor: "", limit: 1 });
    expect(audit.entries[0]).toMatchObject({ action: "money_format_set", actor_email: "money-ops@example.com" });
    expect(JSON.parse(audit.entries[0]!.detail_json)).toEqual({ decimals: 3, unit: "USD" });
    await admin.ConsoleSetMoneyFormat({ token: ops.token, decimals: 2, unit: "credits" });
  });

  it("show an operator one organization with its keys and members; a member may not read it", async () => {
    const org = await admin.CreateOrg({ name: "viewed-org" });
    await admin.CreateKey({ org: org.id, name: "viewed-key", routes: [], models: [], mcp_tools: [] });
    const boss = await signIn("viewed-org", "viewed-boss@example.com", "admin");
    const ops = await signIn("", "viewer-ops@example.com", "operator");
    const view = await admin.ConsoleOperatorOrg({ token: ops.token, org_id: org.id });
    expect(view.org).toMatchObject({ id: org.id, name: "viewed-org" });
    expect(view.keys.map((k) => k.name)).toEqual(["viewed-key"]);
    expect(view.members.map((m) => [m.email, m.role])).toEqual([["viewed-boss@example.com", "admin"]]);
    await expect(admin.ConsoleOperatorOrg({ token: boss.token, org_id: org.id })).rejects.toMatchObject({ code: "forbidden" });
    await expect(admin.ConsoleOperatorOrg({ token: ops.token, org_id: "org_missing" })).rejects.toMatchObject({ code: "not_found" });
  });
});
