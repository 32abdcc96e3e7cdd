import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTROL_CHANGED_SUBJECT, ControlChangedV1, decodeEvent } from "@gateway/events";
import type { AdminServiceMethods, ControlServiceMethods, KeyContext, TypedClient } from "@gateway/proto";
import { eventually, type NatsHandle } from "@gateway/testing";
import { sql } from "@gateway/db";
import type { ControlPlane } from "../src/index.js";
import { startTestControlPlane } from "./support.js";

/**
 * Budgets at the control-plane (docs/billing.md, "Budgets"): what each setting refuses, what the
 * data-plane's key context then carries, the change events that evict it, the 1,000 end users' own
 * limits, the console's roles and gatewayctl's commands.
 */
const TOKEN = "budgets-test-admin-token";
const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const run = promisify(execFile);

let nats: NatsHandle;
let stop: () => Promise<void>;
let cp: ControlPlane;
let admin: TypedClient<AdminServiceMethods>;
let control: TypedClient<ControlServiceMethods>;
let nc: NatsConnection;
const changes: ControlChangedV1[] = [];

beforeAll(async () => {
  ({ cp, admin, control, nats, stop } = await startTestControlPlane("cp_budgets", TOKEN, "budgets-test-data-plane-token"));
  nc = await connect({ servers: nats.url });
  nc.subscribe(CONTROL_CHANGED_SUBJECT, {
    callback: (_e, m) => {
      const ev = decodeEvent(ControlChangedV1, m.data);
      if (ev) changes.push(ev);
    },
  });
});

afterAll(async () => {
  await nc?.close();
  await stop?.();
});

/** An organization with one key: its id, the key's id and the key's context as the data-plane reads it. */
async function orgWithKey(name: string) {
  const org = await admin.CreateOrg({ name });
  const created = await admin.CreateKey({ org: org.id, routes: [], models: [], name: "k" });
  const context = async (): Promise<KeyContext> => (await control.AuthenticateKey({ key_hash: sha(created.secret) })).key!;
  return { orgId: org.id, keyId: created.key!.id, keyHash: sha(created.secret), context };
}

/** Waits for a change event this test caused (events are announced after the commit). */
const announced = (match: (c: ControlChangedV1) => boolean, what: string) => eventually(() => changes.find(match), 15_000, what);

