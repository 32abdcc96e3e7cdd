import { GatewayError } from "@gateway/errors";
import { DAY_MS, bodyOf, endOfThisHour, text } from "../params.js";
import { signed, type Routes } from "../middleware.js";

const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const limit = (v: unknown, name: string) => {
  if (v === undefined || v === null || v === "") return 0;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw new GatewayError("invalid_request", `${name} must be a non-negative integer (0: no limit of its own)`);
  return v;
};

/**
 * The keys page. The control-plane reads the session itself and enforces the organization and the
 * role (creating and revoking: admin): a viewer calling this API directly gets its 403.
 */
export function keyRoutes({ ctx, read, write }: Routes): void {
  const { control, ledger } = ctx;
  read("/api/keys", async (_req, res) => {
    // Each key's spend and last use over 30 days, from the hourly rollups (one index range for the organization).
    const to = endOfThisHour();
    const [{ keys }, series] = await Promise.all([
      control.ConsoleListKeys({ token: signed(res).token }),
      ledger.SpendSeries({ org_id: signed(res).member.org_id, from_ms: to - 30 * DAY_MS, to_ms: to, bucket: "hour", group_by: "key" }),
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
  write(
    "/api/keys",
    async (req, res) => {
      const body = bodyOf(req);
      const created = await control.ConsoleCreateKey({
        token: signed(res).token,
        name: text(body.name),
        routes: list(body.routes),
        models: list(body.models),
        rpm_limit: limit(body.rpm_limit, "rpm_limit"),
        tpm_limit: limit(body.tpm_limit, "tpm_limit"),
      });
      return { key: created.key, secret: created.secret };
    },
    { limit: "16kb" },
  );
  write("/api/keys/:id/revoke", async (req, res) => ({ key: await control.ConsoleRevokeKey({ token: signed(res).token, key_id: String(req.params.id) }) }));
}
