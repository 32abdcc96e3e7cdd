/**
 * gatewayctl's commands, in the order of its help. A new command: a file in this directory, a row
 * here and its words and flags in lazy.ts (what gatewayctl reads at start; index.test.ts compares
 * them). Scripts rely on the grammar: keep words, flags, messages and output of existing commands.
 */
import type { Command } from "../command.js";
import { budgetsShow } from "./budgets-show.js";
import { catalogApply } from "./catalog-apply.js";
import { catalogShow } from "./catalog-show.js";
import { consoleLink } from "./console-link.js";
import { creditsShow } from "./credits-show.js";
import { creditsTopUp } from "./credits-top-up.js";
import { endUserList } from "./end-user-list.js";
import { endUserSetBudget } from "./end-user-set-budget.js";
import { creditsRefund } from "./credits-refund.js";
import { creditsCreditNote } from "./credits-credit-note.js";
import { creditsPromo } from "./credits-promo.js";
import { creditsLimit } from "./credits-limit.js";
import { creditsAdjustments } from "./credits-adjustments.js";
import { billingSet, billingShow } from "./billing-set.js";
import { usageFeed } from "./usage-feed.js";
import { usageStatement } from "./usage-statement.js";
import { metersPush } from "./meters-push.js";
import { guardrailsClear } from "./guardrails-clear.js";
import { guardrailsSet } from "./guardrails-set.js";
import { guardrailsShow } from "./guardrails-show.js";
import { holdsList } from "./holds-list.js";
import { journalTail } from "./journal-tail.js";
import { keyCreate } from "./key-create.js";
import { keyList } from "./key-list.js";
import { keyRevoke } from "./key-revoke.js";
import { keySetBudget } from "./key-set-budget.js";
import { ledgerCheck } from "./ledger-check.js";
import { ledgerReplay } from "./ledger-replay.js";
import { ledgerRepublish } from "./ledger-republish.js";
import { mcpApprove } from "./mcp-approve.js";
import { mcpEnable } from "./mcp-enable.js";
import { mcpPins } from "./mcp-pins.js";
import { modelsEnable } from "./models-enable.js";
import { orgCreate } from "./org-create.js";
import { orgList } from "./org-list.js";
import { orgSetBudget } from "./org-set-budget.js";
import { orgSetEndUserBudgets } from "./org-set-end-user-budgets.js";
import { orgSetOutputLimit } from "./org-set-output-limit.js";
import { orgTrial } from "./org-trial.js";
import { projectCreate } from "./project-create.js";
import { projectList } from "./project-list.js";
import { projectSetBudget } from "./project-set-budget.js";
import { trialPolicySet } from "./trial-policy-set.js";
import { usageCosts } from "./usage-costs.js";
import { usageExport } from "./usage-export.js";
import { usageSpend } from "./usage-spend.js";
import { alertsList } from "./alerts-list.js";
import { alertsSet } from "./alerts-set.js";
import { alertsShow } from "./alerts-show.js";

export const commands: readonly Command[] = [
  orgCreate,
  orgList,
  orgSetBudget,
  orgSetEndUserBudgets,
  orgSetOutputLimit,
  orgTrial,
  keyCreate,
  keyRevoke,
  keyList,
  keySetBudget,
  projectCreate,
  projectList,
  projectSetBudget,
  endUserSetBudget,
  endUserList,
  modelsEnable,
  mcpEnable,
  mcpPins,
  mcpApprove,
  creditsTopUp,
  creditsShow,
  creditsRefund,
  creditsCreditNote,
  creditsPromo,
  creditsLimit,
  creditsAdjustments,
  billingSet,
  billingShow,
  holdsList,
  budgetsShow,
  catalogApply,
  catalogShow,
  trialPolicySet,
  guardrailsSet,
  guardrailsShow,
  guardrailsClear,
  usageExport,
  usageCosts,
  usageSpend,
  usageFeed,
  usageStatement,
  metersPush,
  consoleLink,
  journalTail,
  ledgerCheck,
  ledgerReplay,
  ledgerRepublish,
  alertsSet,
  alertsShow,
  alertsList,
];
