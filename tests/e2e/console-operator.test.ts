import { generateKeyPairSync } from "node:crypto";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleServer } from "@gateway/console";
import { sql } from "@gateway/db";
import { adminService, bearer, createClient, ledgerService, signTopUpGrant } from "@gateway/proto";
import { eventually } from "@gateway/testing";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { CONSOLE_TOKENS, consoleServiceEnv, consoleUser, startConsoleFor, type ConsoleSession } from "../support/console.ts";
import type { AnyBody } from "../support/api.ts";

/**
 * The console's operator pages and the audit log over a real stack (docs/console.md): an operator
 * (a member of no organization) searches organizations with their credits and spend, tops one up
 * idempotently, edits the catalog through a difference it reviews and applies onto the version it
 * saw, reads provider health from every attempt in the ledger; every console action lands in the
 * audit log, which an organization's admin reads for its organization only. Organization pages:
 * guardrail rules with how often each fired, keys with their own limits, spend and last use.
 */
let stack: Stack;
let server: ConsoleServer;
let user: ReturnType<typeof consoleUser>;
let org: TestOrg;
let operator: ConsoleSession;

beforeAll(async () => {
  stack = await startStack("console-operator", { serviceEnv: consoleServiceEnv, dataPlaneEnv: { DATA_PLANE_RETRY_BASE_MS: "5" } });
  server = await startConsoleFor(stack);
  user = consoleUser(stack, server);
  org = await createOrg(stack, { balanceMinor: 5_000_000 });
  operator = await user.signIn("", "operator", "ops@example.com");
});

afterAll(async () => {
  await server?.close();
  await stack?.stop();
});

const json = async (r: Response) => ({ status: r.status, body: (await r.json()) as AnyBody });

describe("who may use the operator pages", () => {
  it("an operator lands on the operator pages and cannot act as an organization; an organization's admin cannot use them", async () => {
    const home = await user.get("/", operator.cookie);
    expect(home.status).toBe(303);
    expect(home.headers.get("location")).toBe("/operator");
    expect((await user.get("/operator", operator.cookie)).status).toBe(200);
    expect((await user.get("/api/session", operator.cookie)).body.member).toMatchObject({ email: "ops@example.com", role: "operator", org_id: "" });
    expect((await user.get("/api/overview", operator.cookie)).status).toBe(403);

    const admin = await user.signIn(org.orgId, "admin");
    expect((await user.get("/operator", admin.cookie)).headers.get("location")).toBe("/");
    for (const path of ["/api/operator/orgs", "/api/operator/catalog", "/api/operator/health"]) expect((await user.get(path, admin.cookie)).status).toBe(403);
    const topUp = await json(await user.post("/api/operator/top-ups", admin.cookie, admin.csrf, { org_id: org.orgId, amount_minor: 1_000_000, idempotency_key: "self-service-1" }));
    expect(topUp.status).toBe(403);
    // The control-plane refuses an organization's session too, should the console ever ask it.
    await expect(stack.admin.CreateSignInLink({ org: org.orgId, email: "x@example.com", role: "operator" })).rejects.toMatchObject({ code: "invalid_request" });
  });
});

