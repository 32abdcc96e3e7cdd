/**
 * The command table as gatewayctl reads it at start: each command's words and flags, and its module,
 * imported only when that command runs. Importing every command (and the gRPC, NATS, YAML and zod
 * code they use) cost ~300 ms of CPU before any command did anything; a command now loads what it
 * uses and nothing else. index.ts stays the table of record (the help's order and text):
 * index.test.ts fails when a row here differs from it.
 */
import type { Command, FlagSpec, FlagSpecs } from "../command.js";

export interface LazyCommand {
  readonly words: readonly [string, string];
  readonly flags: FlagSpecs;
  load(): Promise<Command>;
}

const S: FlagSpec = { type: "string" };
const B: FlagSpec = { type: "boolean" };
const FILE: FlagSpec = { type: "string", short: "f" };

export const lazyCommands: readonly LazyCommand[] = [
  { words: ["org", "create"], flags: { name: S }, load: async () => (await import("./org-create.js")).orgCreate },
  { words: ["org", "list"], flags: {}, load: async () => (await import("./org-list.js")).orgList },
  { words: ["org", "set-budget"], flags: { org: S, "monthly-minor": S, "limit-minor": S, window: S, "time-zone": S }, load: async () => (await import("./org-set-budget.js")).orgSetBudget },
  { words: ["org", "set-end-user-budgets"], flags: { org: S, source: S, "limit-minor": S, window: S }, load: async () => (await import("./org-set-end-user-budgets.js")).orgSetEndUserBudgets },
  { words: ["org", "set-output-limit"], flags: {}, load: async () => (await import("./org-set-output-limit.js")).orgSetOutputLimit },
  { words: ["org", "trial"], flags: {}, load: async () => (await import("./org-trial.js")).orgTrial },
  { words: ["key", "create"], flags: { org: S, routes: S, models: S, name: S, rpm: S, tpm: S, "mcp-tools": S }, load: async () => (await import("./key-create.js")).keyCreate },
  { words: ["key", "revoke"], flags: {}, load: async () => (await import("./key-revoke.js")).keyRevoke },
  { words: ["key", "list"], flags: { org: S }, load: async () => (await import("./key-list.js")).keyList },
  { words: ["key", "set-budget"], flags: { key: S, "limit-minor": S, window: S, project: S, tags: S }, load: async () => (await import("./key-set-budget.js")).keySetBudget },
  { words: ["project", "create"], flags: { org: S, name: S, "limit-minor": S, window: S }, load: async () => (await import("./project-create.js")).projectCreate },
  { words: ["project", "list"], flags: { org: S }, load: async () => (await import("./project-list.js")).projectList },
  { words: ["project", "set-budget"], flags: { org: S, project: S, "limit-minor": S, window: S }, load: async () => (await import("./project-set-budget.js")).projectSetBudget },
  { words: ["end-user", "set-budget"], flags: { org: S, user: S, "limit-minor": S, remove: B }, load: async () => (await import("./end-user-set-budget.js")).endUserSetBudget },
  { words: ["end-user", "list"], flags: { org: S }, load: async () => (await import("./end-user-list.js")).endUserList },
  { words: ["models", "enable"], flags: {}, load: async () => (await import("./models-enable.js")).modelsEnable },
  { words: ["mcp", "enable"], flags: {}, load: async () => (await import("./mcp-enable.js")).mcpEnable },
  { words: ["mcp", "pins"], flags: {}, load: async () => (await import("./mcp-pins.js")).mcpPins },
  { words: ["mcp", "approve"], flags: {}, load: async () => (await import("./mcp-approve.js")).mcpApprove },
  {
    words: ["credits", "top-up"],
    flags: { "amount-minor": S, "idempotency-key": S, "paid-minor": S, currency: S, "payment-ref": S, "invoice-ref": S },
    load: async () => (await import("./credits-top-up.js")).creditsTopUp,
  },
  { words: ["credits", "show"], flags: {}, load: async () => (await import("./credits-show.js")).creditsShow },
  { words: ["credits", "refund"], flags: { request: S, "amount-minor": S, reason: S, "idempotency-key": S, actor: S }, load: async () => (await import("./credits-refund.js")).creditsRefund },
  {
    words: ["credits", "credit-note"],
    flags: { "amount-minor": S, reason: S, "idempotency-key": S, month: S, reference: S, actor: S },
    load: async () => (await import("./credits-credit-note.js")).creditsCreditNote,
  },
  { words: ["credits", "promo"], flags: { "amount-minor": S, reason: S, "idempotency-key": S, expires: S, actor: S }, load: async () => (await import("./credits-promo.js")).creditsPromo },
  { words: ["credits", "limit"], flags: { "limit-minor": S, reason: S, "idempotency-key": S, actor: S }, load: async () => (await import("./credits-limit.js")).creditsLimit },
  { words: ["credits", "adjustments"], flags: { count: S }, load: async () => (await import("./credits-adjustments.js")).creditsAdjustments },
  { words: ["billing", "set"], flags: { defaults: B, "external-id": S, currency: S, "price-per-credit": S, "time-zone": S }, load: async () => (await import("./billing-set.js")).billingSet },
  { words: ["billing", "show"], flags: { defaults: B }, load: async () => (await import("./billing-set.js")).billingShow },
  { words: ["holds", "list"], flags: {}, load: async () => (await import("./holds-list.js")).holdsList },
  { words: ["budgets", "show"], flags: {}, load: async () => (await import("./budgets-show.js")).budgetsShow },
  { words: ["catalog", "apply"], flags: { file: FILE }, load: async () => (await import("./catalog-apply.js")).catalogApply },
  { words: ["catalog", "show"], flags: {}, load: async () => (await import("./catalog-show.js")).catalogShow },
  { words: ["trial-policy", "set"], flags: { file: FILE }, load: async () => (await import("./trial-policy-set.js")).trialPolicySet },
  { words: ["guardrails", "set"], flags: { file: FILE }, load: async () => (await import("./guardrails-set.js")).guardrailsSet },
  { words: ["guardrails", "show"], flags: {}, load: async () => (await import("./guardrails-show.js")).guardrailsShow },
  { words: ["guardrails", "clear"], flags: {}, load: async () => (await import("./guardrails-clear.js")).guardrailsClear },
  { words: ["usage", "export"], flags: { org: S, from: S, to: S, format: S, "timeout-s": S }, load: async () => (await import("./usage-export.js")).usageExport },
  { words: ["usage", "costs"], flags: { from: S, to: S, "by-class": B }, load: async () => (await import("./usage-costs.js")).usageCosts },
  { words: ["usage", "spend"], flags: { org: S, from: S, to: S, by: S, group: S }, load: async () => (await import("./usage-spend.js")).usageSpend },
  { words: ["usage", "feed"], flags: { after: S, count: S, follow: B, "timeout-s": S }, load: async () => (await import("./usage-feed.js")).usageFeed },
  { words: ["usage", "statement"], flags: { org: S, month: S, format: S, "time-zone": S }, load: async () => (await import("./usage-statement.js")).usageStatement },
  {
    words: ["meters", "push"],
    flags: { destination: S, state: S, url: S, event: S, source: S, follow: B, "resume-after": S, count: S },
    load: async () => (await import("./meters-push.js")).metersPush,
  },
  { words: ["console", "link"], flags: { org: S, email: S, role: S, operator: B }, load: async () => (await import("./console-link.js")).consoleLink },
  { words: ["journal", "tail"], flags: { "from-start": B, since: S, count: S, nats: S }, load: async () => (await import("./journal-tail.js")).journalTail },
  { words: ["ledger", "check"], flags: {}, load: async () => (await import("./ledger-check.js")).ledgerCheck },
  { words: ["ledger", "replay"], flags: { since: S }, load: async () => (await import("./ledger-replay.js")).ledgerReplay },
  { words: ["ledger", "republish"], flags: { since: S }, load: async () => (await import("./ledger-republish.js")).ledgerRepublish },
  { words: ["alerts", "set"], flags: { "budget-pct": S, "balance-minor": S, webhook: S, "rotate-secret": B, "drop-previous": B }, load: async () => (await import("./alerts-set.js")).alertsSet },
  { words: ["alerts", "show"], flags: {}, load: async () => (await import("./alerts-show.js")).alertsShow },
  { words: ["alerts", "list"], flags: { org: S, limit: S }, load: async () => (await import("./alerts-list.js")).alertsList },
];
