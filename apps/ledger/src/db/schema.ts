import type { ColumnType, Generated, Selectable } from "kysely";

/** Amounts are minor credit units (bigint, read back as number). */
export interface AccountsTable {
  org_id: string;
  balance_minor: number;
  held_minor: number;
  spent_minor: number;
  topped_up_minor: number;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  /** The balances at or below which the organization is alerted, highest first; the lowest announced since the balance was last above it (null: none). */
  balance_alerts_minor: ColumnType<(number | string)[], (number | string)[] | undefined, (number | string)[]>;
  balance_alerted_minor: ColumnType<number | null, number | null | undefined, number | null>;
  /** Of balance_minor: promotional credit, drawn before paid credit (docs/billing.md, "Adjustments"). */
  promo_minor: ColumnType<number, number | undefined, number>;
  /** Lifetime promotional credit granted, and removed by expiry. */
  promo_granted_minor: ColumnType<number, number | undefined, number>;
  promo_expired_minor: ColumnType<number, number | undefined, number>;
  /** Lifetime refunds and credit notes. balance = topped_up + adjusted + promo_granted − promo_expired − spent. */
  adjusted_minor: ColumnType<number, number | undefined, number>;
  /** How far the balance may go below zero (postpaid); leases grant from balance + limit − held. */
  credit_limit_minor: ColumnType<number, number | undefined, number>;
}

/** A refund, credit note, promotional grant or expiry, or credit limit set (docs/billing.md, "Adjustments"). */
export interface AdjustmentsTable {
  id: string;
  org_id: string;
  kind: AdjustmentKind;
  /** Credited (refund, credit note, grant), removed (expiry), or the limit set (credit_limit). */
  amount_minor: number;
  request_id: string | null;
  grant_id: string | null;
  /** YYYY-MM the adjustment belongs to. */
  period: string;
  reason: ColumnType<string, string | undefined, string>;
  reference: ColumnType<string, string | undefined, string>;
  made_by: string;
  expires_at: Date | null;
  expired_minor: ColumnType<number, number | undefined, number>;
  settled: ColumnType<boolean, boolean | undefined, boolean>;
  idempotency_key: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** Its number in the feed (a trigger draws it). */
  feed_seq: ColumnType<number, never, never>;
}

export const ADJUSTMENT_KINDS = ["refund", "credit_note", "promo_grant", "promo_expiry", "credit_limit"] as const;
export type AdjustmentKind = (typeof ADJUSTMENT_KINDS)[number];

