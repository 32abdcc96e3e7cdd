import { sql, type Kysely } from "@gateway/db";
import type { PriceSheet, ProviderTokenCosts } from "@gateway/pricing";
import type { CostReportRequest, CostReportResponse, ProviderClassCost } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import type { LedgerDb } from "../db/schema.js";
import { exactDecimal } from "../billing/amounts.js";
import { windowOf } from "./window.js";

/** Longest window one report covers: a quarter (the scan is over every organization's records). */
const MAX_WINDOW_MS = 93 * 86_400_000;

/**
 * What upstream attempts cost in [from_ms, to_ms) (requests received in it), for the operator
 * (docs/billing.md, "Attempts and who pays"): per UTC day and provider, the attempts, the unserved
 * ones, the provider's charge and the part nobody was billed for; per organization, what was billed,
 * what the providers charge for it, what was absorbed and the margin. A record kept as its one
 * billed attempt, and records from before attempts were kept, count as one attempt by the caller;
 * a record without a provider (a request an input guardrail denied) made no attempt.
 * Read organization by organization on usage_records (org_id, created_at), so no index of its own
 * costs every insert; both statements in one read-only snapshot.
 */
export function costReport(ctx: LedgerContext) {
  return async (req: CostReportRequest): Promise<CostReportResponse> => {
    const [from, to] = windowOf(req, { ms: MAX_WINDOW_MS, message: "the window may span at most 93 days" });
    return ctx.db
      .transaction()
      .setIsolationLevel("repeatable read")
      .setAccessMode("read only")
      .execute(async (trx) => {
        const providers = await sql<{ day: string; provider: string; attempts: number; unserved: number; provider_cost_minor: number; absorbed_minor: number }>`
          SELECT to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, a.provider,
            count(*)::bigint AS attempts,
            count(*) FILTER (WHERE a.outcome IN ('failed', 'timeout'))::bigint AS unserved,
            coalesce(sum(a.provider_cost_minor), 0)::bigint AS provider_cost_minor,
            coalesce(sum(a.provider_cost_minor) FILTER (WHERE a.payer = 'operator'), 0)::bigint AS absorbed_minor
          FROM accounts o
          CROSS JOIN LATERAL (
            SELECT * FROM usage_records u WHERE u.org_id = o.org_id AND u.created_at >= ${from} AND u.created_at < ${to}
          ) r
          CROSS JOIN LATERAL (
            SELECT x.provider, x.outcome, x.provider_cost_minor, x.payer
            FROM jsonb_to_recordset(r.attempts) AS x(provider text, outcome text, provider_cost_minor bigint, payer text)
            UNION ALL
            SELECT r.provider, coalesce(r.attempt_outcome, 'served'), coalesce(r.provider_cost_minor, r.cost_minor), 'caller'
            WHERE r.attempts = '[]' AND r.provider <> ''
          ) a
          GROUP BY 1, 2 ORDER BY 1, 2`.execute(trx);
        const orgs = await sql<{ org_id: string; requests: number; billed_minor: number; provider_cost_minor: number; absorbed_minor: number }>`
          SELECT o.org_id, r.requests, r.billed_minor, r.provider_cost_minor, r.absorbed_minor
          FROM accounts o
          CROSS JOIN LATERAL (
            SELECT count(*)::bigint AS requests, coalesce(sum(cost_minor), 0)::bigint AS billed_minor,
              coalesce(sum(coalesce(provider_cost_minor, cost_minor)), 0)::bigint AS provider_cost_minor,
              coalesce(sum(absorbed_minor), 0)::bigint AS absorbed_minor
            FROM usage_records u WHERE u.org_id = o.org_id AND u.created_at >= ${from} AND u.created_at < ${to} AND u.error_code IS NULL
          ) r
          WHERE r.requests > 0
          ORDER BY o.org_id`.execute(trx);
        return {
          providers: providers.rows,
          orgs: orgs.rows.map((o) => ({ ...o, margin_minor: o.billed_minor - o.provider_cost_minor })),
          classes: req.by_token_class ? await classCosts(trx, from, to) : [],
        };
      });
  };
}

/** The token classes of a report line, each with the cost price field it is charged at. */
const CLASSES = [
  ["input_tokens", "input"],
  ["cached_input_tokens", "cached_input"],
  ["cache_creation_input_tokens", "cache_write"],
  ["output_tokens", "output"],
  ["reasoning_tokens", "reasoning"],
] as const satisfies readonly (readonly [string, keyof ProviderTokenCosts])[];

type ClassGroup = {
  day: string;
  provider: string;
  upstream_model: string;
  model: string;
  version: string | null;
  tier: string;
  attempts: string;
} & Record<(typeof CLASSES)[number][0], string>;

