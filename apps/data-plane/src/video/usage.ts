import { AttemptV1, MAX_RECORDED_ATTEMPTS, type AttemptOutcome, type UsageEventV1 } from "@gateway/events";
import type { VideoJob } from "@gateway/proto";
import type { BudgetHold } from "../credits/lease-manager.js";
import { z } from "zod";
import { column } from "./json.js";

/** Why the gateway stopped a job whose hold lapsed at the ledger and could not be made again. */
export const HOLD_LAPSED = "hold_lapsed";

/**
 * Who pays for a finished job's submit (docs/billing.md, "Attempts and who pays"), and what the
 * caller was answered, as the usage record's status. A provider bills what it generated: a
 * completed job is the caller's, at its cost; a job the gateway stopped (the caller's cancel, the
 * maximum age, a hold that lapsed) may have been billed by the provider up to its whole clip, which
 * the operator absorbs; a job the provider failed is billed by nobody.
 */
interface Outcome {
  outcome: AttemptOutcome;
  payer: AttemptV1["payer"];
  /** The submit at the catalog's price, minor units (the worst case when the operator absorbs it). */
  costMinor: number;
  /** What the provider may charge the operator, minor units. */
  providerCostMinor: number;
  estimated: boolean;
  status: number;
}

function outcomeOf(job: VideoJob): Outcome {
  const worst = { costMinor: job.max_cost_minor, providerCostMinor: job.max_cost_minor, estimated: true, payer: "operator" as const };
  if (job.status === "completed") return { outcome: "served", payer: "caller", costMinor: job.cost_minor, providerCostMinor: job.cost_minor, estimated: false, status: 200 };
  if (job.status === "cancelled") return { ...worst, outcome: "client_gone", status: 499 };
  if (job.error_code === "timeout") return { ...worst, outcome: "timeout", status: 504 };
  if (job.error_code === HOLD_LAPSED) return { ...worst, outcome: "client_gone", status: 402 };
  return { outcome: "failed", payer: "none", costMinor: 0, providerCostMinor: 0, estimated: false, status: 502 };
}

const BudgetHoldJson = z.object({
  lease_id: z.string().min(1).max(64),
  scope: z.string().min(1).max(300),
  limit_minor: z.number().int().positive(),
  window: z.string().max(16),
  time_zone: z.string().max(64),
  alert_pcts: z.array(z.number().int()).max(10).optional(),
});

/** The budgets a job is held under (VideoJob.budgets_json; none for a job recorded before budgets held video). */
export function budgetHoldsOf(job: VideoJob): BudgetHold[] {
  const parsed = z.array(BudgetHoldJson).max(8).safeParse(column<unknown>(job.budgets_json, []));
  return parsed.success ? parsed.data : [];
}

/** Every lease a job is held under: its credit's, then each budget's. */
export const leaseIdsOf = (job: VideoJob): string[] => [job.lease_id, ...budgetHoldsOf(job).map((h) => h.lease_id)];

const AttributionJson = z.object({ endUser: z.string().min(1).max(256).optional(), projectId: z.string().min(1).max(64).optional(), tags: z.array(z.string().min(1).max(64)).max(20).optional() });

/** The end user, project and tags the job's request was attributed to, as its usage event carries them. */
function attributionOf(job: VideoJob): Pick<UsageEventV1, "end_user" | "project_id" | "tags"> {
  const parsed = AttributionJson.safeParse(column<unknown>(job.attribution_json, {}));
  const a = parsed.success ? parsed.data : {};
  return { ...(a.endUser ? { end_user: a.endUser } : {}), ...(a.projectId ? { project_id: a.projectId } : {}), ...(a.tags?.length ? { tags: a.tags } : {}) };
}

function parseOutcomes(text: string): UsageEventV1["guardrails"] {
  const v = column<unknown>(text, []);
  return Array.isArray(v) ? (v as UsageEventV1["guardrails"]) : [];
}

/**
 * The usage event of a finished job, keyed by the job id (published once per finished job; a repeat
 * is a duplicate the ledger ignores). A completed job is billed its cost with one line item
 * `video_seconds`; a failed or cancelled one costs 0 and says what the provider may bill the
 * operator for its submit. Every submit the provider accepted and the gateway recorded thus has a
 * record (a submit that was not recorded has its own: pipeline/bill.ts `billFailure`).
 */
export function jobUsageEvent(job: VideoJob): UsageEventV1 {
  const done = job.status === "completed";
  const endedAt = job.completed_at_ms || Date.now();
  const o = outcomeOf(job);
  const budgets = budgetHoldsOf(job);
  return {
    version: 1,
    request_id: job.id,
    org_id: job.org_id,
    key_id: job.key_id,
    model: job.model,
    route: "video",
    provider: job.provider,
    upstream_model: job.upstream_model,
    lease_id: job.lease_id,
    ...(job.catalog_version ? { catalog_version: Number(job.catalog_version) } : {}),
    ...(budgets.length > 0 ? { budget_leases: budgets.map((b) => b.lease_id) } : {}),
    ...attributionOf(job),
    usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, estimated: false },
    input_price_minor_per_mtok: 0,
    output_price_minor_per_mtok: 0,
    cost_minor: done ? job.cost_minor : 0,
    line_items: done
      ? [{ item: "video_seconds", quantity: job.duration_s, unit_price_minor: job.price_minor_per_second, per: "second", attributes: { resolution: job.resolution, audio: String(job.audio) } }]
      : [],
    guardrails: parseOutcomes(job.guardrails_json),
    ...videoAttempts(job, o, Math.max(0, endedAt - job.created_at_ms)),
    stream: false,
    status: o.status,
    created_at_ms: endedAt,
    duration_ms: Math.max(0, endedAt - job.created_at_ms),
  };
}

/**
 * The attempts of a finished job's usage event: its submit's attempts as recorded at creation, the
 * last (the submit that started the job) ended as the job did (outcomeOf). A completed job whose
 * submit served at once is sent as served_attempt (usage.v1); a job recorded before attempts were
 * kept gets its one submit written out.
 */
function videoAttempts(job: VideoJob, o: Outcome, durationMs: number): Pick<UsageEventV1, "attempts" | "served_attempt"> {
  let recorded: AttemptV1[] = [];
  try {
    const parsed = z
      .array(AttemptV1)
      .max(MAX_RECORDED_ATTEMPTS)
      .safeParse(JSON.parse(job.attempts_json || "[]"));
    if (parsed.success) recorded = parsed.data;
  } catch {
    // Not JSON: the job still has its one submit.
  }
  if (recorded.length <= 1 && o.payer === "caller") return { attempts: [], served_attempt: { outcome: o.outcome, duration_ms: durationMs, provider_cost_minor: o.providerCostMinor } };
  if (recorded.length === 0) {
    recorded = [
      {
        attempt: 1,
        provider: job.provider,
        upstream_model: job.upstream_model,
        status: 200,
        outcome: "served",
        input_tokens: 0,
        output_tokens: 0,
        estimated: false,
        cost_minor: 0,
        provider_cost_minor: 0,
        payer: "caller",
        duration_ms: 0,
      },
    ];
  }
  const last = recorded[recorded.length - 1]!;
  Object.assign(last, { outcome: o.outcome, status: 200, estimated: o.estimated, cost_minor: o.costMinor, provider_cost_minor: o.providerCostMinor, payer: o.payer, duration_ms: durationMs });
  return { attempts: recorded };
}
