import type { Migration } from "@gateway/db";
import { init } from "./20261122000000-init.js";
import { monthlySpend } from "./20261122010000-monthly-spend.js";
import { lineItems } from "./20261122020000-line-items.js";
import { topUpAnnounced } from "./20261122030000-top-up-announced.js";
import { journalPublished } from "./20261122040000-journal-published.js";
import { guardrailOutcomes } from "./20261123000000-guardrails.js";
import { batchedApply } from "./20261124000000-batched-apply.js";
import { applyUsageFunction } from "./20261125000000-apply-usage-function.js";
import { cacheReasoningTokens } from "./20261126000000-cache-reasoning-tokens.js";
import { usageAttempts } from "./20261127000000-usage-attempts.js";
import { usageRollups } from "./20261201000000-usage-rollups.js";
import { usageCreatedBrin } from "./20261204000000-usage-created-brin.js";
import { dropCreatedBrin } from "./20261205000000-drop-created-brin.js";
import { usageBasisColumn } from "./20261206000000-usage-basis.js";
import { signedUsage } from "./20261210000000-signed-usage.js";
import { topUpMakers } from "./20261211000000-top-up-makers.js";
import { usageCatalogVersion } from "./20261213000000-usage-catalog-version.js";
import { catalogPrices } from "./20261214000000-catalog-prices.js";
import { usagePartitions } from "./20261215000000-usage-partitions.js";
import { rollupsInApply } from "./20261216000000-rollups-in-apply.js";
import { usageRoutePin } from "./20261217000000-usage-route-pin.js";
import { budgets } from "./20261218000000-budgets.js";
import { alerts } from "./20261219000000-alerts.js";
import { adjustments } from "./20261221000000-adjustments.js";
import { feed } from "./20261221010000-feed.js";
import { attemptSplit } from "./20261221020000-attempt-split.js";
import { rollupErrorsLatency } from "./20261222000000-rollup-errors-latency.js";
import { refusalRecords } from "./20261223000000-refusal-records.js";
import { refusalRollups } from "./20261229000000-refusal-rollups.js";

/** Every migration, by name; names sort in the order they apply. */
export const migrations: Record<string, Migration> = {
  "20261122000000-init": init,
  "20261122010000-monthly-spend": monthlySpend,
  "20261122020000-line-items": lineItems,
  "20261122030000-top-up-announced": topUpAnnounced,
  "20261122040000-journal-published": journalPublished,
  "20261123000000-guardrails": guardrailOutcomes,
  "20261124000000-batched-apply": batchedApply,
  "20261125000000-apply-usage-function": applyUsageFunction,
  "20261126000000-cache-reasoning-tokens": cacheReasoningTokens,
  "20261127000000-usage-attempts": usageAttempts,
  "20261201000000-usage-rollups": usageRollups,
  "20261204000000-usage-created-brin": usageCreatedBrin,
  "20261205000000-drop-created-brin": dropCreatedBrin,
  "20261206000000-usage-basis": usageBasisColumn,
  "20261210000000-signed-usage": signedUsage,
  "20261211000000-top-up-makers": topUpMakers,
  "20261213000000-usage-catalog-version": usageCatalogVersion,
  "20261214000000-catalog-prices": catalogPrices,
  "20261215000000-usage-partitions": usagePartitions,
  "20261216000000-rollups-in-apply": rollupsInApply,
  "20261217000000-usage-route-pin": usageRoutePin,
  "20261218000000-budgets": budgets,
  "20261219000000-alerts": alerts,
  "20261221000000-adjustments": adjustments,
  "20261221010000-feed": feed,
  "20261221020000-attempt-split": attemptSplit,
  "20261222000000-rollup-errors-latency": rollupErrorsLatency,
  "20261223000000-refusal-records": refusalRecords,
  "20261229000000-refusal-rollups": refusalRollups,
};
