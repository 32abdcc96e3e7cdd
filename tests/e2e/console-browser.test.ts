import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import OpenAI from "openai";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ConsoleServer } from "@gateway/console";
import { eventually, freePort } from "@gateway/testing";
import { consoleServiceEnv, startConsoleFor } from "../support/console.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { issuerPort, startIssuer } from "../support/oidc-issuer.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * The console in a real browser: Debian's chromium driven by playwright-core (scripts/bootstrap.sh
 * installs it when missing). A person signs in by the link `gatewayctl console link` mints, sees
 * the organization's balance and a request made through the OpenAI SDK; the session cookie is
 * HttpOnly and SameSite=Strict; axe-core finds no serious or critical accessibility problem on
 * either page, at a desktop width and at 360 px. Screenshots go to test-artifacts/console/.
 */
const ARTIFACTS = resolve(import.meta.dirname, "../../test-artifacts/console");
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let stack: Stack;
let console_: ConsoleServer;
let browser: Browser;
let org: TestOrg;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  stack = await startStack("console_browser", { serviceEnv: consoleServiceEnv });
  console_ = await startConsoleFor(stack);
  org = await createOrg(stack, { balanceMinor: 7_000_000 });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage"] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await console_?.close();
  await stack?.stop();
});

/** True when the page does not scroll sideways (wide tables scroll inside their own region). */
const fitsWidth = (page: import("playwright-core").Page) =>
  page.evaluate(() => {
    // Runs in the page.
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return root.scrollWidth <= root.clientWidth;
  });

/** The serious and critical accessibility violations axe-core finds on the page (its rule ids). */
async function axeViolations(page: import("playwright-core").Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    // Runs in the page: the page's global object, not Node's.
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string | null }> }> } }).axe;
    return (await axe.run()).violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
  });
}

it("signs in by link and shows the organization's balance and a request made through the OpenAI SDK; accessible at 360 px and on a desktop", async () => {
  const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
  const { response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "hello from the browser test" }] }).withResponse();
  const requestId = response.headers.get("x-request-id")!;
  const usage = await eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl()}/usage/${requestId}`, { headers: { authorization: `Bearer ${org.secret}` } });
      return r.status === 200 ? ((await r.json()) as { cost_credits_minor: number }) : undefined;
    },
    15_000,
    "usage recorded",
  );
  const credits = (await (await fetch(`${stack.baseUrl()}/credits`, { headers: { authorization: `Bearer ${org.secret}` } })).json()) as { balance_minor: number };

  const link = await stack.admin.CreateSignInLink({ org: org.orgId, email: "browser@example.com", role: "admin" });
  // bypassCSP only so the test can load axe-core into the page; the pages themselves run under their CSP.
  for (const [name, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["360px", { width: 360, height: 780 }],
  ] as const) {
    const context = await browser.newContext({ viewport, bypassCSP: true });
    const page = await context.newPage();
    const token = name === "desktop" ? link.token : (await stack.admin.CreateSignInLink({ org: org.orgId, email: "browser@example.com", role: "admin" })).token;
    await page.goto(`${console_.url}/signin?token=${token}`);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, `signin-${name}.png`), fullPage: true });
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForSelector("body[data-ready='true']");
    expect(new URL(page.url()).pathname).toBe("/");

    const balance = await page.locator("#credits dd").first().getAttribute("data-minor");
    expect(Number(balance)).toBe(credits.balance_minor);
    await expect(page.locator("#requests").textContent()).resolves.toContain(requestId);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, `overview-${name}.png`), fullPage: true });
    // Wide tables scroll inside their own region; the page itself never scrolls sideways.
    expect(await fitsWidth(page)).toBe(true);

    // The request's own page — from its row in the log, or found by its trace id: its cost as GET /v1/usage bills it, its attempt.
    if (name === "desktop") await page.getByRole("link", { name: requestId }).click();
    else {
      await page.getByLabel("Trace id (x-gateway-trace-id or x-request-id)").fill(response.headers.get("x-gateway-trace-id")!);
      await page.getByRole("button", { name: "Open request" }).click();
    }
    await page.waitForSelector("body[data-ready='true']");
    expect(Number(await page.locator("#summary dd").first().getAttribute("data-minor"))).toBe(usage.cost_credits_minor);
    await expect(page.locator("#attempts").textContent()).resolves.toContain("served");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, `request-${name}.png`), fullPage: true });
    // The request id in the title wraps: the page does not scroll sideways either.
    expect(await fitsWidth(page)).toBe(true);

    const cookie = (await context.cookies()).find((c) => c.name === "gw_console");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
    await context.close();
  }
});

it("a new organization's overview says what is empty; signing out ends the session: the overview sends the person back to sign in", async () => {
  const fresh = await createOrg(stack, { balanceMinor: 1_000 });
  const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  const link = await stack.admin.CreateSignInLink({ org: fresh.orgId, email: "a-rather-long-address.of.someone@subdomain.example.com", role: "viewer" });
  await page.goto(`${console_.url}/signin?token=${link.token}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForSelector("body[data-ready='true']");
  await expect(page.locator("#requests").textContent()).resolves.toContain("No requests yet");
  await expect(page.locator("#chart").textContent()).resolves.toContain("No spend in the last 7 days");
  await page.screenshot({ path: join(ARTIFACTS, "overview-empty-360px.png"), fullPage: true });
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${console_.url}/signin`);
  await page.goto(`${console_.url}/`);
  expect(new URL(page.url()).pathname).toBe("/signin");
  await context.close();
});

it("an admin creates a key in the page, the OpenAI SDK uses it, the admin revokes it in the page and the SDK gets 401", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("dialog", (d) => void d.dismiss());
  const link = await stack.admin.CreateSignInLink({ org: org.orgId, email: "keys@example.com", role: "admin" });
  await page.goto(`${console_.url}/signin?token=${link.token}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForSelector("body[data-ready='true']");
  await page.getByLabel("Name of a new key").fill("browser-made");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.locator("#secret").waitFor({ state: "visible" });
  const secret = (await page.locator("#secret-value").textContent()) ?? "";
  expect(secret).toMatch(/^sk-gateway-/);

  const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: secret, maxRetries: 0 });
  await eventually(() => client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "made in the browser" }] }), 15_000, "the key works");
  await page.getByRole("button", { name: "Revoke browser-made" }).click();
  await page.locator("#keys tr", { hasText: "browser-made" }).filter({ hasText: "revoked" }).waitFor();
  await eventually(
    async () =>
      (await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "revoked?" }] }).catch((e: unknown) => e)) instanceof OpenAI.AuthenticationError
        ? true
        : undefined,
    15_000,
    "the revoked key refused",
  );
  await page.screenshot({ path: join(ARTIFACTS, "keys-desktop.png"), fullPage: true });
  await context.close();
});