describe("organizations and top-ups", () => {
  it("finds an organization by part of its name with its balance and spend; a top-up sent twice credits once and is audited once", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "spend something" }] });
    const found = await eventually(
      async () => {
        // Part of its name, in another case.
        const r = await user.get(`/api/operator/orgs?q=${encodeURIComponent(org.name.slice(0, -2).toUpperCase())}`, operator.cookie);
        const o = (r.body.data as AnyBody[]).find((x) => x.id === org.orgId);
        return o && o.credits.window_requests === 1 ? o : undefined;
      },
      15_000,
      "the organization with its spend",
    );
    expect(found.credits.window_spent_minor).toBeGreaterThan(0);
    expect(found.credits.balance_minor).toBe(5_000_000 - found.credits.window_spent_minor);
    expect(((await user.get("/api/operator/orgs?q=no-such-org-anywhere", operator.cookie)).body.data as AnyBody[]).length).toBe(0);

    const before = found.credits.balance_minor as number;
    const body = { org_id: org.orgId, amount_minor: 2_000_000, idempotency_key: "topup-form-7f3a9c" };
    const first = await json(await user.post("/api/operator/top-ups", operator.cookie, operator.csrf, body));
    expect(first.status).toBe(200);
    expect(first.body.duplicate).toBe(false);
    const again = await json(await user.post("/api/operator/top-ups", operator.cookie, operator.csrf, body));
    expect(again.body).toMatchObject({ duplicate: true, top_up_id: first.body.top_up_id });
    const credits = await stack.ledgerClient.GetCredits({ org_id: org.orgId });
    expect(credits.balance_minor).toBe(before + 2_000_000);

    for (const bad of [
      { ...body, amount_minor: 0 },
      { ...body, amount_minor: 1.5 },
      { ...body, idempotency_key: "x" },
    ]) {
      expect((await user.post("/api/operator/top-ups", operator.cookie, operator.csrf, bad)).status).toBe(400);
    }
    // The page sends credits as typed; a refusal says what it expects in credits.
    const { amount_minor: _minor, ...inCredits } = body;
    for (const amount of ["0", "-2", "two"]) {
      const refused = await json(await user.post("/api/operator/top-ups", operator.cookie, operator.csrf, { ...inCredits, amount, idempotency_key: "topup-form-bad-amount" }));
      expect(refused.body.error.message, amount).toBe("The top-up must be an amount in credits such as 12.50, with at most 6 decimals, more than 0.");
    }
    const typed = await json(await user.post("/api/operator/top-ups", operator.cookie, operator.csrf, { ...inCredits, amount: "0.25", idempotency_key: "topup-form-credits" }));
    expect(typed.body).toMatchObject({ duplicate: false, amount_text: "0.25 credits" });
    expect(typed.body.balance_text).toBe(`${((before + 2_250_000) / 1e6).toFixed(2)} credits`);
    const unknown = await json(await user.post("/api/operator/top-ups", operator.cookie, operator.csrf, { ...body, org_id: "org_nope", idempotency_key: "topup-form-unknown" }));
    expect(unknown.status).toBe(404);
    // No CSRF token: refused, nothing credited.
    expect((await user.post("/api/operator/top-ups", operator.cookie, "", { ...body, idempotency_key: "topup-no-csrf" })).status).toBe(403);
    expect((await stack.ledgerClient.GetCredits({ org_id: org.orgId })).balance_minor).toBe(before + 2_250_000);

    const audit = (await user.get(`/api/audit?org=${org.orgId}`, operator.cookie)).body.data as AnyBody[];
    const topUps = audit.filter((e) => e.action === "top_up");
    expect(topUps).toEqual([
      expect.objectContaining({ target: typed.body.top_up_id, detail: { amount_minor: 250_000 } }),
      expect.objectContaining({ target: first.body.top_up_id, actor_email: "ops@example.com", org_id: org.orgId, detail: { amount_minor: 2_000_000 } }),
    ]);

    // The organization's page: itself, its keys and members, its usage by model, its newest requests; any of its requests by id, another's not.
    const page = (await user.get(`/api/operator/orgs/${org.orgId}?days=1`, operator.cookie)).body;
    expect(page.org).toMatchObject({ id: org.orgId, name: org.name });
    expect((page.keys as AnyBody[]).map((k) => k.name)).toEqual(["test"]);
    expect(page.overview.points.map((p: AnyBody) => p.group)).toEqual(["gw-chat-mini"]);
    const recent = page.recent as AnyBody[];
    expect(recent).toHaveLength(1);
    expect(recent[0]).toMatchObject({ key_name: "test", model: "gw-chat-mini" });
    expect(JSON.stringify(page)).not.toContain("provider_cost_minor");
    expect((await user.get(`/api/operator/orgs/${org.orgId}/requests/${recent[0]!.request_id}`, operator.cookie)).body.request_id).toBe(recent[0]!.request_id);
    const stranger = await createOrg(stack, { balanceMinor: 1_000 });
    expect((await user.get(`/api/operator/orgs/${stranger.orgId}/requests/${recent[0]!.request_id}`, operator.cookie)).status).toBe(404);
    expect((await user.get("/api/operator/orgs/org_nope", operator.cookie)).status).toBe(404);
    const admin = await user.signIn(org.orgId, "admin");
    expect((await user.get(`/api/operator/orgs/${org.orgId}`, admin.cookie)).status).toBe(403);
    // The ledger records who made it: this operator, by the grant the control-plane signed.
    const row = await sql<{ made_by: string; grant_id: string | null }>`SELECT made_by, grant_id FROM ledger.top_ups WHERE id = ${first.body.top_up_id as string}`.execute(stack.ledger().db);
    expect(row.rows[0]).toMatchObject({ made_by: "operator:ops@example.com", grant_id: expect.stringMatching(/^grant_/) });
  });

  it("the console's ledger token alone credits nothing: a top-up needs the one-minute grant the control-plane signs for an operator's session", async () => {
    const addr = (port: number) => `127.0.0.1:${port}`;
    const ledgerAsConsole = createClient(ledgerService(), addr(stack.ledger().grpcPort), { timeoutMs: 5_000, metadata: bearer(CONSOLE_TOKENS.ledger) });
    const controlAsConsole = createClient(adminService(), addr(stack.control.grpcPort), { timeoutMs: 5_000, metadata: bearer(CONSOLE_TOKENS.control) });
    try {
      const before = (await stack.ledgerClient.GetCredits({ org_id: org.orgId })).balance_minor;
      const req = { org_id: org.orgId, amount_minor: 5_000_000, idempotency_key: "console:stolen-token-1" };
      await expect(ledgerAsConsole.TopUp(req)).rejects.toMatchObject({ code: "caller_not_allowed" });
      await expect(ledgerAsConsole.TopUpWithGrant(req)).rejects.toMatchObject({ code: "forbidden" });
      // A grant signed with any other key.
      const other = generateKeyPairSync("ed25519");
      const forged = signTopUpGrant(other.privateKey, { ...req, by: "me@example.com", exp_ms: Date.now() + 60_000 }).grant;
      await expect(ledgerAsConsole.TopUpWithGrant({ ...req, grant: forged })).rejects.toThrow(/signature does not verify/);
      // The control-plane signs only for an operator's live session: not an organization's admin.
      const admin = await user.signIn(org.orgId, "admin");
      const sessionOf = (s: ConsoleSession) => decodeURIComponent(s.cookie.split("=")[1]!);
      await expect(controlAsConsole.ConsoleGrantTopUp({ token: sessionOf(admin), ...req })).rejects.toMatchObject({ code: "forbidden" });
      // A genuine grant is for what it names only: not another amount, organization or key.
      const { grant } = await controlAsConsole.ConsoleGrantTopUp({ token: sessionOf(operator), ...req });
      for (const other of [
        { ...req, amount_minor: 50_000_000 },
        { ...req, idempotency_key: "console:stolen-token-2" },
      ]) {
        await expect(ledgerAsConsole.TopUpWithGrant({ ...other, grant })).rejects.toThrow(/names another organization, amount or idempotency key/);
      }
      expect((await stack.ledgerClient.GetCredits({ org_id: org.orgId })).balance_minor).toBe(before);
      // And it does what it names, once.
      const made = await ledgerAsConsole.TopUpWithGrant({ ...req, grant });
      expect((await ledgerAsConsole.TopUpWithGrant({ ...req, grant })).top_up_id).toBe(made.top_up_id);
      expect((await stack.ledgerClient.GetCredits({ org_id: org.orgId })).balance_minor).toBe(before + 5_000_000);
      // The admin token (gatewayctl) tops up on its own, recorded as such.
      const byAdmin = await stack.ledgerClient.TopUp({ org_id: org.orgId, amount_minor: 1, idempotency_key: "gatewayctl-topup-1" });
      const rows = await sql<{ id: string; made_by: string }>`SELECT id, made_by FROM ledger.top_ups WHERE id IN (${made.top_up_id}, ${byAdmin.top_up_id}) ORDER BY made_by`.execute(stack.ledger().db);
      expect(rows.rows).toEqual([
        { id: byAdmin.top_up_id, made_by: "admin" },
        { id: made.top_up_id, made_by: "operator:ops@example.com" },
      ]);
    } finally {
      ledgerAsConsole.close();
      controlAsConsole.close();
    }
  });
});

