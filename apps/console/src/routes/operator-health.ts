import { MINUTE_MS } from "../params.js";
import type { Routes } from "../middleware.js";

/** Provider health over the last `minutes` (default 60, at most a day), from every replica's attempts in the ledger: operators only. */
export function operatorHealthRoutes({ ctx, read }: Routes): void {
  const breakerThreshold = ctx.config.breakerThreshold ?? 5;
  const breakerCooldownMs = ctx.config.breakerCooldownMs ?? 30_000;
  read(
    "/api/operator/health",
    async (req) => {
      const minutes = Math.min(Math.max(Number.parseInt(String(req.query.minutes ?? "60"), 10) || 60, 1), 1440);
      const now = Date.now();
      const { deployments } = await ctx.ledger.ProviderHealth({ from_ms: now - minutes * MINUTE_MS, to_ms: now + 1 });
      return {
        minutes,
        data: deployments.map((d) => ({
          ...d,
          error_rate: d.attempts ? d.failures / d.attempts : 0,
          // The data-planes' rule: this many failures in a row open a deployment's breaker for the cooldown.
          breaker_open: d.failure_streak >= breakerThreshold && now - d.last_failure_ms < breakerCooldownMs,
        })),
      };
    },
    "operator",
  );
}