it("a viewer's page shows no form its role may not use; an admin's shows the audit log of what it changed", async () => {
  const o = await createOrg(stack, { balanceMinor: 1_000_000 });
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const viewerLink = await stack.admin.CreateSignInLink({ org: o.orgId, email: "looker@example.com", role: "viewer" });
  await page.goto(`${console_.url}/signin?token=${viewerLink.token}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForSelector("body[data-ready='true']");
  for (const form of ["#new-key", "#invite", "#budget", "#audit-section"]) expect(await page.locator(form).isVisible()).toBe(false);
  expect(await page.getByRole("button", { name: /^Revoke/ }).count()).toBe(0);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${console_.url}/signin`);

  const adminLink = await stack.admin.CreateSignInLink({ org: o.orgId, email: "boss@example.com", role: "admin" });
  await page.goto(`${console_.url}/signin?token=${adminLink.token}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForSelector("body[data-ready='true']");
  await page.getByLabel("Name of a new key").fill("limited");
  await page.getByLabel("Requests per minute (0: none)").fill("30");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.locator("#keys tr", { hasText: "limited" }).filter({ hasText: "30 requests" }).waitFor();
  await page.reload();
  await page.waitForSelector("body[data-ready='true']");
  await expect(page.locator("#audit").textContent()).resolves.toContain("key created");
  await expect(page.locator("#audit").textContent()).resolves.toContain("boss@example.com");
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, "overview-admin-desktop.png"), fullPage: true });
  await context.close();
});

it("an operator tops up an organization once however often the form is sent, reviews a catalog change before applying it, and sees provider health; accessible", async () => {
  const o = await createOrg(stack, { balanceMinor: 1_000_000 });
  const before = (await stack.ledgerClient.GetCredits({ org_id: o.orgId })).balance_minor;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  const link = await stack.admin.CreateSignInLink({ org: "", email: "operator@example.com", role: "operator" });
  await page.goto(`${console_.url}/signin?token=${link.token}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForSelector("body[data-ready='true']");
  expect(new URL(page.url()).pathname).toBe("/operator");
  await expect(page.locator("#health").textContent()).resolves.toContain("fake");

  // The form sent twice before its answer (a double click): one top-up.
  await page.getByLabel("Organization id").fill(o.orgId);
  await page.getByLabel("Credits").fill("2.5");
  await page.locator("#topup").evaluate((form) => {
    // Runs in the page: the form element.
    const f = form as unknown as { requestSubmit(): void };
    f.requestSubmit();
    f.requestSubmit();
  });

  await page.locator("#topup-done").waitFor({ state: "visible" });
  // Both answers (the second a duplicate of the page's own first send) say the one top-up was made.
  expect(await page.locator("#topup-done").textContent()).toMatch(/^Done: 2\.50 credits added; .* now has 3\.50 credits\.$/);
  await eventually(async () => ((await page.locator("#audit").textContent())?.includes("top up") ? true : undefined), 5_000, "the top-up in the audit log");
  expect((await stack.ledgerClient.GetCredits({ org_id: o.orgId })).balance_minor).toBe(before + 2_500_000);
  expect(await page.locator("#audit tr", { hasText: "top up" }).count()).toBe(1);
  // Amounts in the audit log read in credits, not minor units.
  expect(await page.locator("#audit tr", { hasText: "top up" }).textContent()).toContain("amount: 2.50 credits");

  // The catalog: a price change is shown field by field, and applied only after that review.
  const doc = JSON.parse(await page.locator("#catalog-doc").inputValue()) as { models: Array<Record<string, unknown>> };
  const large = doc.models.find((m) => m.id === "gw-chat-large")!;
  await page.locator("#catalog-doc").fill(JSON.stringify({ models: [{ ...large, input_price_minor_per_mtok: (large.input_price_minor_per_mtok as number) + 1 }] }, null, 2));
  expect(await page.getByRole("button", { name: "Apply reviewed changes" }).isDisabled()).toBe(true);
  await page.getByRole("button", { name: "Review changes" }).click();
  await page.locator("#catalog-diff tr", { hasText: "input_price_minor_per_mtok" }).waitFor();
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, "operator-desktop.png"), fullPage: true });
  await page.getByRole("button", { name: "Apply reviewed changes" }).click();
  await page.locator("#catalog-done").waitFor({ state: "visible" });
  await expect(page.locator("#catalog-done").textContent()).resolves.toMatch(/^Applied: the catalog is at version \d+\.$/);
  await eventually(async () => ((await page.locator("#audit").textContent())?.includes("catalog applied") ? true : undefined), 5_000, "the catalog change in the audit log");
  expect(await page.locator("#audit tr", { hasText: "catalog applied" }).textContent()).toContain("model gw-chat-large changed (input_price_minor_per_mtok)");

  await page.setViewportSize({ width: 360, height: 780 });
  expect(await fitsWidth(page)).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, "operator-360px.png"), fullPage: true });
  await context.close();
});