describe("the catalog", () => {
  it("shows what a document would change, applies it onto the version reviewed (a stale one is a 409), audits it, and the organization sees the new price", async () => {
    const current = (await user.get("/api/operator/catalog", operator.cookie)).body;
    const doc = JSON.parse(current.document as string) as { models: AnyBody[]; providers: AnyBody[] };
    const mini = doc.models.find((m) => m.id === "gw-chat-mini")!;
    const oldPrice = mini.output_price_minor_per_mtok as number;
    const next = { providers: [], models: [{ ...mini, output_price_minor_per_mtok: oldPrice + 100_000 }] };

    // The unchanged document changes nothing.
    const same = await json(await user.post("/api/operator/catalog/diff", operator.cookie, operator.csrf, { document: current.document }));
    expect(same.body.changes).toEqual([]);
    const diff = await json(await user.post("/api/operator/catalog/diff", operator.cookie, operator.csrf, { document: JSON.stringify(next) }));
    expect(diff.status).toBe(200);
    // Each changed field named as people read it, before and after in credits.
    expect(diff.body).toEqual({
      version: current.version,
      changes: [
        {
          kind: "model",
          id: "gw-chat-mini",
          change: "changed",
          fields: [
            {
              field: "output_price_minor_per_mtok",
              label: "Output price per 1M tokens",
              before: `${(oldPrice / 1e6).toFixed(2)} credits`,
              after: `${((oldPrice + 100_000) / 1e6).toFixed(2)} credits`,
            },
          ],
        },
      ],
    });
    // A broken document names the field; nothing is applied.
    const broken = await json(await user.post("/api/operator/catalog/diff", operator.cookie, operator.csrf, { document: JSON.stringify({ models: [{ ...mini, routes: ["chat", "telepathy"] }] }) }));
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toContain("models[0].routes[1]");

    const stale = await json(await user.post("/api/operator/catalog", operator.cookie, operator.csrf, { document: JSON.stringify(next), base_version: current.version - 1 }));
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("conflict");
    const applied = await json(await user.post("/api/operator/catalog", operator.cookie, operator.csrf, { document: JSON.stringify(next), base_version: current.version }));
    expect(applied.status).toBe(200);
    expect(applied.body.version).toBe(current.version + 1);

    const admin = await user.signIn(org.orgId, "admin");
    await eventually(
      async () => (((await user.get("/api/models", admin.cookie)).body.data as AnyBody[]).find((m) => m.id === "gw-chat-mini")?.output_price_minor_per_mtok === oldPrice + 100_000 ? true : undefined),
      5_000,
      "the new price shown to the organization",
    );
    const entry = ((await user.get("/api/audit", operator.cookie)).body.data as AnyBody[]).find((e) => e.action === "catalog_applied");
    expect(entry).toMatchObject({ actor_email: "ops@example.com", org_id: "", target: `catalog v${current.version + 1}` });
    expect(entry!.detail.changes).toEqual([{ kind: "model", id: "gw-chat-mini", change: "changed", fields: ["output_price_minor_per_mtok"] }]);
    // An organization's admin does not see changes of the whole gateway in its audit log.
    expect(((await user.get("/api/audit", admin.cookie)).body.data as AnyBody[]).some((e) => e.action === "catalog_applied")).toBe(false);
  });
});

