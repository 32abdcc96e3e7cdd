import { GatewayError } from "@gateway/errors";
import { DAY_MS, bodyOf, endOfThisHour, text, wholeOf } from "../params.js";
import { signed, type Routes } from "../middleware.js";
import { logRows } from "./requests.js";
import { chartSeries } from "../usage-series.js";

const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
/** How many of a key's newest requests its page lists. */
const RECENT = 20;

/**
 * The keys page and a key's page. The control-plane reads the session itself and enforces the
 * organization and the role (creating and revoking: admin): a viewer calling this API directly gets its 403.
 */
export function keyRoutes({ ctx, read, write }: Routes): void {
  const { control, ledger } = ctx;
  read("/api/keys", async (_req, res) => {
    // Each key's spend and last use over 30 days, from the hourly rollups (one index range for the organization).
    const to = endOfThisHour();
    const [{ keys }, series] = await Promise.all([
      control.ConsoleListKeys({ token: signed(res).token }),
      ledger.SpendSeries({ org_id: signed(res).member.org_id, from_ms: to - 30 * DAY_MS, to_ms: to, bucket: "hour", group_by: "key", without_latency: true }),
    ]);
    const use = new Map<string, { spent: number; last: number }>();
    for (const p of series.points) {
      const u = use.get(p.group) ?? { spent: 0, last: 0 };
      u.spent += p.cost_minor;
      u.last = Math.max(u.last, p.bucket_start_ms);
      use.set(p.group, u);
    }
    return { data: keys.map((k) => ({ ...k, spent_30d_minor: use.get(k.id)?.spent ?? 0, last_used_hour_ms: use.get(k.id)?.last || null })) };
  });
  // One key: what it is and may do (its budget, with its current window's spend at the ledger), its usage per day and model over 30 days (the rollups' rows of the key), its newest requests.
  read("/api/keys/:id", async (req, res) => {
    const id = String(req.params.id);
    const org = signed(res).member.org_id;
    const to = endOfThisHour();
    const [{ keys }, series, recent, budget] = await Promise.all([
      control.ConsoleListKeys({ token: signed(res).token }),
      ledger.SpendSeries({ org_id: org, from_ms: to - 30 * DAY_MS, to_ms: to, bucket: "day", group_by: "model", key_id: id }),
      ledger.ListUsage({ org_id: org, key_id: id, model: "", route: "", status: 0, from_ms: 0, to_ms: 0, limit: RECENT, cursor: "" }),
      ledger.ListBudgets({ org_id: org, scope: `key:${id}` }),
    ]);
    const key = keys.find((k) => k.id === id);
    if (!key) throw new GatewayError("not_found", "This organization has no such key.");
    return { key, budget_window: budget.windows[0] ?? null, days: 30, ...chartSeries(series), recent: logRows(recent.records, keys) };
  });
  write(
    "/api/keys",
    async (req, res) => {
      const body = bodyOf(req);
      const created = await control.ConsoleCreateKey({
        token: signed(res).token,
        name: text(body.name),
        routes: list(body.routes),
        models: list(body.models),
        rpm_limit: wholeOf(body.rpm_limit, "Requests per minute", " (0: no limit of its own)"),
        tpm_limit: wholeOf(body.tpm_limit, "Tokens per minute", " (0: no limit of its own)"),
      });
      return { key: created.key, secret: created.secret };
    },
    { limit: "16kb" },
  );
  write("/api/keys/:id/revoke", async (req, res) => ({ key: await control.ConsoleRevokeKey({ token: signed(res).token, key_id: String(req.params.id) }) }));
}