it("signs in by OpenID Connect (authorization code with PKCE) at the organization's issuer: a member's verified address gets a session, an unverified or unknown one none", async () => {
  const [consolePort, port] = [await freePort(), await issuerPort()];
  const publicUrl = `http://127.0.0.1:${consolePort}`;
  const issuer = await startIssuer(port, `${publicUrl}/oidc/callback`);
  const sso = await startConsoleFor(stack, { port: consolePort, oidc: { issuer: issuer.url, clientId: issuer.clientId, clientSecret: issuer.clientSecret, publicUrl } });
  try {
    // Membership is the gateway's: the admin made this address a member; the issuer only proves it.
    await stack.admin.CreateSignInLink({ org: org.orgId, email: "sso-user@example.com", role: "billing" });
    const signInAt = async (login: string) => {
      const context = await browser.newContext({ bypassCSP: true });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(`${publicUrl}/signin`);
      await page.getByRole("link", { name: "Sign in with single sign-on" }).click();
      // The issuer's own login page (oidc-provider's development interaction), then back to the console.
      await page.locator("input[name=login]").fill(login);
      await page.locator("input[name=password]").fill("any");
      await page.locator("button[type=submit]").click();
      await page.waitForURL((u) => u.pathname === "/oidc/callback" || u.pathname === "/");
      return { context, page };
    };

    const { context, page } = await signInAt("sso-user@example.com");
    await page.waitForSelector("body[data-ready='true']");
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.locator("#who").textContent()).resolves.toContain("sso-user@example.com (billing)");
    const cookie = (await context.cookies()).find((c) => c.name === "gw_console");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
    // The attempt's cookie (PKCE verifier, state, nonce) is spent.
    expect((await context.cookies()).some((c) => c.name === "gw_oidc")).toBe(false);
    await page.goto(`${publicUrl}/signin`);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "signin-sso-desktop.png"), fullPage: true });
    await context.close();

    for (const [login, status] of [
      ["unverified-sso-user@example.com", "has not verified"],
      ["stranger@example.com", "is not a console member"],
    ] as const) {
      const attempt = await signInAt(login);
      await expect(attempt.page.locator("body").textContent()).resolves.toContain(status);
      expect((await attempt.context.cookies()).some((c) => c.name === "gw_console")).toBe(false);
      await attempt.context.close();
    }
    // A callback without the attempt's cookie (forged, or replayed elsewhere) signs no one in.
    const forged = await fetch(`${publicUrl}/oidc/callback?code=stolen&state=guessed`, { redirect: "manual" });
    expect(forged.status).toBe(401);
    expect(forged.headers.get("set-cookie") ?? "").not.toContain("gw_console=gws_");
  } finally {
    await sso.close();
    await issuer.close();
  }
});