describe("a model's prices in a form", () => {
  it("reads each price in credits, names a bad one as the form does, and reviews the change field by field before it is applied", async () => {
    const review = (body: AnyBody) => user.post("/api/operator/catalog/model-prices", operator.cookie, operator.csrf, body).then(json);
    const form = (await user.get("/api/operator/catalog", operator.cookie)).body.models.find((m: AnyBody) => m.id === "gw-chat-large");
    expect(form.prices).toMatchObject({ input_price_minor_per_mtok: 3_000_000, output_price_minor_per_mtok: 15_000_000, web_search_price_minor: null });

    const bad = await review({ model: "gw-chat-large", prices: { output_price_minor_per_mtok: "fifteen" } });
    expect([bad.status, bad.body.error.message]).toEqual([400, "Output price per 1M tokens must be an amount in credits such as 12.50, with at most 6 decimals."]);
    const missing = await review({ model: "gw-chat-large", prices: { input_price_minor_per_mtok: " " } });
    expect(missing.body.error.message).toBe("Input price per 1M tokens is required.");
    expect((await review({ model: "gw-nope", prices: {} })).status).toBe(404);

    // Fields the form does not send keep their price; an empty optional one is unset (its fallback said).
    const r = await review({ model: "gw-chat-large", prices: { output_price_minor_per_mtok: "15.5", cached_input_price_minor_per_mtok: "" } });
    expect(r.status).toBe(200);
    expect(r.body.changes).toEqual([
      {
        kind: "model",
        id: "gw-chat-large",
        change: "changed",
        fields: [
          { field: "cached_input_price_minor_per_mtok", label: "Cached input price per 1M tokens", before: "1.50 credits", after: "unset (the input price)" },
          { field: "output_price_minor_per_mtok", label: "Output price per 1M tokens", before: "15.00 credits", after: "15.50 credits" },
        ],
      },
    ]);
    const applied = await json(await user.post("/api/operator/catalog", operator.cookie, operator.csrf, { document: r.body.document, base_version: r.body.version }));
    expect(applied.status).toBe(200);
    const after = (await user.get("/api/operator/catalog", operator.cookie)).body.models.find((m: AnyBody) => m.id === "gw-chat-large");
    expect(after.prices).toMatchObject({ output_price_minor_per_mtok: 15_500_000, cached_input_price_minor_per_mtok: null, input_price_minor_per_mtok: 3_000_000 });
  });
});

