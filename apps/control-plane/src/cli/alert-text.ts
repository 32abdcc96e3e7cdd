import type { Alert, AlertSettings } from "@gateway/proto";

/** One line of an organization's alert settings, as `alerts set` and `alerts show` print them. */
export function settingsLine(s: AlertSettings): string {
  const pcts = s.budget_pcts.length ? `at ${s.budget_pcts.join(", ")} % of each budget` : "none";
  const balance = s.balance_minor.length ? `at or below ${s.balance_minor.join(", ")} minor units` : "none";
  const previous = s.previous_secret_until_ms ? `, the previous one also signing until ${new Date(s.previous_secret_until_ms).toISOString()}` : "";
  const hook = s.webhook_url ? `${s.webhook_url} (secret ${s.webhook_secret_prefix}…${previous})` : "none";
  return `${s.org_id}: budget alerts ${pcts}; balance alerts ${balance}; webhook ${hook}`;
}

/** One alert as `alerts list` prints it: time, kind, scope, threshold, delivery state and attempts, what went wrong. */
export function alertLine(a: Alert): string {
  const threshold = a.kind === "budget" ? `${a.threshold_pct} % (${a.spent_minor} of ${a.limit_minor})` : `<= ${a.threshold_minor} (balance ${a.balance_minor})`;
  const delivery = a.delivery_state === "pending" && a.next_attempt_at_ms ? `pending, next ${new Date(a.next_attempt_at_ms).toISOString()}` : a.delivery_state;
  return [new Date(a.created_at_ms).toISOString(), a.id, a.kind, a.scope || "-", threshold, delivery, `${a.attempts} attempt(s)`, a.last_error].join("\t").trimEnd();
}