it("shows an MCP tool call in the request log, its detail naming the server, the tool and the outcome", async () => {
  await stack.admin.EnableMcpServers({ org: org.orgId, servers: ["demo-tools"] });
  // A client per attempt: the servers just enabled reach the data-plane's caches a moment later, and
  // a client connects once.
  const mcp = await eventually(
    async () => {
      const client = new Client({ name: "console-test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(stack.baseUrl().replace(/\/v1$/, "/mcp")), { requestInit: { headers: { authorization: `Bearer ${org.secret}` } } });
      await client.connect(transport);
      if ((await client.listTools()).tools.length) return client;
      await client.close();
      return undefined;
    },
    15_000,
    "the tools visible",
  );
  const r = await mcp.callTool({ name: "demo-tools__echo", arguments: { text: "seen in the console" } });
  const id = (r._meta as Record<string, string>)["gateway/request_id"]!;
  await mcp.close();
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const link = await stack.admin.CreateSignInLink({ org: org.orgId, email: "tools@example.com", role: "viewer" });
  await page.goto(`${console_.url}/signin?token=${link.token}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForSelector("body[data-ready='true']");
  await page.locator("#f-route").selectOption("mcp");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByRole("link", { name: id }).click();
  await page.waitForSelector("body[data-ready='true']");
  const items = (await page.locator("#items").textContent()) ?? "";
  expect(items).toContain("tool_call");
  expect(items).toContain("server: demo-tools");
  expect(items).toContain("tool: echo");
  expect(items).toContain("outcome: ok");
  await expect(page.locator("#attempts").textContent()).resolves.toContain("No upstream attempts recorded");
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, "request-mcp-desktop.png"), fullPage: true });
  await context.close();
});

it("shows a request an input guardrail denied among the organization's requests: status 400, no cost, no provider asked, the rule that denied it", async () => {
  const guarded = await createOrg(stack, { balanceMinor: 1_000_000 });
  await stack.admin.SetGuardrails({ org: guarded.orgId, document: "rules:\n  - plugin: keywords\n    name: no-secrets\n    config: { words: [topsecret] }\n" });
  const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: guarded.secret, maxRetries: 0 });
  const denied = await eventually(
    async () => {
      const e = await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "the topsecret plan" }] }).catch((err: unknown) => err);
      return e instanceof OpenAI.BadRequestError && e.code === "guardrail_denied" ? e : undefined;
    },
    15_000,
    "the rule in force",
  );
  const id = denied.headers!.get("x-gateway-trace-id")!;
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const link = await stack.admin.CreateSignInLink({ org: guarded.orgId, email: "auditor@example.com", role: "viewer" });
  await page.goto(`${console_.url}/signin?token=${link.token}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForSelector("body[data-ready='true']");
  // The overview's count of the rule's outcomes has the denial (from its record).
  await expect(page.locator("#guardrails tr", { hasText: "no-secrets" }).textContent()).resolves.toMatch(/keywords.*deny.*input.*0\s*1\s*0\s*0\s*0/);
  await page.locator("#f-status").fill("400");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByRole("link", { name: id }).click();
  await page.waitForSelector("body[data-ready='true']");
  await expect(page.locator("#summary").textContent()).resolves.toContain("400");
  await expect(page.locator("#attempts").textContent()).resolves.toContain("a guardrail rule denied the request before any provider was asked");
  await expect(page.locator("#guardrails").textContent()).resolves.toContain("no-secrets: denied");
  // Nothing was counted or billed, and the page says so rather than crediting the provider or leaving a blank table.
  await expect(page.locator("#tokens").textContent()).resolves.toContain("nobody (no provider was asked)");
  await expect(page.locator("#items").textContent()).resolves.toContain("None: nothing was billed.");
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, "request-denied-desktop.png"), fullPage: true });
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await fitsWidth(page)).toBe(true);
  await page.screenshot({ path: join(ARTIFACTS, "request-denied-360px.png"), fullPage: true });
  await context.close();
});
