import type { Response } from "express";
import { GatewayError } from "@gateway/errors";
import { DAY_MS, bodyOf, creditsOf, text } from "../params.js";
import { signed, type Routes } from "../middleware.js";
import { formatAmount } from "../shared/money.js";
import { memberRecord } from "../usage-view.js";
import { chartWindow, overviewOf, seriesOf } from "../usage-series.js";
import { logRows } from "./requests.js";

/** How many of an organization's newest requests its operator page lists. */
const RECENT = 20;

/**
 * The operator's organizations (docs/console.md, "The operator's pages"): the search with credits and
 * spend, one organization's page (its keys, members, usage by model or key, newest requests and any of
 * its requests by id), and idempotent top-ups. Every route needs an operator's session; the
 * control-plane checks the role again on its own calls, and a top-up — the ledger's — is made only
 * after the session was answered as an operator's on this very request.
 */
export function operatorOrgRoutes({ ctx, read, write }: Routes): void {
  const { control, ledger } = ctx;
  const view = (res: Response, orgId: string) => control.ConsoleOperatorOrg({ token: signed(res).token, org_id: orgId });

  read(
    "/api/operator/orgs",
    async (req, res) => {
      const { orgs } = await control.ConsoleListOrgs({ token: signed(res).token, query: String(req.query.q ?? "") });
      const balances = await ledger.OrgBalances({ org_ids: orgs.map((o) => o.id), from_ms: Date.now() - 7 * DAY_MS });
      const byId = new Map(balances.orgs.map((b) => [b.org_id, b]));
      return { data: orgs.map((o) => ({ ...o, credits: byId.get(o.id) ?? null })) };
    },
    "operator",
  );

  read(
    "/api/operator/orgs/:org",
    async (req, res) => {
      const w = chartWindow(req.query);
      const v = await view(res, String(req.params.org));
      const orgId = v.org!.id;
      const [credits, series, recent] = await Promise.all([
        ledger.GetCredits({ org_id: orgId }),
        ledger.SpendSeries(seriesOf(orgId, w)),
        ledger.ListUsage({ org_id: orgId, key_id: "", model: "", route: "", status: 0, from_ms: 0, to_ms: 0, limit: RECENT, cursor: "" }),
      ]);
      return { org: v.org, keys: v.keys, members: v.members, overview: overviewOf(credits, series, w, v.org!.created_at_ms, v.keys), recent: logRows(recent.records, v.keys) };
    },
    "operator",
  );

  // Any request of the organization by its trace or request id (the ledger answers only within it).
  read(
    "/api/operator/orgs/:org/requests/:id",
    async (req, res) => {
      const orgId = (await view(res, String(req.params.org))).org!.id;
      return memberRecord(await ledger.GetUsage({ request_id: String(req.params.id), org_id: orgId, wait_ms: 0 }));
    },
    "operator",
  );

  // Top-ups are idempotent: the same idempotency_key (the page makes one per form it shows) credits once however often it is sent.
  write(
    "/api/operator/top-ups",
    async (req, res) => {
      const b = bodyOf(req);
      const org = text(b.org_id);
      const key = text(b.idempotency_key);
      if (!org) throw new GatewayError("invalid_request", "Name the organization to top up.");
      const amount = creditsOf(b, "amount", "The top-up", signed(res).money, { positive: true });
      if (!/^[A-Za-z0-9._:-]{8,100}$/.test(key)) throw new GatewayError("invalid_request", "idempotency_key must be 8 to 100 letters, digits or . _ : -");
      // The control-plane checks the operator's session and that the organization exists, and signs a
      // one-minute grant for exactly this top-up; the ledger credits nothing without it (docs/security.md).
      const request = { org_id: org, amount_minor: amount, idempotency_key: `console:${key}` };
      const { grant } = await control.ConsoleGrantTopUp({ token: signed(res).token, ...request });
      const topUp = await ledger.TopUpWithGrant({ ...request, grant });
      // Recorded once per top-up (the control-plane keeps one entry per top-up id, so a retry after a lost answer records it still).
      await control.ConsoleRecordAudit({ token: signed(res).token, org, action: "top_up", target: topUp.top_up_id, detail_json: JSON.stringify({ amount_minor: amount }) });
      const money = signed(res).money;
      return {
        top_up_id: topUp.top_up_id,
        duplicate: topUp.duplicate,
        credits: topUp.credits,
        amount_text: formatAmount(amount, money),
        balance_text: formatAmount(topUp.credits?.balance_minor ?? 0, money),
      };
    },
    { scope: "operator" },
  );
}
