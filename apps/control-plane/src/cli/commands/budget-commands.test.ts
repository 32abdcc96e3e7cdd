import { describe, expect, it } from "vitest";
import type { Clients } from "../clients.js";
import type { Command, Context } from "../command.js";
import { UsageError } from "../command.js";
import { commands } from "./index.js";

/**
 * The budget commands' command lines, run in-process against a recording admin client: what each
 * sends, and the mistakes refused before anything is sent (exit code 2). What the control-plane does
 * with them is in tests/budgets.test.ts.
 */
const budget = { limit_minor: 7_000, window: "day" };
const ANSWERS: Record<string, unknown> = {
  SetOrgBudget: { id: "org_1", monthly_budget_minor: 5, budget: { limit_minor: 5, window: "month" }, time_zone: "UTC" },
  SetOrgBudgets: { id: "org_1", budget, time_zone: "Europe/Paris", end_user_source: "header", end_user_budget: { limit_minor: 0, window: "month" }, end_user_overrides: 2 },
  SetEndUserBudget: { org_id: "org_1", end_user: "dana", limit_minor: 0 },
  ListEndUserBudgets: { end_users: [] },
  CreateProject: { id: "proj_1", org_id: "org_1", name: "agents", budget: { limit_minor: 0, window: "month" }, keys: 0 },
  SetProjectBudget: { id: "proj_1", org_id: "org_1", name: "agents", budget: { limit_minor: 10, window: "none" }, keys: 3 },
  ListProjects: { projects: [] },
  SetKeyBudget: { id: "key_1", budget: { limit_minor: 0, window: "month" }, project_id: "", tags: [] },
  ListBudgets: {
    windows: [
      { scope: "key:key_1", window_start_ms: Date.UTC(2026, 11, 1, 23), window_end_ms: Date.UTC(2026, 11, 2, 23), limit_minor: 800, spent_minor: 120, held_minor: 30 },
      { scope: "org", window_start_ms: 0, window_end_ms: 0, limit_minor: 5_000, spent_minor: 700, held_minor: 0 },
    ],
  },
};

async function ctl(words: string, args: string[], flags: Record<string, string | boolean>) {
  const command = commands.find((c) => c.words.join(" ") === words) as Command;
  const sent: [string, unknown][] = [];
  const printed: string[] = [];
  const client = new Proxy(
    {},
    {
      get:
        (_t, method: string) =>
        async (req: unknown): Promise<unknown> => {
          sent.push([method, req]);
          return ANSWERS[method];
        },
    },
  );
  const ctx: Context = {
    // As parseArgs leaves them: a string flag's text, a boolean flag's true.
    flags: flags as Context["flags"],
    env: {},
    clients: () => ({ admin: client, ledger: client }) as unknown as Clients,
    out: { json: false, print: (_obj, human) => void printed.push(human) },
  };
  await command.run(args, ctx);
  return { sent, printed: printed.join("\n") };
}

const usage = (words: string, args: string[], flags: Record<string, string | boolean>) =>
  ctl(words, args, flags).then(
    () => expect.unreachable("accepted"),
    (err: unknown) => {
      expect(err).toBeInstanceOf(UsageError);
      return (err as Error).message;
    },
  );

describe("org set-budget", () => {
  it("keeps --monthly-minor (the monthly cap, through the RPC of the release before windows) and takes a cap, a window and a time zone", async () => {
    expect(await ctl("org set-budget", ["acme"], { "monthly-minor": "5" })).toEqual({ sent: [["SetOrgBudget", { org: "acme", monthly_budget_minor: 5 }]], printed: "org_1: monthly budget 5" });
    expect(await ctl("org set-budget", [], { org: "acme", "limit-minor": "7000", window: "day", "time-zone": "Europe/Paris" })).toEqual({
      sent: [["SetOrgBudgets", { org: "acme", time_zone: "Europe/Paris", limit_minor: 7_000, window: "day" }]],
      printed: "org_1: budget 7000 minor units per day, time zone Europe/Paris",
    });
    // What is left out is not sent (the control-plane keeps it); --monthly-minor with a time zone is one change.
    expect((await ctl("org set-budget", ["acme"], { "time-zone": "UTC" })).sent).toEqual([["SetOrgBudgets", { org: "acme", time_zone: "UTC", limit_minor: undefined, window: undefined }]]);
    expect((await ctl("org set-budget", ["acme"], { "monthly-minor": "9", "time-zone": "UTC" })).sent).toEqual([["SetOrgBudgets", { org: "acme", time_zone: "UTC", limit_minor: 9, window: "month" }]]);
  });

  it("refuses a command line that says nothing, or says it twice", async () => {
    expect(await usage("org set-budget", ["acme"], {})).toBe("org set-budget needs --monthly-minor N, or at least one of --limit-minor, --window and --time-zone");
    expect(await usage("org set-budget", ["acme"], { "monthly-minor": "5", window: "day" })).toBe("--monthly-minor N is --limit-minor N --window month: give one or the other");
    expect(await usage("org set-budget", ["acme"], { window: "year" })).toBe("--window must be day, week, month or none, got 'year'");
    expect(await usage("org set-budget", ["acme"], { "limit-minor": "1.5" })).toBe("--limit-minor must be a non-negative integer, got '1.5'");
    expect(await usage("org set-budget", ["acme"], { org: "acme", window: "day" })).toBe("org set-budget takes exactly one ORG (or --org ORG)");
    expect(await usage("org set-budget", [], { window: "day" })).toBe("missing ORG");
  });
});

