import { GatewayError } from "@gateway/errors";
import type { AlertSettings } from "@gateway/proto";
import { bodyOf, pageLimit } from "../params.js";
import { signed, type Routes } from "../middleware.js";

/** A list of whole numbers from a JSON body, or undefined when the field is absent (kept as it is). */
function numbers(v: unknown, field: string): number[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "number" || !Number.isSafeInteger(x))) throw new GatewayError("invalid_request", `${field} must be an array of whole numbers.`, { param: field });
  return v as number[];
}

/** The settings as the API answers them: the secret only in the answer that made it. */
const view = ({ webhook_secret, ...s }: AlertSettings) => ({ ...s, ...(webhook_secret ? { webhook_secret } : {}) });

/**
 * Alerts (docs/billing.md, "Alerts"): the organization's alerts with their webhook deliveries and its
 * alert settings. Any role reads them; admins and the billing role set the thresholds, admins the
 * webhook and its secret (the control-plane enforces the roles).
 */
export function alertRoutes({ ctx, read, write }: Routes): void {
  const { control } = ctx;
  read("/api/alerts", async (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    const page = await control.ConsoleListAlerts({ token: signed(res).token, cursor: q.cursor ?? "", limit: pageLimit(q.limit) });
    return { data: page.alerts, next_cursor: page.next_cursor || null };
  });
  read("/api/alerts/settings", async (_req, res) => view(await control.ConsoleGetAlertSettings({ token: signed(res).token })));
  write("/api/alerts/settings", async (req, res) => {
    const body = bodyOf(req);
    const pcts = numbers(body.budget_pcts, "budget_pcts");
    const balance = numbers(body.balance_minor, "balance_minor");
    if (body.webhook_url !== undefined && typeof body.webhook_url !== "string")
      throw new GatewayError("invalid_request", 'webhook_url must be a string ("" removes the webhook).', { param: "webhook_url" });
    const change = {
      org: "",
      budget_pcts: pcts === undefined ? null : { values: pcts },
      balance_minor: balance === undefined ? null : { values: balance },
      ...(typeof body.webhook_url === "string" ? { webhook_url: body.webhook_url } : {}),
      rotate_secret: false,
      drop_previous_secret: false,
    };
    return view(await control.ConsoleSetAlertSettings({ token: signed(res).token, change }));
  });
  // `{drop_previous: true}`: the old secret stops signing at once (it leaked) instead of beside the new one for 24 h.
  write("/api/alerts/rotate-secret", async (req, res) => {
    const dropPrevious = bodyOf(req).drop_previous === true;
    return view(
      await control.ConsoleSetAlertSettings({ token: signed(res).token, change: { org: "", budget_pcts: null, balance_minor: null, rotate_secret: true, drop_previous_secret: dropPrevious } }),
    );
  });
}
