import type { Migration } from "@gateway/db";
import { init } from "./20261122000000-init.js";
import { imagePrices } from "./20261122010000-image-prices.js";
import { providerAuthHeader } from "./20261122020000-provider-auth-header.js";
import { video } from "./20261123000000-video.js";
import { guardrails } from "./20261123010000-guardrails.js";
import { modelLimits } from "./20261124000000-model-limits.js";
import { providerConnections } from "./20261125000000-provider-connections.js";
import { cacheReasoningPrices } from "./20261126000000-cache-reasoning-prices.js";
import { webSearchPrice } from "./20261127000000-web-search-price.js";
import { geminiProviderKind } from "./20261128000000-gemini-provider-kind.js";
import { deploymentCostPrice } from "./20261129000000-deployment-cost-price.js";
import { videoIdempotency } from "./20261130000000-video-idempotency.js";
import { longContextPrices } from "./20261201000000-long-context-prices.js";
import { audioPrices } from "./20261202000000-audio-prices.js";
import { consoleMembers } from "./20261203000000-console-members.js";
import { consoleOperatorsAudit } from "./20261204000000-console-operators-audit.js";
import { mcpServers } from "./20261205000000-mcp-servers.js";
import { mcpToolPins } from "./20261205010000-mcp-tool-pins.js";
import { keyMcpTools } from "./20261205020000-key-mcp-tools.js";
import { consoleAuditOnce } from "./20261206000000-console-audit-once.js";
import { consoleOidcSubject } from "./20261207000000-console-oidc-subject.js";
import { reasoningModels } from "./20261208000000-reasoning-models.js";
import { mediaBounds } from "./20261209000000-media-bounds.js";
import { anthropicBetas } from "./20261212000000-anthropic-betas.js";
import { videoCatalogVersion } from "./20261214000000-video-catalog-version.js";
import { mcpServerSessions } from "./20261216010000-mcp-server-sessions.js";
import { mcpPinsNewTools } from "./20261218000000-mcp-pins-new-tools.js";
import { videoClaimTokens } from "./20261220000000-video-claim-tokens.js";
import { orgOutputLimit } from "./20261222000000-org-output-limit.js";
import { budgets } from "./20261224000000-budgets.js";
import { alerts } from "./20261225000000-alerts.js";
import { consoleMoneyFormat } from "./20261226000000-console-money-format.js";
import { deploymentClassCosts } from "./20261227000000-deployment-class-costs.js";
import { videoBudgets } from "./20261228000000-video-budgets.js";

/** Every migration, by name; names sort in the order they apply. */
export const migrations: Record<string, Migration> = {
  "20261122000000-init": init,
  "20261122010000-image-prices": imagePrices,
  "20261122020000-provider-auth-header": providerAuthHeader,
  "20261123000000-video": video,
  "20261123010000-guardrails": guardrails,
  "20261124000000-model-limits": modelLimits,
  "20261125000000-provider-connections": providerConnections,
  "20261126000000-cache-reasoning-prices": cacheReasoningPrices,
  "20261127000000-web-search-price": webSearchPrice,
  "20261128000000-gemini-provider-kind": geminiProviderKind,
  "20261129000000-deployment-cost-price": deploymentCostPrice,
  "20261130000000-video-idempotency": videoIdempotency,
  "20261201000000-long-context-prices": longContextPrices,
  "20261202000000-audio-prices": audioPrices,
  "20261203000000-console-members": consoleMembers,
  "20261204000000-console-operators-audit": consoleOperatorsAudit,
  "20261205000000-mcp-servers": mcpServers,
  "20261205010000-mcp-tool-pins": mcpToolPins,
  "20261205020000-key-mcp-tools": keyMcpTools,
  "20261206000000-console-audit-once": consoleAuditOnce,
  "20261207000000-console-oidc-subject": consoleOidcSubject,
  "20261208000000-reasoning-models": reasoningModels,
  "20261209000000-media-bounds": mediaBounds,
  "20261212000000-anthropic-betas": anthropicBetas,
  "20261214000000-video-catalog-version": videoCatalogVersion,
  "20261216010000-mcp-server-sessions": mcpServerSessions,
  "20261218000000-mcp-pins-new-tools": mcpPinsNewTools,
  "20261220000000-video-claim-tokens": videoClaimTokens,
  "20261222000000-org-output-limit": orgOutputLimit,
  "20261224000000-budgets": budgets,
  "20261225000000-alerts": alerts,
  "20261226000000-console-money-format": consoleMoneyFormat,
  "20261227000000-deployment-class-costs": deploymentClassCosts,
  "20261228000000-video-budgets": videoBudgets,
};
