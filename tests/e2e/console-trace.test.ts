import { generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleServer } from "@gateway/console";
import { TOP_UP_GRANT_TTL_MS, adminService, bearer, createClient, ledgerService, signTopUpGrant } from "@gateway/proto";
import { eventually } from "@gateway/testing";
import type { AnyBody } from "../support/api.ts";
import { ARTIFACTS, launchBrowser, rendered, signIn } from "../support/browser.ts";
import { CONSOLE_TOKENS, consoleServiceEnv, consoleUser, startConsoleFor, type ConsoleSession } from "../support/console.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * The operator's trace lookup (docs/console.md, "Trace lookup"): an operator opens any trace id,
 * whatever its organization — a request refused before routing too — and every lookup is in the
 * audit log with who made it; an organization's admin still reads its own organization's requests
 * only, and the console's ledger token alone reads no other organization's record.
 */
let stack: Stack;
let server: ConsoleServer;
let user: ReturnType<typeof consoleUser>;
let a: TestOrg;
let b: TestOrg;
let operator: ConsoleSession;
let refusedId: string;

beforeAll(async () => {
  stack = await startStack("console-trace", { serviceEnv: consoleServiceEnv });
  server = await startConsoleFor(stack);
  user = consoleUser(stack, server);
  [a, b] = await Promise.all([createOrg(stack, { balanceMinor: 1_000_000 }), createOrg(stack, { balanceMinor: 1_000_000 })]);
  operator = await user.signIn("", "operator", "ops@example.com");
  const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: a.secret, maxRetries: 0 });
  const err = (await client.chat.completions.create({ model: "gw-not-a-model", messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e)) as { requestID: string };
  refusedId = err.requestID;
});

afterAll(async () => {
  await server?.close();
  await stack?.stop();
});

describe("trace lookup", () => {
  it("an operator opens another organization's refused request by its trace id, and the lookup is audited with who and what", async () => {
    const found = await eventually(
      async () => {
        const r = await user.get(`/api/operator/trace/${refusedId}`, operator.cookie);
        return r.status === 200 ? (r.body as AnyBody) : undefined;
      },
      10_000,
      "the refused request's record",
    );
    expect(found).toMatchObject({ request_id: refusedId, org_id: a.orgId, model: "gw-not-a-model", status: 404, cost_minor: 0, error_code: "model_not_found", attempts: [] });
    expect(found).not.toHaveProperty("provider_cost_minor");
    expect((await user.get("/api/operator/trace/req_000000000000nothinghere00", operator.cookie)).status).toBe(404);

    const audit = (await user.get("/api/audit", operator.cookie)).body.data as AnyBody[];
    const lookups = audit.filter((e) => e.action === "trace_looked_up");
    expect(lookups.map((e) => e.target)).toEqual(expect.arrayContaining([refusedId, "req_000000000000nothinghere00"]));
    expect(lookups.every((e) => e.actor_email === "ops@example.com")).toBe(true);
  });

  it("an organization's admin reads its own requests only: another organization's trace is a 404, the operator's lookup a 403", async () => {
    const adminB = await user.signIn(b.orgId, "admin");
    expect((await user.get(`/api/requests/${refusedId}`, adminB.cookie)).status).toBe(404);
    expect((await user.get(`/api/operator/trace/${refusedId}`, adminB.cookie)).status).toBe(403);
    const adminA = await user.signIn(a.orgId, "admin");
    expect((await user.get(`/api/requests/${refusedId}`, adminA.cookie)).body).toMatchObject({ request_id: refusedId, error_code: "model_not_found" });
  });

  it("the console's ledger token alone reads no other organization's record: LookupTrace needs the control-plane's grant for that very id", async () => {
    const ledgerAsConsole = createClient(ledgerService(), `127.0.0.1:${stack.ledger().grpcPort}`, { timeoutMs: 5_000, metadata: bearer(CONSOLE_TOKENS.ledger) });
    const control = createClient(adminService(), `127.0.0.1:${stack.control.grpcPort}`, { timeoutMs: 5_000, metadata: bearer(CONSOLE_TOKENS.control) });
    try {
      await expect(ledgerAsConsole.LookupTrace({ request_id: refusedId, grant: "" })).rejects.toMatchObject({ code: "forbidden" });
      const other = generateKeyPairSync("ed25519");
      const forged = signTopUpGrant(other.privateKey, { org_id: a.orgId, amount_minor: 1, idempotency_key: "k", by: "me@example.com", exp_ms: Date.now() + TOP_UP_GRANT_TTL_MS }).grant;
      await expect(ledgerAsConsole.LookupTrace({ request_id: refusedId, grant: forged })).rejects.toThrow(/signature does not verify/);
      // A genuine grant names one request: not another, and a top-up's grant is none.
      const sessionOf = (s: ConsoleSession) => decodeURIComponent(s.cookie.split("=")[1]!);
      const { grant } = await control.ConsoleGrantTraceLookup({ token: sessionOf(operator), request_id: "req_someone_else" });
      await expect(ledgerAsConsole.LookupTrace({ request_id: refusedId, grant })).rejects.toThrow(/names another request/);
      const topUp = await control.ConsoleGrantTopUp({ token: sessionOf(operator), org_id: a.orgId, amount_minor: 1, idempotency_key: "console:trace-test" });
      await expect(ledgerAsConsole.LookupTrace({ request_id: refusedId, grant: topUp.grant })).rejects.toThrow(/not a trace lookup/);
      // Only an operator's session gets one.
      const admin = await user.signIn(a.orgId, "admin");
      await expect(control.ConsoleGrantTraceLookup({ token: sessionOf(admin), request_id: refusedId })).rejects.toMatchObject({ code: "forbidden" });
    } finally {
      control.close();
      ledgerAsConsole.close();
    }
  });

  it("in the browser, the operator pastes the id and reads the refusal on its page", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await signIn(page, stack, server, { org: "", email: "ops@example.com", role: "operator" }, "/operator/trace");
      await page.getByLabel("Trace or request id").fill(refusedId);
      await page.getByRole("button", { name: "Open" }).click();
      await page.waitForSelector("body[data-ready='true'] #summary dt");
      await expect(rendered(page.locator("#summary"))).resolves.toContain("model_not_found");
      await expect(rendered(page.locator("#summary"))).resolves.toContain(a.orgId);
      await page.screenshot({ path: join(ARTIFACTS, "operator-trace.png"), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});