/** An organization's commercial metadata ('' for every organization's defaults). */
export interface OrgBillingTable {
  org_id: string;
  external_customer_id: string | null;
  currency: string | null;
  price_per_credit_micros: number | null;
  time_zone: string | null;
  updated_by: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** The feed's visibility watermark (one row). */
export interface FeedStateTable {
  id: number;
  visible_through: number;
  advanced_at: Date;
}

/** A threshold crossed (docs/billing.md, "Alerts"): the outbox of `ledger.v1.alert`. */
export interface AlertsTable {
  id: string;
  org_id: string;
  kind: "budget" | "balance";
  scope: string | null;
  window_start: Date | null;
  window_end: Date | null;
  threshold_pct: number | null;
  limit_minor: number | null;
  spent_minor: number | null;
  threshold_minor: number | null;
  balance_minor: number | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  announced_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface LeasesTable {
  id: string;
  org_id: string;
  holder: string;
  granted_minor: number;
  remaining_minor: number;
  applied_minor: number;
  status: "open" | "released" | "expired";
  expires_at: Date;
  created_at: ColumnType<Date, Date | undefined, never>;
  released_at: Date | null;
  /**
   * A closed lease keeps its remaining hold until the usage consumer has applied every event
   * published before this instant (null while open).
   */
  settle_after: Date | null;
  /** "" for a lease of credit; a budget's scope ("org", "key:…", "project:…", "user:…") for a budget lease. */
  scope: ColumnType<string, string | undefined, string>;
  /** A budget lease's window (its start, and its end: null for a window that never ends); null for credit. */
  window_start: ColumnType<Date | null, Date | null | undefined, Date | null>;
  window_end: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** One budget over one window (docs/billing.md, "Budgets"): its spend and what open leases hold of it. */
export interface BudgetWindowsTable {
  org_id: string;
  scope: string;
  window_start: Date;
  window_end: Date | null;
  /** The cap the last lease of the window was asked under, minor units. */
  limit_minor: number;
  spent_minor: ColumnType<number, number | undefined, number>;
  held_minor: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  /** Percentages of the cap whose crossing is announced, and the highest announced in this window (0: none). */
  alert_pcts: ColumnType<number[], number[] | undefined, number[]>;
  alerted_pct: ColumnType<number, number | undefined, number>;
}

export interface UsageRecordsTable {
  request_id: string;
  org_id: string;
  key_id: string;
  model: string;
  route: string;
  provider: string;
  upstream_model: string;
  lease_id: string;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  /** Of input_tokens: written to the provider's prompt cache. */
  cache_creation_input_tokens: ColumnType<number, number | undefined, number>;
  /** Of output_tokens: reasoning tokens. */
  reasoning_tokens: ColumnType<number, number | undefined, number>;
  estimated: boolean;
  cost_minor: number;
  input_price_minor_per_mtok: number;
  output_price_minor_per_mtok: number;
  stream: boolean;
  status: number;
  duration_ms: number;
  line_items: ColumnType<unknown[], string | undefined, string>;
  /** Guardrail outcomes: [{plugin, name?, outcome}]. */
  guardrails: ColumnType<unknown[], string | undefined, string>;
  created_at: Date;
  recorded_at: ColumnType<Date, Date | undefined, never>;
  /** The journal posting (batch) that carried this record's cost; null for records before batching. */
  journal_txn_id: string | null;
  /** Every upstream attempt (AttemptV1[]); [] for one attempt billed as the record says (attempt_outcome set) and for records before attempts were kept. */
  attempts: ColumnType<unknown[], string | undefined, string>;
  /** One attempt billed as the record says: its outcome (served, client_gone, cut) and duration; null otherwise. */
  attempt_outcome: ColumnType<string | null, string | null | undefined, string | null>;
  attempt_ms: ColumnType<number | null, number | null | undefined, number | null>;
  /** What the provider charges the operator for the attempts; null for records before: their cost_minor. */
  provider_cost_minor: ColumnType<number | null, number | undefined, number>;
  /** Of provider_cost_minor: what nobody was billed for (attempts paid by the operator). */
  absorbed_minor: ColumnType<number, number | undefined, number>;
  /** How the figures were obtained (reported, estimated, drained, bounded); null when the event did not say: read it with usageBasis. */
  basis: ColumnType<string | null, string | null | undefined, string | null>;
  /** The catalog version whose prices were applied; NULL for records of data-planes before it. */
  catalog_version: ColumnType<number | null, number | null | undefined, number | null>;
  /** Whether the turn landed on its session's pinned deployment ("hit", "new", "moved"); NULL without a pin. */
  route_pin: ColumnType<string | null, string | null | undefined, string | null>;
  /** The request's end user, the key's project and the tags of the key and the request; NULL when none. */
  end_user: ColumnType<string | null, string | null | undefined, string | null>;
  project_id: ColumnType<string | null, string | null | undefined, string | null>;
  tags: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  /** The budget leases that held the request (docs/billing.md, "Budgets"). */
  budget_leases: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  /** Its number in the feed; null for records applied before the feed. */
  feed_seq: ColumnType<number | null, never, never>;
  /** The provider's service tier of the served attempt; null when it said none. */
  service_tier: ColumnType<string | null, string | null | undefined, string | null>;
  /** A refusal record's (a request refused before routing): the error code and message the caller got; NULL on every other record. */
  error_code: ColumnType<string | null, string | null | undefined, string | null>;
  error_message: ColumnType<string | null, string | null | undefined, string | null>;
  /** A refusal record's: whether the data-plane had resolved its model (its rollups name the model, else UNRESOLVED_MODEL); NULL on every other record and on refusals before it. */
  model_resolved: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
}

export interface TopUpsTable {
  id: string;
  org_id: string;
  amount_minor: number;
  idempotency_key: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** When the top-up was announced on JetStream (outbox); null until then. */
  announced_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Who: `admin` (the admin token, gatewayctl) or `operator:<email>` (a console grant). */
  made_by: ColumnType<string, string | undefined, never>;
  /** The console grant it was made with, once. */
  grant_id: ColumnType<string | null, string | null | undefined, never>;
  /** What the customer paid (the currency's minor units), in which currency, and the payment's and invoice's references. */
  paid_amount_minor: ColumnType<number | null, number | null | undefined, never>;
  paid_currency: ColumnType<string | null, string | null | undefined, never>;
  payment_reference: ColumnType<string | null, string | null | undefined, never>;
  invoice_reference: ColumnType<string | null, string | null | undefined, never>;
  /** Its number in the feed (a trigger draws it). */
  feed_seq: ColumnType<number, never, never>;
}

export interface JournalEntriesTable {
  id: Generated<number>;
  txn_id: string;
  kind: "usage" | "top_up" | "refund" | "credit_note" | "promo_grant" | "promo_expiry";
  account: string;
  amount_minor: number;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** When the entry's transaction was published on JetStream (outbox); null until then. */
  published_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface MonthlySpendTable {
  org_id: string;
  /** First day of the calendar month (UTC). */
  month: string;
  spent_minor: number;
}

/** A usage event that can never be applied: kept for the billing team, never silently dropped. */
export interface DeadLettersTable {
  id: Generated<number>;
  payload_sha256: string;
  subject: string;
  stream_seq: number;
  request_id: string | null;
  org_id: string | null;
  /** invalid: failed validation; rejected: Postgres refused it for a reason retrying cannot fix. */
  reason: "invalid" | "rejected";
  error: string;
  /** The message as received (bytes; usually JSON). */
  payload: Buffer;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface LedgerDb {
  adjustments: AdjustmentsTable;
  feed_state: FeedStateTable;
  org_billing: OrgBillingTable;
  alerts: AlertsTable;
  budget_windows: BudgetWindowsTable;
  dead_letters: DeadLettersTable;
  monthly_spend: MonthlySpendTable;
  accounts: AccountsTable;
  leases: LeasesTable;
  usage_records: UsageRecordsTable;
  top_ups: TopUpsTable;
  journal_entries: JournalEntriesTable;
}

export type Account = Selectable<AccountsTable>;
export type LeaseRow = Selectable<LeasesTable>;
export type UsageRow = Selectable<UsageRecordsTable>;
export type TopUpRow = Selectable<TopUpsTable>;
export type AdjustmentRow = Selectable<AdjustmentsTable>;
export type OrgBillingRow = Selectable<OrgBillingTable>;
