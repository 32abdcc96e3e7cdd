import { GatewayError } from "@gateway/errors";
import type { Org } from "@gateway/proto";
import { creditsIfGiven, endUserOf, endUserSourceIfGiven, projectNameOf, timeZoneIfGiven, windowIfGiven } from "../budget-fields.js";
import { bodyOf, creditsOf } from "../params.js";
import { signed, type Routes } from "../middleware.js";

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** A change that sets nothing is refused here, in the page's words (the control-plane's own message names its RPC's fields). */
function someGiven(values: unknown[], what: string): void {
  if (values.every((v) => v === undefined)) throw new GatewayError("invalid_request", `Nothing to change: give ${what}.`);
}

/** The organization's budget settings as the API shows them. */
const orgBudgets = (o: Org) => ({
  time_zone: o.time_zone,
  budget: o.budget,
  end_user_source: o.end_user_source,
  end_user_budget: o.end_user_budget,
  end_user_overrides: o.end_user_overrides,
});

/**
 * Budgets (docs/console.md, "API"): the monthly cap (set in credits) and this month's spend (the form of the release
 * before windows), and every budget setting: the organization's time zone, cap and window, its end
 * users' source and default cap, named end users' own limits, projects, and each key's cap, project
 * and tags, with each budget's current window at the ledger. Any member reads them; admins and the
 * billing role change them (the control-plane enforces the role and records each change in the
 * audit log).
 */
export function budgetRoutes({ ctx, read, write }: Routes): void {
  const { control, ledger } = ctx;
  read("/api/budget", async (_req, res) => {
    const [org, credits] = await Promise.all([control.ConsoleGetOrg({ token: signed(res).token }), ledger.GetCredits({ org_id: signed(res).member.org_id })]);
    return { monthly_budget_minor: org.monthly_budget_minor, month_spent_minor: credits.month_spent_minor };
  });
  write("/api/budget", async (req, res) => {
    const minor = creditsOf(bodyOf(req), "monthly_budget", "The monthly budget", signed(res).money, { note: " (0 removes the cap)" });
    const org = await control.ConsoleSetBudget({ token: signed(res).token, monthly_budget_minor: minor });
    return { monthly_budget_minor: org.monthly_budget_minor };
  });

  read("/api/budgets", async (_req, res) => {
    // The settings (the control-plane, which checks the session) and each budget's current window: cap, spent, held (the ledger).
    const b = await control.ConsoleGetBudgets({ token: signed(res).token });
    const { windows } = await ledger.ListBudgets({ org_id: signed(res).member.org_id, scope: "" });
    return { ...orgBudgets(b.org!), projects: b.projects, end_users: b.end_users.map((e) => ({ end_user: e.end_user, limit_minor: e.limit_minor })), windows };
  });
  write("/api/budgets", async (req, res) => {
    const body = bodyOf(req);
    const money = signed(res).money;
    const change = {
      org: "",
      time_zone: timeZoneIfGiven(body.time_zone),
      limit_minor: creditsIfGiven(body, "limit", "The organization's cap", money),
      window: windowIfGiven(body.window, "The organization's window"),
      end_user_source: endUserSourceIfGiven(body.end_user_source),
      end_user_limit_minor: creditsIfGiven(body, "end_user_limit", "The end users' default cap", money),
      end_user_window: windowIfGiven(body.end_user_window, "The end users' window"),
    };
    someGiven(Object.values(change).slice(1), "the time zone, a cap, a window or where end users are read");
    return orgBudgets(await control.ConsoleSetOrgBudgets({ token: signed(res).token, change }));
  });
  write("/api/keys/:id/budget", async (req, res) => {
    const body = bodyOf(req);
    if (body.tags !== undefined && !isStrings(body.tags)) throw new GatewayError("invalid_request", "The key's tags must be a list of tags.");
    const change = {
      key_id: String(req.params.id),
      limit_minor: creditsIfGiven(body, "limit", "The key's cap", signed(res).money),
      window: windowIfGiven(body.window, "The key's window"),
      project: typeof body.project === "string" ? body.project : undefined,
      tags: isStrings(body.tags) ? { tags: body.tags } : undefined,
    };
    someGiven([change.limit_minor, change.window, change.project, change.tags], "a cap, a window, a project or tags");
    return { key: await control.ConsoleSetKeyBudget({ token: signed(res).token, change }) };
  });
  write("/api/projects", async (req, res) => {
    const body = bodyOf(req);
    const project = {
      org: "",
      name: projectNameOf(body.name),
      limit_minor: creditsIfGiven(body, "limit", "The project's cap", signed(res).money) ?? 0,
      window: windowIfGiven(body.window, "The project's window") ?? "",
    };
    return { project: await control.ConsoleCreateProject({ token: signed(res).token, project }) };
  });
  write("/api/projects/:id/budget", async (req, res) => {
    const body = bodyOf(req);
    const change = {
      org: "",
      project: String(req.params.id),
      limit_minor: creditsIfGiven(body, "limit", "The project's cap", signed(res).money),
      window: windowIfGiven(body.window, "The project's window"),
    };
    someGiven([change.limit_minor, change.window], "a cap or a window");
    return { project: await control.ConsoleSetProjectBudget({ token: signed(res).token, change }) };
  });
  write("/api/end-user-budgets", async (req, res) => {
    const body = bodyOf(req);
    const endUser = endUserOf(body.end_user);
    const limit = creditsOf(body, "limit", "The end user's cap", signed(res).money, { note: " (0: no cap for this end user)" });
    const e = await control.ConsoleSetEndUserBudget({ token: signed(res).token, change: { org: "", end_user: endUser, limit_minor: limit, remove: false } });
    return { end_user: e.end_user, limit_minor: e.limit_minor };
  });
  write("/api/end-user-budgets/remove", async (req, res) => {
    const e = await control.ConsoleSetEndUserBudget({ token: signed(res).token, change: { org: "", end_user: endUserOf(bodyOf(req).end_user), limit_minor: 0, remove: true } });
    return { end_user: e.end_user, removed: true };
  });
}
