import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type { OrgBilling } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import type { OrgBillingRow } from "../db/schema.js";
import { text } from "../adjustments/adjust.js";
import { checkCurrency, checkTimeZone, termsOfOrg } from "../billing/terms.js";

/** A string field of SetOrgBilling: undefined leaves it, null clears it ("-"). */
function change(value: string, check: (v: string) => string): string | null | undefined {
  if (value === "") return undefined;
  if (value === "-") return null;
  return check(value);
}

/**
 * SetOrgBilling: an organization's commercial metadata, kept in the ledger so that its feed and
 * statements need no other service (docs/billing.md, "Commercial metadata"): the external customer
 * id (unique: a connector maps it back), the currency and the price of a credit (display and export
 * only: 1 credit stays 1,000,000 minor units), the statements' time zone. org_id "" sets every
 * organization's defaults. Only the fields named change.
 */
export function setOrgBilling(ctx: LedgerContext) {
  return async (req: OrgBilling): Promise<OrgBilling> => {
    const external = change(req.external_customer_id, (v) => text(v, "external_customer_id", 256));
    if (external !== undefined && req.org_id === "") throw new GatewayError("invalid_request", "an external customer id belongs to one organization, not to the defaults");
    const currency = change(req.currency, checkCurrency);
    const timeZone = change(req.time_zone, checkTimeZone);
    const price = req.price_per_credit_micros;
    if (!Number.isSafeInteger(price) || price < -1) throw new GatewayError("invalid_request", "price_per_credit_micros must be a non-negative integer (0: unchanged, -1: clear)");
    if (timeZone) {
      // Postgres computes the statements' month bounds: it must know the zone too.
      await sql`SELECT now() AT TIME ZONE ${timeZone}`.execute(ctx.db).catch(() => {
        throw new GatewayError("invalid_request", `time_zone '${timeZone}' is not known to Postgres`);
      });
    }
    const by = req.operator ? `admin:${text(req.operator, "operator", 200)}` : "admin";
    const cols: Partial<Pick<OrgBillingRow, "external_customer_id" | "currency" | "time_zone" | "price_per_credit_micros">> = {};
    if (external !== undefined) cols.external_customer_id = external;
    if (currency !== undefined) cols.currency = currency;
    if (timeZone !== undefined) cols.time_zone = timeZone;
    if (price !== 0) cols.price_per_credit_micros = price === -1 ? null : price;
    try {
      await ctx.db
        .insertInto("org_billing")
        .values({ org_id: req.org_id, ...cols, updated_by: by })
        .onConflict((oc) => oc.column("org_id").doUpdateSet({ ...cols, updated_by: by, updated_at: new Date() }))
        .execute();
    } catch (err) {
      if ((err as { code?: string }).code === "23505") throw new GatewayError("already_exists", `external customer id '${String(external)}' belongs to another organization`);
      throw err;
    }
    return getBilling(ctx, req.org_id);
  };
}

/** GetOrgBilling: the values in force for the organization (its own, else the defaults'). */
export function getOrgBilling(ctx: LedgerContext) {
  return async (req: { org_id: string }): Promise<OrgBilling> => getBilling(ctx, req.org_id);
}

async function getBilling(ctx: LedgerContext, orgId: string): Promise<OrgBilling> {
  const t = await termsOfOrg(ctx.db, orgId);
  const own = await ctx.db.selectFrom("org_billing").selectAll().where("org_id", "=", orgId).executeTakeFirst();
  return {
    org_id: orgId,
    external_customer_id: t.externalCustomerId,
    currency: t.currency,
    price_per_credit_micros: t.pricePerCreditMicros,
    time_zone: t.timeZone,
    updated_by: own?.updated_by ?? "",
    updated_at_ms: own?.updated_at.getTime() ?? 0,
    operator: "",
  };
}