describe("end users", () => {
  it("set where they are read and their default; off is no end-user budgets", async () => {
    expect(await ctl("org set-end-user-budgets", ["acme"], { source: "header", "limit-minor": "0", window: "week" })).toEqual({
      sent: [["SetOrgBudgets", { org: "acme", end_user_source: "header", end_user_limit_minor: 0, end_user_window: "week" }]],
      printed: "org_1: end users read from the header; default no cap; 2 with their own limit",
    });
    expect((await ctl("org set-end-user-budgets", [], { org: "acme", source: "off" })).sent[0]![1]).toMatchObject({ end_user_source: "" });
    expect(await usage("org set-end-user-budgets", ["acme"], { source: "cookie" })).toBe("--source must be body, header or off, got 'cookie'");
    expect(await usage("org set-end-user-budgets", ["acme"], {})).toBe("org set-end-user-budgets needs at least one of --source, --limit-minor and --window");
  });

  it("give a named end user a limit of its own, or take it away", async () => {
    expect((await ctl("end-user set-budget", [], { org: "acme", user: "dana", "limit-minor": "250" })).sent).toEqual([
      ["SetEndUserBudget", { org: "acme", end_user: "dana", limit_minor: 250, remove: false }],
    ]);
    expect(await ctl("end-user set-budget", [], { org: "acme", user: "dana", remove: true })).toEqual({
      sent: [["SetEndUserBudget", { org: "acme", end_user: "dana", limit_minor: 0, remove: true }]],
      printed: "org_1: end user dana has the default limit again",
    });
    expect(await usage("end-user set-budget", [], { org: "acme", user: "dana" })).toBe("end-user set-budget takes --limit-minor N or --remove (one of them)");
    expect(await usage("end-user set-budget", [], { org: "acme", user: "dana", "limit-minor": "1", remove: true })).toBe("end-user set-budget takes --limit-minor N or --remove (one of them)");
    expect(await usage("end-user set-budget", [], { org: "acme", "limit-minor": "1" })).toBe("missing --user");
    expect((await ctl("end-user list", [], { org: "acme" })).printed).toBe("(no end user has a limit of its own)");
  });
});

describe("projects and keys", () => {
  it("create projects and set their budgets", async () => {
    expect((await ctl("project create", [], { org: "acme", name: "agents" })).sent).toEqual([["CreateProject", { org: "acme", name: "agents", limit_minor: 0, window: "" }]]);
    expect(await ctl("project set-budget", [], { org: "acme", project: "agents", "limit-minor": "10", window: "none" })).toEqual({
      sent: [["SetProjectBudget", { org: "acme", project: "agents", limit_minor: 10, window: "none" }]],
      printed: "proj_1 (agents): 10 minor units in all (never resets)",
    });
    expect(await usage("project create", [], { org: "acme" })).toBe("missing --name");
    expect(await usage("project create", [], { org: "acme", name: "x", window: "quarter" })).toBe("--window must be day, week, month or none, got 'quarter'");
    expect(await usage("project set-budget", [], { org: "acme", project: "agents" })).toBe("project set-budget needs --limit-minor, --window or both");
  });

  it("set a key's cap, project and tags; an empty --project or --tags takes them away", async () => {
    expect((await ctl("key set-budget", ["key_1"], { "limit-minor": "30", project: "agents", tags: "team:ml, env.dev" })).sent).toEqual([
      ["SetKeyBudget", { key_id: "key_1", limit_minor: 30, window: undefined, project: "agents", tags: { tags: ["team:ml", "env.dev"] } }],
    ]);
    expect(await ctl("key set-budget", [], { key: "key_1", project: "", tags: "" })).toEqual({
      sent: [["SetKeyBudget", { key_id: "key_1", limit_minor: undefined, window: undefined, project: "", tags: { tags: [] } }]],
      printed: "key_1: no cap; project none; tags none",
    });
    expect(await usage("key set-budget", ["key_1"], {})).toBe("key set-budget needs at least one of --limit-minor, --window, --project and --tags");
    expect(await usage("key set-budget", ["key_1", "key_2"], { window: "day" })).toBe("key set-budget takes exactly one KEY_ID (or --key KEY_ID)");
  });
});

describe("budgets show", () => {
  it("prints each budget's current window at the ledger", async () => {
    expect(await ctl("budgets show", ["org_1"], {})).toEqual({
      sent: [["ListBudgets", { org_id: "org_1", scope: "" }]],
      printed: "key:key_1\t2026-12-01T23:00:00.000Z to 2026-12-02T23:00:00.000Z\tcap 800\tspent 120\theld 30\norg\tno window (never resets)\tcap 5000\tspent 700\theld 0",
    });
    expect(await usage("budgets show", [], {})).toBe("budgets show takes exactly one ORG");
  });
});
