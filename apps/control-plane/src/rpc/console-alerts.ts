import type { AlertSettings, ConsoleListAlertsRequest, ConsoleSessionRequest, ConsoleSetAlertSettingsRequest, ListAlertsResponse } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { getAlertSettings, setAlertSettings } from "./alert-settings.js";
import { audited } from "./console-audit.js";
import { adminOf, memberWithRole, orgMemberOf } from "./console-session.js";
import { listAlerts } from "./list-alerts.js";

/** The session member's organization's alert settings (any role; never the secret). */
export function consoleGetAlertSettings(ctx: ControlContext) {
  const get = getAlertSettings(ctx);
  return async (req: ConsoleSessionRequest): Promise<AlertSettings> => get({ org: (await orgMemberOf(ctx, req.token)).org_id });
}

/**
 * Changes the organization's alerts, audited: the thresholds by admins and the billing role; the
 * webhook (its URL, its secret) by admins only, since it says where the organization's spend is sent.
 * The audit keeps the webhook's host, never its URL (which may carry a token) or the secret.
 */
export function consoleSetAlertSettings(ctx: ControlContext) {
  return async (req: ConsoleSetAlertSettingsRequest): Promise<AlertSettings> => {
    const change = req.change ?? { org: "", budget_pcts: null, balance_minor: null, rotate_secret: false, drop_previous_secret: false };
    const webhook = change.webhook_url !== undefined || change.rotate_secret || change.drop_previous_secret;
    const member = webhook
      ? await adminOf(ctx, req.token, "change the organization's alert webhook")
      : await memberWithRole(ctx, req.token, ["admin", "billing"], "change the organization's alert thresholds");
    return audited(
      ctx,
      member,
      (tx) => setAlertSettings(tx)({ ...change, org: member.org_id }),
      (s) => ({
        org_id: member.org_id,
        action: "alerts_set",
        target: s.org_id,
        detail: {
          budget_pcts: s.budget_pcts,
          balance_minor: s.balance_minor,
          webhook_host: s.webhook_url ? new URL(s.webhook_url).host : null,
          secret_made: s.webhook_secret !== "",
          previous_secret_signs_until_ms: s.previous_secret_until_ms,
        },
      }),
    );
  };
}

/** The organization's alerts with their deliveries (any role). */
export function consoleListAlerts(ctx: ControlContext) {
  const list = listAlerts(ctx);
  return async (req: ConsoleListAlertsRequest): Promise<ListAlertsResponse> => list({ org: (await orgMemberOf(ctx, req.token)).org_id, cursor: req.cursor, limit: req.limit });
}
