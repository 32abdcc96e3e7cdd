import { GatewayError } from "@gateway/errors";
import type { CreateProjectRequest, ListProjectsRequest, ListProjectsResponse, Project, SetProjectBudgetRequest } from "@gateway/proto";
import type { Updateable } from "kysely";
import type { ControlContext } from "../context.js";
import type { ProjectsTable } from "../db/schema.js";
import { budgetWindow, limitMinor, projectName } from "../budgets/rules.js";
import { findProject, toProjects } from "../budgets/projects.js";
import { newId } from "../keys/secret.js";
import { findOrg } from "../orgs.js";

/** A new project of the organization (no keys yet: nothing to announce); its name is unique in the organization. */
export function createProject(ctx: ControlContext) {
  return async (req: CreateProjectRequest): Promise<Project> => {
    const name = projectName(req.name);
    const budget_minor = limitMinor(req.limit_minor, "limit_minor");
    const budget_window = budgetWindow(req.window || "month", "window");
    const org = await findOrg(ctx.db, req.org);
    const row = await ctx.db
      .insertInto("projects")
      .values({ id: newId("proj"), org_id: org.id, name, budget_minor, budget_window })
      .onConflict((oc) => oc.columns(["org_id", "name"]).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new GatewayError("already_exists", `organization '${org.name}' already has a project named '${name}'`);
    return (await toProjects(ctx.db, [row]))[0]!;
  };
}

export function listProjects(ctx: ControlContext) {
  return async (req: ListProjectsRequest): Promise<ListProjectsResponse> => {
    const org = await findOrg(ctx.db, req.org);
    return { projects: await toProjects(ctx.db, await ctx.db.selectFrom("projects").selectAll().where("org_id", "=", org.id).orderBy("name").execute()) };
  };
}

/** A project's cap and window; a field left out keeps its value. Announced as an org change: every key of the project is evicted with the organization's. */
export function setProjectBudget(ctx: ControlContext) {
  return async (req: SetProjectBudgetRequest): Promise<Project> => {
    const set: Updateable<ProjectsTable> = {};
    if (req.limit_minor !== undefined) set.budget_minor = limitMinor(req.limit_minor, "limit_minor");
    if (req.window !== undefined) set.budget_window = budgetWindow(req.window, "window");
    if (Object.keys(set).length === 0) throw new GatewayError("invalid_request", "nothing to change: give limit_minor or window");
    const org = await findOrg(ctx.db, req.org);
    const project = await findProject(ctx.db, org.id, req.project);
    const row = await ctx.db.updateTable("projects").set(set).where("id", "=", project.id).returningAll().executeTakeFirstOrThrow();
    ctx.publishChange({ kind: "org", id: org.id });
    return (await toProjects(ctx.db, [row]))[0]!;
  };
}
