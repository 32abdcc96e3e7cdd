import { GatewayError } from "@gateway/errors";
import type { AlertSettings } from "@gateway/proto";
import { balancesIfGiven, budgetPctsIfGiven } from "../budget-fields.js";
import { bodyOf, pageLimit } from "../params.js";
import { signed, type Routes } from "../middleware.js";

/**
 * The control-plane names the webhook's fields as its RPC does (`webhook_url must be an https:// URL.`,
 * `rotate_secret: …`); the page says "The webhook URL …". Other errors pass as they are.
 */
async function webhookWords<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    if (err.message.startsWith("webhook_url ")) throw new GatewayError(err.code, `The webhook URL ${err.message.slice("webhook_url ".length)}`);
    if (err.message.startsWith("rotate_secret: the organization")) throw new GatewayError(err.code, `The organization${err.message.slice("rotate_secret: the organization".length)}.`);
    throw err;
  }
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
    const pcts = budgetPctsIfGiven(body.budget_pcts);
    const balance = balancesIfGiven(body, signed(res).money);
    if (body.webhook_url !== undefined && typeof body.webhook_url !== "string") throw new GatewayError("invalid_request", 'The webhook URL must be text ("" removes the webhook).');
    if (pcts === undefined && balance === undefined && body.webhook_url === undefined)
      throw new GatewayError("invalid_request", "Nothing to change: give budget alerts, balance alerts or a webhook URL.");
    const change = {
      org: "",
      budget_pcts: pcts === undefined ? null : { values: pcts },
      balance_minor: balance === undefined ? null : { values: balance },
      ...(typeof body.webhook_url === "string" ? { webhook_url: body.webhook_url } : {}),
      rotate_secret: false,
      drop_previous_secret: false,
    };
    return view(await webhookWords(control.ConsoleSetAlertSettings({ token: signed(res).token, change })));
  });
  // `{drop_previous: true}`: the old secret stops signing at once (it leaked) instead of beside the new one for 24 h.
  write("/api/alerts/rotate-secret", async (req, res) => {
    const dropPrevious = bodyOf(req).drop_previous === true;
    const change = { org: "", budget_pcts: null, balance_minor: null, rotate_secret: true, drop_previous_secret: dropPrevious };
    return view(await webhookWords(control.ConsoleSetAlertSettings({ token: signed(res).token, change })));
  });
}
