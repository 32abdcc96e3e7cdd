import { GatewayError } from "@gateway/errors";
import type { Org } from "@gateway/proto";
import { bodyOf, creditsOf, text } from "../params.js";
import { signed, type Routes } from "../middleware.js";

/**
 * A body field that may be left out (undefined: the control-plane keeps the value), or must have the
 * right type; the control-plane checks the value itself and names what it takes.
 */
function optional<T>(body: Record<string, unknown>, field: string, is: (v: unknown) => v is T, what: string): T | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (!is(v)) throw new GatewayError("invalid_request", `${field} must be ${what}.`);
  return v;
}
const isNumber = (v: unknown): v is number => typeof v === "number";
const isString = (v: unknown): v is string => typeof v === "string";
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const int = (body: Record<string, unknown>, field: string) => optional(body, field, isNumber, "an integer of minor credit units");
const str = (body: Record<string, unknown>, field: string) => optional(body, field, isString, "a string");

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
    const change = {
      org: "",
      time_zone: str(body, "time_zone"),
      limit_minor: int(body, "limit_minor"),
      window: str(body, "window"),
      end_user_source: str(body, "end_user_source"),
      end_user_limit_minor: int(body, "end_user_limit_minor"),
      end_user_window: str(body, "end_user_window"),
    };
    return orgBudgets(await control.ConsoleSetOrgBudgets({ token: signed(res).token, change }));
  });
  write("/api/keys/:id/budget", async (req, res) => {
    const body = bodyOf(req);
    const tags = optional(body, "tags", isStrings, "a list of strings");
    const change = { key_id: String(req.params.id), limit_minor: int(body, "limit_minor"), window: str(body, "window"), project: str(body, "project"), tags: tags && { tags } };
    return { key: await control.ConsoleSetKeyBudget({ token: signed(res).token, change }) };
  });
  write("/api/projects", async (req, res) => {
    const body = bodyOf(req);
    const project = { org: "", name: text(body.name), limit_minor: int(body, "limit_minor") ?? 0, window: str(body, "window") ?? "" };
    return { project: await control.ConsoleCreateProject({ token: signed(res).token, project }) };
  });
  write("/api/projects/:id/budget", async (req, res) => {
    const body = bodyOf(req);
    const change = { org: "", project: String(req.params.id), limit_minor: int(body, "limit_minor"), window: str(body, "window") };
    return { project: await control.ConsoleSetProjectBudget({ token: signed(res).token, change }) };
  });
  write("/api/end-user-budgets", async (req, res) => {
    const body = bodyOf(req);
    const limit = int(body, "limit_minor");
    if (limit === undefined) throw new GatewayError("invalid_request", "limit_minor is required (0: no cap for this end user).");
    const change = { org: "", end_user: text(body.end_user), limit_minor: limit, remove: false };
    const e = await control.ConsoleSetEndUserBudget({ token: signed(res).token, change });
    return { end_user: e.end_user, limit_minor: e.limit_minor };
  });
  write("/api/end-user-budgets/remove", async (req, res) => {
    const e = await control.ConsoleSetEndUserBudget({ token: signed(res).token, change: { org: "", end_user: text(bodyOf(req).end_user), limit_minor: 0, remove: true } });
    return { end_user: e.end_user, removed: true };
  });
}