describe("organization budgets", () => {
  it("start with no caps, in UTC, monthly; the key context then carries the time zone, the cap and its window", async () => {
    const { orgId, context } = await orgWithKey("budget-defaults");
    expect(await context()).toMatchObject({
      key_budget: { limit_minor: 0, window: "month" },
      project_id: "",
      project_budget: { limit_minor: 0, window: "month" },
      key_tags: [],
      org_time_zone: "UTC",
      org_budget: { limit_minor: 0, window: "month" },
      monthly_budget_minor: 0,
      end_user_source: "",
      end_user_budget: { limit_minor: 0, window: "month" },
      end_user_overrides: {},
    });

    const since = changes.length;
    const org = await admin.SetOrgBudgets({ org: "budget-defaults", time_zone: "europe/paris", limit_minor: 5_000_000, window: "day" });
    expect(org).toMatchObject({ id: orgId, time_zone: "Europe/Paris", budget: { limit_minor: 5_000_000, window: "day" }, monthly_budget_minor: 0 });
    await announced((c) => changes.indexOf(c) >= since && c.kind === "org" && c.id === orgId, "org change event");
    // monthly_budget_minor is the cap only while the window is a month (data-planes before windows read it as one).
    expect(await context()).toMatchObject({ org_time_zone: "Europe/Paris", org_budget: { limit_minor: 5_000_000, window: "day" }, monthly_budget_minor: 0 });

    // A field left out keeps its value.
    expect(await admin.SetOrgBudgets({ org: orgId, window: "month" })).toMatchObject({
      time_zone: "Europe/Paris",
      budget: { limit_minor: 5_000_000, window: "month" },
      monthly_budget_minor: 5_000_000,
    });
    expect((await context()).monthly_budget_minor).toBe(5_000_000);
    // The monthly budget of the release before windows sets the window back to a month.
    await admin.SetOrgBudgets({ org: orgId, window: "week" });
    expect(await admin.SetOrgBudget({ org: orgId, monthly_budget_minor: 7 })).toMatchObject({ budget: { limit_minor: 7, window: "month" }, monthly_budget_minor: 7 });
    expect((await admin.ListOrgs({})).orgs.find((o) => o.id === orgId)).toMatchObject({ time_zone: "Europe/Paris", budget: { limit_minor: 7, window: "month" } });
  });

  it("refuses what is not a time zone, a window, a limit or an end-user source, naming the field, and changes nothing", async () => {
    const { orgId, context } = await orgWithKey("budget-refusals");
    const refused = (change: Record<string, unknown>, message: string) =>
      expect(admin.SetOrgBudgets({ org: orgId, ...change })).rejects.toMatchObject({ code: "invalid_request", message: expect.stringContaining(message) });
    await refused({ time_zone: "Mars/Olympus_Mons" }, "time_zone must be an IANA time zone such as Europe/Paris, or UTC, got 'Mars/Olympus_Mons'");
    await refused({ time_zone: "+02:00" }, "time_zone must be an IANA time zone");
    await refused({ window: "fortnight" }, "window must be day, week, month or none, got 'fortnight'");
    await refused({ end_user_window: "year" }, "end_user_window must be day, week, month or none");
    await refused({ limit_minor: -1 }, "limit_minor must be a non-negative integer of minor credit units (0: no cap), got -1");
    await refused({ end_user_limit_minor: -5 }, "end_user_limit_minor must be a non-negative integer");
    await refused({ end_user_source: "cookie" }, "end_user_source must be '' (off), 'body' or 'header', got 'cookie'");
    await refused({}, "nothing to change");
    // One bad field refuses the whole change.
    await refused({ time_zone: "Asia/Tokyo", window: "fortnight" }, "window must be");
    expect(await context()).toMatchObject({ org_time_zone: "UTC", org_budget: { limit_minor: 0, window: "month" } });
    await expect(admin.SetOrgBudgets({ org: "no-such-org", window: "day" })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("key budgets, projects and tags", () => {
  it("set a key's cap, project and tags; the key context carries them and the key is evicted by its hash", async () => {
    const { orgId, keyId, keyHash, context } = await orgWithKey("key-budgets");
    const project = await admin.CreateProject({ org: orgId, name: "search", limit_minor: 900, window: "week" });
    expect(project).toMatchObject({ id: expect.stringMatching(/^proj_/), org_id: orgId, name: "search", budget: { limit_minor: 900, window: "week" }, keys: 0 });

    const since = changes.length;
    const key = await admin.SetKeyBudget({ key_id: keyId, limit_minor: 250, window: "day", project: "search", tags: { tags: ["team:search", "env.prod", "team:search"] } });
    expect(key).toMatchObject({ id: keyId, budget: { limit_minor: 250, window: "day" }, project_id: project.id, tags: ["team:search", "env.prod"] });
    await announced((c) => changes.indexOf(c) >= since && c.kind === "key" && c.id === keyId && c.key_hash === keyHash, "key change event with its hash");
    expect(await context()).toMatchObject({
      key_budget: { limit_minor: 250, window: "day" },
      project_id: project.id,
      project_budget: { limit_minor: 900, window: "week" },
      key_tags: ["team:search", "env.prod"],
    });
    expect((await admin.ListKeys({ org: orgId })).keys[0]).toMatchObject({ budget: { limit_minor: 250, window: "day" }, project_id: project.id, tags: ["team:search", "env.prod"] });
    expect((await admin.ListProjects({ org: orgId })).projects).toEqual([{ ...project, keys: 1 }]);

    // A field left out keeps its value; the project by id; tags present but empty remove them.
    expect(await admin.SetKeyBudget({ key_id: keyId, window: "none", project: project.id })).toMatchObject({
      budget: { limit_minor: 250, window: "none" },
      project_id: project.id,
      tags: ["team:search", "env.prod"],
    });
    expect(await admin.SetKeyBudget({ key_id: keyId, tags: { tags: [] } })).toMatchObject({ tags: [] });
    // A project's budget reaches its keys' contexts, announced as an org change (every key of the project).
    const before = changes.length;
    expect(await admin.SetProjectBudget({ org: orgId, project: "search", limit_minor: 1_000 })).toMatchObject({ budget: { limit_minor: 1_000, window: "week" }, keys: 1 });
    await announced((c) => changes.indexOf(c) >= before && c.kind === "org" && c.id === orgId, "org change event for the project");
    expect((await context()).project_budget).toEqual({ limit_minor: 1_000, window: "week" });
    // Out of the project.
    expect(await admin.SetKeyBudget({ key_id: keyId, project: "" })).toMatchObject({ project_id: "" });
    expect(await context()).toMatchObject({ project_id: "", project_budget: { limit_minor: 0, window: "month" } });
  });

  it("refuses bad tags, limits and windows, another organization's project, and unknown keys and projects", async () => {
    const { keyId, context } = await orgWithKey("key-refusals");
    await admin.CreateOrg({ name: "key-refusals-other" });
    await admin.CreateProject({ org: "key-refusals-other", name: "theirs", limit_minor: 0, window: "" });
    const refused = (change: Record<string, unknown>, code: string, message: string) =>
      expect(admin.SetKeyBudget({ key_id: keyId, ...change })).rejects.toMatchObject({ code, message: expect.stringContaining(message) });
    await refused({ tags: { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) } }, "invalid_request", "a key has at most 10 tags, got 11");
    await refused({ tags: { tags: ["no spaces"] } }, "invalid_request", "tag 'no spaces' must be 1 to 64 characters of A-Z a-z 0-9 _ . : -");
    await refused({ tags: { tags: ["x".repeat(65)] } }, "invalid_request", "must be 1 to 64 characters");
    await refused({ limit_minor: -1 }, "invalid_request", "limit_minor must be a non-negative integer");
    await refused({ window: "hour" }, "invalid_request", "window must be day, week, month or none, got 'hour'");
    await refused({}, "invalid_request", "nothing to change");
    // Another organization's project is as unknown as a missing one.
    await refused({ project: "theirs" }, "not_found", "project 'theirs' does not exist in organization");
    await refused({ project: "proj_missing" }, "not_found", "project 'proj_missing' does not exist");
    await expect(admin.SetKeyBudget({ key_id: "key_missing", limit_minor: 1 })).rejects.toMatchObject({ code: "not_found", message: "key 'key_missing' does not exist" });
    expect(await context()).toMatchObject({ key_budget: { limit_minor: 0, window: "month" }, key_tags: [], project_id: "" });
    // The database refuses a key in another organization's project even if a caller got past the check.
    const theirs = (await admin.ListProjects({ org: "key-refusals-other" })).projects[0]!;
    await expect(sql`UPDATE api_keys SET project_id = ${theirs.id} WHERE id = ${keyId}`.execute(cp.db)).rejects.toThrow(/api_keys_project/);
  });

  it("names projects uniquely per organization and refuses bad names and budgets", async () => {
    await admin.CreateOrg({ name: "projects-org" });
    await admin.CreateOrg({ name: "projects-org-2" });
    await admin.CreateProject({ org: "projects-org", name: "web", limit_minor: 0, window: "" });
    await expect(admin.CreateProject({ org: "projects-org", name: " web ", limit_minor: 0, window: "" })).rejects.toMatchObject({
      code: "already_exists",
      message: "organization 'projects-org' already has a project named 'web'",
    });
    // Another organization may use the name.
    expect(await admin.CreateProject({ org: "projects-org-2", name: "web", limit_minor: 10, window: "none" })).toMatchObject({ name: "web", budget: { limit_minor: 10, window: "none" } });
    await expect(admin.CreateProject({ org: "projects-org", name: "", limit_minor: 0, window: "" })).rejects.toMatchObject({ code: "invalid_request", message: "name must be 1 to 128 characters" });
    await expect(admin.CreateProject({ org: "projects-org", name: "proj_x", limit_minor: 0, window: "" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(admin.CreateProject({ org: "projects-org", name: "api", limit_minor: -3, window: "" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(admin.CreateProject({ org: "projects-org", name: "api", limit_minor: 0, window: "quarter" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(admin.SetProjectBudget({ org: "projects-org", project: "web" })).rejects.toMatchObject({ code: "invalid_request", message: "nothing to change: give limit_minor or window" });
    await expect(admin.SetProjectBudget({ org: "projects-org", project: "nope", limit_minor: 1 })).rejects.toMatchObject({ code: "not_found" });
    expect((await admin.ListProjects({ org: "projects-org" })).projects.map((p) => p.name)).toEqual(["web"]);
  });
});

describe("end-user budgets", () => {
  it("read end users from where the organization says, with a default cap and named end users' own limits in the key context", async () => {
    const { orgId, context } = await orgWithKey("end-users");
    // Own limits kept while end users are not read: the context carries none of them then.
    expect(await admin.SetEndUserBudget({ org: orgId, end_user: "alice@example.com", limit_minor: 300, remove: false })).toEqual({ org_id: orgId, end_user: "alice@example.com", limit_minor: 300 });
    expect(await context()).toMatchObject({ end_user_source: "", end_user_overrides: {} });

    const since = changes.length;
    const org = await admin.SetOrgBudgets({ org: orgId, end_user_source: "header", end_user_limit_minor: 100, end_user_window: "day" });
    expect(org).toMatchObject({ end_user_source: "header", end_user_budget: { limit_minor: 100, window: "day" }, end_user_overrides: 1 });
    await announced((c) => changes.indexOf(c) >= since && c.kind === "org" && c.id === orgId, "org change event");
    // 0 is a named end user without a cap (the default does not apply to it).
    await admin.SetEndUserBudget({ org: orgId, end_user: "vip", limit_minor: 0, remove: false });
    await admin.SetEndUserBudget({ org: orgId, end_user: "alice@example.com", limit_minor: 350, remove: false });
    expect(await context()).toMatchObject({
      end_user_source: "header",
      end_user_budget: { limit_minor: 100, window: "day" },
      end_user_overrides: { "alice@example.com": 350, vip: 0 },
    });
    expect((await admin.ListEndUserBudgets({ org: orgId })).end_users).toEqual([
      { org_id: orgId, end_user: "alice@example.com", limit_minor: 350 },
      { org_id: orgId, end_user: "vip", limit_minor: 0 },
    ]);

    const before = changes.length;
    expect(await admin.SetEndUserBudget({ org: orgId, end_user: "vip", limit_minor: 0, remove: true })).toMatchObject({ end_user: "vip" });
    await announced((c) => changes.indexOf(c) >= before && c.kind === "org" && c.id === orgId, "org change event for the removal");
    expect((await context()).end_user_overrides).toEqual({ "alice@example.com": 350 });
    await expect(admin.SetEndUserBudget({ org: orgId, end_user: "vip", limit_minor: 0, remove: true })).rejects.toMatchObject({
      code: "not_found",
      message: "end user 'vip' has no limit of its own in organization 'end-users'",
    });
    await expect(admin.SetEndUserBudget({ org: orgId, end_user: "", limit_minor: 1, remove: false })).rejects.toMatchObject({
      code: "invalid_request",
      message: "end_user must be 1 to 256 characters, got 0",
    });
    await expect(admin.SetEndUserBudget({ org: orgId, end_user: "u".repeat(257), limit_minor: 1, remove: false })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(admin.SetEndUserBudget({ org: orgId, end_user: "bob", limit_minor: -1, remove: false })).rejects.toMatchObject({ code: "invalid_request" });
    // Off again: no end-user budgets, the own limits kept for later.
    expect(await admin.SetOrgBudgets({ org: orgId, end_user_source: "" })).toMatchObject({ end_user_source: "", end_user_overrides: 1 });
    expect((await context()).end_user_overrides).toEqual({});
  });

  it("keep at most 1,000 named end users per organization: the 1,001st is refused, a change to one of them is not, and two at once cannot both take the last place", async () => {
    const { orgId, context } = await orgWithKey("end-users-full");
    await admin.SetOrgBudgets({ org: orgId, end_user_source: "body" });
    await sql`INSERT INTO end_user_budgets (org_id, end_user, limit_minor) SELECT ${orgId}, 'user-' || i, i FROM generate_series(1, 999) i`.execute(cp.db);
    // Two new end users at once for the last place: one wins.
    const raced = await Promise.allSettled(["racer-a", "racer-b"].map((u) => admin.SetEndUserBudget({ org: orgId, end_user: u, limit_minor: 5, remove: false })));
    expect(raced.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await admin.ListEndUserBudgets({ org: orgId })).end_users).toHaveLength(1_000);
    await expect(admin.SetEndUserBudget({ org: orgId, end_user: "user-1001", limit_minor: 5, remove: false })).rejects.toMatchObject({
      code: "invalid_request",
      message: "organization 'end-users-full' already has 1000 end users with a limit of their own, the most it may have: remove one before adding 'user-1001' (the others have the default limit)",
    });
    expect(await admin.SetEndUserBudget({ org: orgId, end_user: "user-7", limit_minor: 70, remove: false })).toMatchObject({ limit_minor: 70 });
    await admin.SetEndUserBudget({ org: orgId, end_user: "user-8", limit_minor: 0, remove: true });
    expect(await admin.SetEndUserBudget({ org: orgId, end_user: "user-1001", limit_minor: 5, remove: false })).toMatchObject({ end_user: "user-1001" });
    const overrides = (await context()).end_user_overrides;
    expect(Object.keys(overrides)).toHaveLength(1_000);
    expect(overrides).toMatchObject({ "user-7": 70, "user-1001": 5, "user-998": 998 });
    expect((await admin.ListOrgs({})).orgs.find((o) => o.id === orgId)?.end_user_overrides).toBe(1_000);
  });
});

describe("the console's budget calls", () => {
  const session = async (org: string, email: string, role: string) => (await admin.RedeemSignInLink({ token: (await admin.CreateSignInLink({ org, email, role })).token })).token;

  it("let any member read the budgets, admins and billing change them (audited), and nobody reach another organization's key or project", async () => {
    const { orgId, keyId, context } = await orgWithKey("console-budgets");
    const other = await orgWithKey("console-budgets-other");
    await admin.CreateProject({ org: other.orgId, name: "elsewhere", limit_minor: 0, window: "" });
    const viewer = await session(orgId, "viewer@example.com", "viewer");
    const billing = await session(orgId, "billing@example.com", "billing");
    const adminToken = await session(orgId, "admin@example.com", "admin");

    // A viewer reads, and may change nothing.
    expect(await admin.ConsoleGetBudgets({ token: viewer })).toMatchObject({ org: { id: orgId, time_zone: "UTC", budget: { limit_minor: 0, window: "month" } }, projects: [], end_users: [] });
    const forbidden = { code: "forbidden", message: "A viewer may not change the organization's budgets; ask one of the organization's admin or billing members." };
    await expect(admin.ConsoleSetOrgBudgets({ token: viewer, change: { org: orgId, limit_minor: 1 } })).rejects.toMatchObject(forbidden);
    await expect(admin.ConsoleSetKeyBudget({ token: viewer, change: { key_id: keyId, limit_minor: 1 } })).rejects.toMatchObject(forbidden);
    await expect(admin.ConsoleCreateProject({ token: viewer, project: { org: orgId, name: "p", limit_minor: 0, window: "" } })).rejects.toMatchObject(forbidden);
    await expect(admin.ConsoleSetProjectBudget({ token: viewer, change: { org: orgId, project: "p", limit_minor: 1 } })).rejects.toMatchObject(forbidden);
    await expect(admin.ConsoleSetEndUserBudget({ token: viewer, change: { org: orgId, end_user: "u", limit_minor: 1, remove: false } })).rejects.toMatchObject(forbidden);

    // Billing sets the organization's budgets; the organization is the session's, whatever the request names.
    const org = await admin.ConsoleSetOrgBudgets({
      token: billing,
      change: { org: other.orgId, time_zone: "America/New_York", limit_minor: 2_000, window: "week", end_user_source: "body", end_user_limit_minor: 40 },
    });
    expect(org).toMatchObject({
      id: orgId,
      time_zone: "America/New_York",
      budget: { limit_minor: 2_000, window: "week" },
      end_user_source: "body",
      end_user_budget: { limit_minor: 40, window: "month" },
    });
    expect(await other.context()).toMatchObject({ org_time_zone: "UTC", org_budget: { limit_minor: 0 } });
    await expect(admin.ConsoleSetOrgBudgets({ token: billing, change: { org: "", window: "decade" } })).rejects.toMatchObject({ code: "invalid_request" });

    // An admin: a project, the key's cap, project and tags, an end user's own limit.
    const project = await admin.ConsoleCreateProject({ token: adminToken, project: { org: other.orgId, name: "checkout", limit_minor: 500, window: "day" } });
    expect(project).toMatchObject({ org_id: orgId, name: "checkout" });
    expect(await admin.ConsoleSetKeyBudget({ token: adminToken, change: { key_id: keyId, limit_minor: 50, project: "checkout", tags: { tags: ["console"] } } })).toMatchObject({
      budget: { limit_minor: 50, window: "month" },
      project_id: project.id,
      tags: ["console"],
    });
    expect(await admin.ConsoleSetProjectBudget({ token: billing, change: { org: "", project: project.id, window: "week" } })).toMatchObject({ budget: { limit_minor: 500, window: "week" }, keys: 1 });
    await admin.ConsoleSetEndUserBudget({ token: adminToken, change: { org: "", end_user: "carol", limit_minor: 10, remove: false } });
    expect(await context()).toMatchObject({
      org_time_zone: "America/New_York",
      org_budget: { limit_minor: 2_000, window: "week" },
      key_budget: { limit_minor: 50, window: "month" },
      project_budget: { limit_minor: 500, window: "week" },
      key_tags: ["console"],
      end_user_source: "body",
      end_user_overrides: { carol: 10 },
    });
    await admin.ConsoleSetEndUserBudget({ token: adminToken, change: { org: "", end_user: "carol", limit_minor: 0, remove: true } });

    // Another organization's key and project are as unknown as missing ones.
    await expect(admin.ConsoleSetKeyBudget({ token: adminToken, change: { key_id: other.keyId, limit_minor: 1 } })).rejects.toMatchObject({ code: "not_found" });
    await expect(admin.ConsoleSetKeyBudget({ token: adminToken, change: { key_id: keyId, project: "elsewhere" } })).rejects.toMatchObject({ code: "not_found" });
    await expect(admin.ConsoleSetProjectBudget({ token: adminToken, change: { org: "", project: "elsewhere", limit_minor: 1 } })).rejects.toMatchObject({ code: "not_found" });
    expect(await other.context()).toMatchObject({ key_budget: { limit_minor: 0 } });

    const read = await admin.ConsoleGetBudgets({ token: viewer });
    expect(read.projects.map((p) => p.name)).toEqual(["checkout"]);
    expect(read.end_users).toEqual([]);
    const audit = (await sql<{ action: string; actor_email: string; target: string }>`SELECT action, actor_email, target FROM console_audit WHERE org_id = ${orgId} ORDER BY id`.execute(cp.db)).rows;
    expect(audit).toEqual([
      { action: "budgets_set", actor_email: "billing@example.com", target: orgId },
      { action: "project_created", actor_email: "admin@example.com", target: project.id },
      { action: "key_budget_set", actor_email: "admin@example.com", target: keyId },
      { action: "project_budget_set", actor_email: "billing@example.com", target: project.id },
      { action: "end_user_budget_set", actor_email: "admin@example.com", target: "carol" },
      { action: "end_user_budget_removed", actor_email: "admin@example.com", target: "carol" },
    ]);
    // An operator is no organization's member.
    const ops = await session("", "ops-budgets@example.com", "operator");
    await expect(admin.ConsoleGetBudgets({ token: ops })).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("gatewayctl", () => {
  const cli = (...args: string[]) =>
    run(process.execPath, [join(import.meta.dirname, "../dist/cli/gatewayctl.js"), ...args], {
      env: { ...process.env, GATEWAY_ADMIN_TOKEN: TOKEN, GATEWAY_CONTROL_PLANE_ADDR: `127.0.0.1:${cp.grpcPort}` },
    }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  const json = async (...args: string[]) => {
    const r = await cli(...args, "--json");
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };

  it("sets every budget through the real control-plane: the organization's, end users', projects' and keys' (each command line in src/cli/commands/budget-commands.test.ts)", async () => {
    const { orgId, keyId, context } = await orgWithKey("cli-budgets");
    expect((await cli("org", "set-budget", "cli-budgets", "--monthly-minor", "5000")).stdout).toBe(`${orgId}: monthly budget 5000\n`);
    expect((await cli("org", "set-budget", "--org", "cli-budgets", "--limit-minor", "7000", "--window", "none", "--time-zone", "Europe/Paris")).stdout).toBe(
      `${orgId}: budget 7000 minor units in all (never resets), time zone Europe/Paris\n`,
    );
    expect((await cli("org", "set-end-user-budgets", "cli-budgets", "--source", "header", "--limit-minor", "100", "--window", "week")).stdout).toBe(
      `${orgId}: end users read from the header; default 100 minor units per week; 0 with their own limit\n`,
    );
    expect(await json("end-user", "set-budget", "--org", "cli-budgets", "--user", "dana", "--limit-minor", "250")).toEqual({ org_id: orgId, end_user: "dana", limit_minor: 250, removed: false });
    const project = await json("project", "create", "--org", "cli-budgets", "--name", "agents", "--limit-minor", "900", "--window", "day");
    expect(project).toMatchObject({ id: expect.stringMatching(/^proj_/), name: "agents", budget: { limit_minor: 900, window: "day" } });
    expect((await cli("key", "set-budget", keyId, "--limit-minor", "30", "--window", "week", "--project", "agents", "--tags", "team:ml, env.dev")).stdout).toBe(
      `${keyId}: 30 minor units per week; project ${project.id}; tags team:ml,env.dev\n`,
    );
    expect(await context()).toMatchObject({
      org_time_zone: "Europe/Paris",
      org_budget: { limit_minor: 7_000, window: "none" },
      monthly_budget_minor: 0,
      end_user_source: "header",
      end_user_budget: { limit_minor: 100, window: "week" },
      end_user_overrides: { dana: 250 },
      key_budget: { limit_minor: 30, window: "week" },
      project_id: project.id,
      project_budget: { limit_minor: 900, window: "day" },
      key_tags: ["team:ml", "env.dev"],
    });
  });

  it("exits 2 on a bad command line and 1 with the server's message when it refuses", async () => {
    const [usage, refused] = await Promise.all([cli("org", "set-budget", "cli-budgets", "--window", "year"), cli("org", "set-budget", "cli-budgets", "--time-zone", "Atlantis/Capital", "--json")]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--window must be day, week, month or none, got 'year'");
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toEqual({ code: "invalid_request", message: "time_zone must be an IANA time zone such as Europe/Paris, or UTC, got 'Atlantis/Capital'" });
  });
});
