import { inTransaction, sql } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import type { AlertSettings, GetAlertSettingsRequest, SetAlertSettingsRequest } from "@gateway/proto";
import { newWebhookSecret, secretDisplayPrefix } from "../alerts/secrets.js";
import { balanceAmounts, budgetPcts } from "../alerts/thresholds.js";
import type { ControlContext } from "../context.js";
import type { OrgAlertSettingsTable } from "../db/schema.js";
import type { Selectable, Updateable } from "kysely";
import { findOrg } from "../orgs.js";

type Row = Selectable<OrgAlertSettingsTable>;

export function toAlertSettings(orgId: string, row: Row | undefined, secret = ""): AlertSettings {
  return {
    org_id: orgId,
    budget_pcts: row?.budget_pcts ?? [],
    balance_minor: (row?.balance_minor ?? []).map(Number),
    webhook_url: row?.webhook_url ?? "",
    webhook_secret: secret,
    webhook_secret_prefix: row?.webhook_secret_prefix ?? "",
    secret_created_at_ms: row?.secret_created_at?.getTime() ?? 0,
    updated_at_ms: row?.updated_at.getTime() ?? 0,
    previous_secret_until_ms: row?.previous_secret_sealed && row.previous_secret_until && row.previous_secret_until.getTime() > Date.now() ? row.previous_secret_until.getTime() : 0,
  };
}

/** How long the secret a rotation replaced still signs beside the new one: a receiver's time to move over, ms. */
export const PREVIOUS_SECRET_SIGNS_MS = 24 * 3_600_000;

/**
 * Sets an organization's alert thresholds and webhook (docs/billing.md, "Alerts"); what the request
 * leaves out keeps its value. The first webhook URL, or rotate_secret, makes a new signing secret,
 * answered this once and stored only sealed; a rotated-out secret signs beside the new one for a day
 * (drop_previous_secret ends that at once). A change event evicts the organization's keys at the
 * data-planes, so their next leases state the new thresholds to the ledger.
 */
export function setAlertSettings(ctx: ControlContext) {
  return async (req: SetAlertSettingsRequest): Promise<AlertSettings> => {
    const org = await findOrg(ctx.db, req.org);
    const set: Updateable<OrgAlertSettingsTable> = {};
    if (req.budget_pcts) set.budget_pcts = budgetPcts(req.budget_pcts.values);
    if (req.balance_minor) set.balance_minor = balanceAmounts(req.balance_minor.values.map(Number));
    const url = req.webhook_url;
    if (url !== undefined && url !== "") {
      if (!ctx.secrets) {
        throw new GatewayError(
          "service_unavailable",
          "Webhooks are off on this gateway: the control-plane has no CONTROL_PLANE_SECRETS_KEY to seal their signing secrets with (docs/configuration.md).",
        );
      }
      set.webhook_url = await ctx.webhookUrls.check(url);
    }
    if (Object.keys(set).length === 0 && url === undefined && !req.rotate_secret && !req.drop_previous_secret) {
      throw new GatewayError("invalid_request", "nothing to change: give budget_pcts, balance_minor, webhook_url, rotate_secret or drop_previous_secret");
    }
    const { row, secret } = await inTransaction(ctx.db, async (trx) => {
      await sql`INSERT INTO org_alert_settings (org_id) VALUES (${org.id}) ON CONFLICT (org_id) DO NOTHING`.execute(trx);
      const now = await trx.selectFrom("org_alert_settings").selectAll().where("org_id", "=", org.id).forUpdate().executeTakeFirstOrThrow();
      let secret = "";
      const noPrevious = { previous_secret_sealed: null, previous_secret_until: null };
      if (url === "") Object.assign(set, { webhook_url: null, webhook_secret_sealed: null, webhook_secret_prefix: null, secret_created_at: null, ...noPrevious });
      const hasWebhook = url === undefined ? now.webhook_url !== null : url !== "";
      if (req.rotate_secret && !hasWebhook) throw new GatewayError("invalid_request", "rotate_secret: the organization has no webhook, so no signing secret to rotate");
      if (req.drop_previous_secret) Object.assign(set, noPrevious);
      if (hasWebhook && (req.rotate_secret || now.webhook_secret_sealed === null)) {
        if (!ctx.secrets) throw new GatewayError("service_unavailable", "Webhooks are off on this gateway: the control-plane has no CONTROL_PLANE_SECRETS_KEY (docs/configuration.md).");
        secret = newWebhookSecret();
        // A receiver still holding the old secret keeps verifying for a day, unless it leaked.
        const previous = now.webhook_secret_sealed !== null && !req.drop_previous_secret ? now.webhook_secret_sealed : null;
        Object.assign(set, {
          webhook_secret_sealed: ctx.secrets.seal(org.id, secret),
          webhook_secret_prefix: secretDisplayPrefix(secret),
          secret_created_at: new Date(),
          previous_secret_sealed: previous,
          previous_secret_until: previous ? new Date(Date.now() + PREVIOUS_SECRET_SIGNS_MS) : null,
        });
      }
      const row = await trx
        .updateTable("org_alert_settings")
        .set({ ...set, updated_at: new Date() })
        .where("org_id", "=", org.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { row, secret };
    });
    if (req.budget_pcts || req.balance_minor) ctx.publishChange({ kind: "org", id: org.id });
    return toAlertSettings(org.id, row, secret);
  };
}

/** An organization's alert settings; never the secret, only its first characters. */
export function getAlertSettings(ctx: ControlContext) {
  return async (req: GetAlertSettingsRequest): Promise<AlertSettings> => {
    const org = await findOrg(ctx.db, req.org);
    return toAlertSettings(org.id, await ctx.db.selectFrom("org_alert_settings").selectAll().where("org_id", "=", org.id).executeTakeFirst());
  };
}
