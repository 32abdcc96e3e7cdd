import { GatewayError } from "@gateway/errors";
import type {
  ApiKey,
  ConsoleBudgets,
  ConsoleCreateProjectRequest,
  ConsoleSessionRequest,
  ConsoleSetEndUserBudgetRequest,
  ConsoleSetKeyBudgetRequest,
  ConsoleSetOrgBudgetsRequest,
  ConsoleSetProjectBudgetRequest,
  EndUserBudget,
  Org,
  Project,
} from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { findOrg, toOrg } from "../orgs.js";
import { toProjects } from "../budgets/projects.js";
import { audited } from "./console-audit.js";
import { memberWithRole, orgMemberOf } from "./console-session.js";
import { endUserBudgetsOf, setEndUserBudget } from "./end-user-budgets.js";
import { createProject, setProjectBudget } from "./projects.js";
import { setKeyBudget } from "./set-key-budget.js";
import { setOrgBudgets } from "./set-org-budgets.js";

/** Who may change budgets in the console: as with the monthly budget, admins and the billing role. */
const BUDGET_ROLES = ["admin", "billing"];
const changer = (ctx: ControlContext, token: string) => memberWithRole(ctx, token, BUDGET_ROLES, "change the organization's budgets");
const missing = (what: string) => new GatewayError("invalid_request", `${what} is required`);

/** The organization's budgets, its projects and its end users' own limits: any role reads them. */
export function consoleGetBudgets(ctx: ControlContext) {
  return async (req: ConsoleSessionRequest): Promise<ConsoleBudgets> => {
    const live = await orgMemberOf(ctx, req.token);
    const [org, projects, endUsers] = await Promise.all([
      findOrg(ctx.db, live.org_id).then((o) => toOrg(ctx.db, o)),
      ctx.db.selectFrom("projects").selectAll().where("org_id", "=", live.org_id).orderBy("name").execute(),
      endUserBudgetsOf(ctx.db, live.org_id),
    ]);
    return { org, projects: await toProjects(ctx.db, projects), end_users: endUsers };
  };
}

/** The organization's time zone, cap and window, and its end users' source and default cap; audited with the settings after the change. */
export function consoleSetOrgBudgets(ctx: ControlContext) {
  return async (req: ConsoleSetOrgBudgetsRequest): Promise<Org> => {
    const member = await changer(ctx, req.token);
    if (!req.change) throw missing("change");
    const change = req.change;
    return audited(
      ctx,
      member,
      (tx) => setOrgBudgets(tx)({ ...change, org: member.org_id }),
      (o) => ({
        org_id: member.org_id,
        action: "budgets_set",
        target: o.id,
        detail: { time_zone: o.time_zone, budget: o.budget, end_user_source: o.end_user_source, end_user_budget: o.end_user_budget },
      }),
    );
  };
}

/** A key's cap, project and tags; another organization's key is not found. */
export function consoleSetKeyBudget(ctx: ControlContext) {
  return async (req: ConsoleSetKeyBudgetRequest): Promise<ApiKey> => {
    const member = await changer(ctx, req.token);
    if (!req.change) throw missing("change");
    const change = req.change;
    const key = await ctx.db.selectFrom("api_keys").select("org_id").where("id", "=", change.key_id).executeTakeFirst();
    if (!key || key.org_id !== member.org_id) throw new GatewayError("not_found", `key '${change.key_id}' does not exist`);
    return audited(
      ctx,
      member,
      (tx) => setKeyBudget(tx)(change),
      (k) => ({ org_id: member.org_id, action: "key_budget_set", target: k.id, detail: { name: k.name, budget: k.budget, project_id: k.project_id, tags: k.tags } }),
    );
  };
}

export function consoleCreateProject(ctx: ControlContext) {
  return async (req: ConsoleCreateProjectRequest): Promise<Project> => {
    const member = await changer(ctx, req.token);
    if (!req.project) throw missing("project");
    const project = req.project;
    return audited(
      ctx,
      member,
      (tx) => createProject(tx)({ ...project, org: member.org_id }),
      (p) => ({ org_id: member.org_id, action: "project_created", target: p.id, detail: { name: p.name, budget: p.budget } }),
    );
  };
}

export function consoleSetProjectBudget(ctx: ControlContext) {
  return async (req: ConsoleSetProjectBudgetRequest): Promise<Project> => {
    const member = await changer(ctx, req.token);
    if (!req.change) throw missing("change");
    const change = req.change;
    return audited(
      ctx,
      member,
      (tx) => setProjectBudget(tx)({ ...change, org: member.org_id }),
      (p) => ({ org_id: member.org_id, action: "project_budget_set", target: p.id, detail: { name: p.name, budget: p.budget } }),
    );
  };
}

/** An end user's own limit, or back to the default (remove). */
export function consoleSetEndUserBudget(ctx: ControlContext) {
  return async (req: ConsoleSetEndUserBudgetRequest): Promise<EndUserBudget> => {
    const member = await changer(ctx, req.token);
    if (!req.change) throw missing("change");
    const change = req.change;
    return audited(
      ctx,
      member,
      (tx) => setEndUserBudget(tx)({ ...change, org: member.org_id }),
      (e) =>
        change.remove
          ? { org_id: member.org_id, action: "end_user_budget_removed", target: e.end_user }
          : { org_id: member.org_id, action: "end_user_budget_set", target: e.end_user, detail: { limit_minor: e.limit_minor } },
    );
  };
}
