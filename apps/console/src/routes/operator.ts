import { GatewayError } from "@gateway/errors";
import { DAY_MS, MINUTE_MS, bodyOf, text } from "../params.js";
import { signed, type Routes } from "../middleware.js";

/**
 * The operator's API (docs/console.md, "Operator pages"): organizations with their credits and
 * spend, idempotent top-ups, the catalog (read, the difference a document would make, apply onto
 * the version reviewed), provider health. Every route needs an operator's session; the
 * control-plane checks the role again on its own calls, and a top-up — the ledger's — is made only
 * after the session was answered as an operator's on this very request.
 */
export function operatorRoutes({ ctx, read, write }: Routes): void {
  const { control, ledger } = ctx;
  const breakerThreshold = ctx.config.breakerThreshold ?? 5;
  const breakerCooldownMs = ctx.config.breakerCooldownMs ?? 30_000;

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

  // Top-ups are idempotent: the same idempotency_key (the page makes one per form it shows) credits once however often it is sent.
  write(
    "/api/operator/top-ups",
    async (req, res) => {
      const b = bodyOf(req);
      const org = text(b.org_id);
      const amount = b.amount_minor;
      const key = text(b.idempotency_key);
      if (!org) throw new GatewayError("invalid_request", "org_id is required");
      if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0) throw new GatewayError("invalid_request", "amount_minor must be a positive integer");
      if (!/^[A-Za-z0-9._:-]{8,100}$/.test(key)) throw new GatewayError("invalid_request", "idempotency_key must be 8 to 100 letters, digits or . _ : -");
      // The control-plane checks the operator's session and that the organization exists, and signs a
      // one-minute grant for exactly this top-up; the ledger credits nothing without it (docs/security.md).
      const request = { org_id: org, amount_minor: amount, idempotency_key: `console:${key}` };
      const { grant } = await control.ConsoleGrantTopUp({ token: signed(res).token, ...request });
      const topUp = await ledger.TopUpWithGrant({ ...request, grant });
      // Recorded once per top-up (the control-plane keeps one entry per top-up id, so a retry after a lost answer records it still).
      await control.ConsoleRecordAudit({ token: signed(res).token, org, action: "top_up", target: topUp.top_up_id, detail_json: JSON.stringify({ amount_minor: amount }) });
      return { top_up_id: topUp.top_up_id, duplicate: topUp.duplicate, credits: topUp.credits };
    },
    { scope: "operator" },
  );

  read(
    "/api/operator/catalog",
    async (_req, res) => {
      const c = await control.ConsoleGetCatalog({ token: signed(res).token });
      return { version: c.version, document: c.document_json };
    },
    "operator",
  );
  const changes = (c: { changes: { kind: string; id: string; change: string; fields_json: string }[] }) =>
    c.changes.map(({ fields_json, ...ch }) => ({ ...ch, fields: JSON.parse(fields_json) as unknown[] }));
  write(
    "/api/operator/catalog/diff",
    async (req, res) => {
      const r = await control.ConsoleApplyCatalog({ token: signed(res).token, document_json: String(bodyOf(req).document ?? ""), base_version: 0, dry_run: true });
      return { version: r.version, changes: changes(r) };
    },
    { limit: "1mb", scope: "operator" },
  );
  write(
    "/api/operator/catalog",
    async (req, res) => {
      const b = bodyOf(req);
      if (typeof b.base_version !== "number") throw new GatewayError("invalid_request", "base_version (the version the difference was reviewed against) is required");
      const r = await control.ConsoleApplyCatalog({ token: signed(res).token, document_json: String(b.document ?? ""), base_version: b.base_version, dry_run: false });
      return { version: r.version, changes: changes(r) };
    },
    { limit: "1mb", scope: "operator" },
  );

  // Provider health over the last `minutes` (default 60, at most a day), from every replica's attempts in the ledger.
  read(
    "/api/operator/health",
    async (req) => {
      const minutes = Math.min(Math.max(Number.parseInt(String(req.query.minutes ?? "60"), 10) || 60, 1), 1440);
      const now = Date.now();
      const { deployments } = await ledger.ProviderHealth({ from_ms: now - minutes * MINUTE_MS, to_ms: now + 1 });
      return {
        minutes,
        data: deployments.map((d) => ({
          ...d,
          error_rate: d.attempts ? d.failures / d.attempts : 0,
          // The data-planes' rule: this many failures in a row open a deployment's breaker for the cooldown.
          breaker_open: d.failure_streak >= breakerThreshold && now - d.last_failure_ms < breakerCooldownMs,
        })),
      };
    },
    "operator",
  );
}