describe("provider health", () => {
  it("shows a failing deployment's error rate and its likely open breaker, from every attempt in the ledger", async () => {
    const o = await createOrg(stack, { balanceMinor: 5_000_000, models: ["gw-chat-mini"] });
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: o.secret, maxRetries: 0 });
    await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "healthy" }] });
    // Each request's attempts all fail (the provider answers 500): enough failures in a row to open a breaker.
    for (let i = 0; i < 3; i++) {
      const err = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: `down [[fake:flaky=health-${i}:100,status=500]]` }] }).catch((e: unknown) => e);
      expect((err as { status?: number }).status).toBeGreaterThanOrEqual(500);
    }
    const health = await eventually(
      async () => {
        const r = await user.get("/api/operator/health?minutes=10", operator.cookie);
        const d = (r.body.data as AnyBody[]).find((x) => x.provider === "fake" && x.failures >= 5);
        return d?.breaker_open ? d : undefined;
      },
      15_000,
      "the failing deployment",
    );
    expect(health.error_rate).toBeGreaterThan(0);
    expect(health.error_rate).toBeLessThan(1);
    expect(health.failure_streak).toBeGreaterThanOrEqual(5);
    expect(health.last_failure_ms).toBeGreaterThan(Date.now() - 60_000);
    expect(health.attempts).toBeGreaterThan(health.failures);
  });
});

describe("the audit log", () => {
  it("records each console action with who made it; an admin reads its organization's, newest first, a page at a time; billing and viewers may not", async () => {
    const o = await createOrg(stack, { balanceMinor: 1_000_000 });
    const admin = await user.signIn(o.orgId, "admin", "boss@example.com");
    const key = (await json(await user.post("/api/keys", admin.cookie, admin.csrf, { name: "audited key" }))).body.key as AnyBody;
    await user.post(`/api/keys/${key.id}/revoke`, admin.cookie, admin.csrf);
    await user.post("/api/members", admin.cookie, admin.csrf, { email: "temp@example.com", role: "viewer" });
    await user.post("/api/members/remove", admin.cookie, admin.csrf, { email: "temp@example.com" });
    await user.post("/api/budget", admin.cookie, admin.csrf, { monthly_budget_minor: 777 });
    // A refused change writes nothing.
    const viewer = await user.signIn(o.orgId, "viewer");
    expect((await user.post("/api/keys", viewer.cookie, viewer.csrf, { name: "refused" })).status).toBe(403);

    const first = (await user.get("/api/audit?limit=3", admin.cookie)).body;
    const second = (await user.get(`/api/audit?limit=3&cursor=${first.next_cursor}`, admin.cookie)).body;
    expect(second.next_cursor).toBeNull();
    const entries = [...first.data, ...second.data] as AnyBody[];
    expect(entries.map((e) => [e.action, e.target])).toEqual([
      ["budget_set", o.orgId],
      ["member_removed", "temp@example.com"],
      ["member_invited", "temp@example.com"],
      ["key_revoked", key.id],
      ["key_created", key.id],
    ]);
    expect(entries.every((e) => e.actor_email === "boss@example.com" && e.org_id === o.orgId)).toBe(true);
    expect(entries[0]!.detail).toEqual({ monthly_budget_minor: 777 });
    // Another organization's entries are not in it (the top-up of the first organization, say).
    expect(entries.some((e) => e.org_id !== o.orgId)).toBe(false);
    expect((await user.get("/api/audit", viewer.cookie)).status).toBe(403);
    const billing = await user.signIn(o.orgId, "billing");
    expect((await user.get("/api/audit", billing.cookie)).status).toBe(403);
    // The operator reads every organization's.
    const all = (await user.get("/api/audit?limit=200", operator.cookie)).body.data as AnyBody[];
    expect(new Set(all.map((e) => e.org_id))).toEqual(new Set([o.orgId, org.orgId, ""]));
  });
});