/**
 * Per UTC day × provider × upstream model × token class (× service tier), what the attempts in the
 * window used and what they cost the operator (docs/billing.md, "Reconciliation"): every attempt's
 * tokens split as the provider split them (an attempt kept in the record's columns has the record's
 * split; one from before the split, input and output only), each class priced at the deployment's
 * cost price for it in the price sheet of the catalog version the record names. The exact amount
 * (tokens × price ÷ 1,000,000, a decimal) is what a provider's invoice line should show before its own
 * rounding. Records whose version has no stored sheet are listed at price 0, amount "" (unpriced).
 */
async function classCosts(trx: Kysely<LedgerDb>, from: Date, to: Date): Promise<ProviderClassCost[]> {
  const groups = await sql<ClassGroup>`
    SELECT to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, a.provider, a.upstream_model, r.model, r.catalog_version AS version,
      coalesce(a.tier, '') AS tier, count(*) AS attempts,
      sum(a.input - c.cached - c.written) AS input_tokens, sum(c.cached) AS cached_input_tokens, sum(c.written) AS cache_creation_input_tokens,
      sum(a.output - c.reasoning) AS output_tokens, sum(c.reasoning) AS reasoning_tokens
    FROM accounts o
    CROSS JOIN LATERAL (SELECT * FROM usage_records u WHERE u.org_id = o.org_id AND u.created_at >= ${from} AND u.created_at < ${to}) r
    CROSS JOIN LATERAL (
      SELECT x.provider, x.upstream_model, x.service_tier AS tier, coalesce(x.input_tokens, 0) AS input, coalesce(x.cached_input_tokens, 0) AS cached,
        coalesce(x.cache_creation_input_tokens, 0) AS written, coalesce(x.output_tokens, 0) AS output, coalesce(x.reasoning_tokens, 0) AS reasoning
      FROM jsonb_to_recordset(r.attempts) AS x(provider text, upstream_model text, service_tier text, input_tokens bigint, cached_input_tokens bigint,
        cache_creation_input_tokens bigint, output_tokens bigint, reasoning_tokens bigint)
      UNION ALL
      SELECT r.provider, r.upstream_model, r.service_tier, r.input_tokens, r.cached_input_tokens, r.cache_creation_input_tokens, r.output_tokens, r.reasoning_tokens
      WHERE r.attempts = '[]' AND r.provider <> ''
    ) a
    -- Each part capped by what is left of its total, as the line items are (credits/cost.ts tokenLineItems).
    CROSS JOIN LATERAL (SELECT LEAST(a.cached, a.input) AS cached, LEAST(a.written, a.input - LEAST(a.cached, a.input)) AS written, LEAST(a.reasoning, a.output) AS reasoning) c
    GROUP BY 1, 2, 3, 4, 5, 6`.execute(trx);
  const versions = [...new Set(groups.rows.map((g) => g.version).filter((v): v is string => v !== null))];
  const sheets = new Map<string, PriceSheet>();
  if (versions.length > 0) {
    const r = await sql<{ version: string; sheet: PriceSheet }>`SELECT version, sheet FROM catalog_prices WHERE version = ANY(${versions}::bigint[])`.execute(trx);
    for (const row of r.rows) sheets.set(String(row.version), row.sheet);
  }
  const lines = new Map<string, ProviderClassCost & { numerator: bigint; priced: boolean }>();
  for (const g of groups.rows) {
    const costs = g.version === null ? undefined : sheets.get(String(g.version))?.models[g.model]?.provider_costs?.[`${g.provider}/${g.upstream_model}`];
    for (const [item, field] of CLASSES) {
      const tokens = BigInt(g[item] ?? 0);
      if (tokens === 0n) continue;
      const price = costs?.[field] ?? 0;
      const key = [g.day, g.provider, g.upstream_model, item, g.tier, costs ? price : "unpriced"].join("\u0000");
      let line = lines.get(key);
      if (!line) {
        line = {
          day: g.day,
          provider: g.provider,
          upstream_model: g.upstream_model,
          token_class: item,
          service_tier: g.tier,
          tokens: 0,
          unit_price_minor: price,
          provider_cost_exact_minor: "",
          attempts: 0,
          numerator: 0n,
          priced: costs !== undefined,
        };
        lines.set(key, line);
      }
      line.tokens += Number(tokens);
      line.attempts += Number(g.attempts);
      line.numerator += tokens * BigInt(price);
    }
  }
  return [...lines.values()]
    .map(({ numerator, priced, ...l }) => ({ ...l, provider_cost_exact_minor: priced ? exactDecimal(numerator, 1_000_000n) : "" }))
    .sort(
      (a, b) =>
        a.day.localeCompare(b.day) ||
        a.provider.localeCompare(b.provider) ||
        a.upstream_model.localeCompare(b.upstream_model) ||
        a.token_class.localeCompare(b.token_class) ||
        a.service_tier.localeCompare(b.service_tier),
    );
}