describe("keys with limits, spend and last use", () => {
  it("creates a key with its own requests-per-minute limit, which the gateway enforces; the key list shows what it spent and when it was last used", async () => {
    const o = await createOrg(stack, { balanceMinor: 5_000_000 });
    const admin = await user.signIn(o.orgId, "admin");
    expect((await user.post("/api/keys", admin.cookie, admin.csrf, { name: "bad", rpm_limit: -1 })).status).toBe(400);
    const created = (await json(await user.post("/api/keys", admin.cookie, admin.csrf, { name: "one a minute", rpm_limit: 1, models: ["gw-chat-mini"] }))).body;
    expect(created.key).toMatchObject({ rpm_limit: 1, models: ["gw-chat-mini"] });
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: created.secret, maxRetries: 0 });
    await eventually(() => client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "first of the minute" }] }), 15_000, "the key works");
    const second = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "second" }] }).catch((e: unknown) => e);
    expect((second as { status?: number }).status).toBe(429);
    const listed = await eventually(
      async () => {
        const k = ((await user.get("/api/keys", admin.cookie)).body.data as AnyBody[]).find((x) => x.id === created.key.id);
        return k?.spent_30d_minor > 0 ? k : undefined;
      },
      15_000,
      "the key's spend",
    );
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    expect([hour, hour - 3_600_000]).toContain(listed.last_used_hour_ms);
    const other = ((await user.get("/api/keys", admin.cookie)).body.data as AnyBody[]).find((x) => x.id !== created.key.id);
    expect(other).toMatchObject({ spent_30d_minor: 0, last_used_hour_ms: null });
  });
});

describe("guardrails", () => {
  it("lists the organization's rules and how often each fired in the last 7 days", async () => {
    const o = await createOrg(stack, { balanceMinor: 5_000_000, models: ["gw-chat-mini"] });
    await stack.admin.SetGuardrails({
      org: o.orgId,
      document: "rules:\n  - plugin: pii\n    name: no-emails\n    action: mask\n  - plugin: keywords\n    name: no-secrets\n    action: log\n    config: { words: [topsecret] }\n",
    });
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: o.secret, maxRetries: 0 });
    const send = (content: string) => client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content }] }).catch((e: unknown) => e);
    await eventually(async () => ((await send("mail me at ann@example.com")) instanceof Error ? undefined : true), 15_000, "rules in force");
    await send("and bob@example.com");
    await send("the topsecret plan");
    const viewer = await user.signIn(o.orgId, "viewer");
    const g = await eventually(
      async () => {
        const r = (await user.get("/api/guardrails", viewer.cookie)).body;
        // Every request's record applied: the last one is the logged one (the earlier two also count no-secrets' passes).
        return (r.counts as AnyBody[]).some((c) => c.name === "no-secrets" && c.outcome === "logged") ? r : undefined;
      },
      15_000,
      "the counts, the last request's included",
    );
    expect((g.rules as AnyBody[]).map((r) => [r.plugin, r.name])).toEqual([
      ["pii", "no-emails"],
      ["keywords", "no-secrets"],
    ]);
    const count = (name: string, outcome: string) => (g.counts as AnyBody[]).find((c) => c.name === name && c.outcome === outcome)?.count ?? 0;
    expect(count("no-emails", "masked")).toBeGreaterThanOrEqual(2);
    expect(count("no-secrets", "logged")).toBe(1);
    expect(count("no-secrets", "pass")).toBeGreaterThanOrEqual(2);
  });
});
