import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import OpenAI from "openai";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleServer } from "@gateway/console";
import type { UsageRecord } from "@gateway/proto";
import { eventually, freePort } from "@gateway/testing";
import { atBothWidths, atDesktop, axeViolations, fitsWidth, launchBrowser, open, ready, rendered, screenshot, signIn, WIDTHS } from "../support/browser.ts";
import { consoleServiceEnv, startConsoleFor } from "../support/console.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { issuerPort, startIssuer } from "../support/oidc-issuer.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * The console in a real browser, read on screen at 1280 and 360 px (docs/console.md): signing in by
 * link and by OpenID Connect; every action answering beside its control (cleared by the next one),
 * irreversible ones asking first, forms emptied after success; the last admin kept; money in the
 * operator's format with every kind of price; the operator's price form reviewed in credits; the
 * request log, the charts (spend, requests, tokens, errors, p95 latency, cache hits), a key's and an
 * organization's pages; budgets set on their pages and read back with their window's spend and
 * reset, alerts listed after spending across their thresholds, the webhook's secret shown once;
 * navigation, charts that follow a resize and the dark scheme, styled notice pages. axe-core finds
 * nothing moderate or worse on any page, no page breaks its Content-Security-Policy, and screenshots
 * go to test-artifacts/console/.
 *
 * One browser for the file. The money format's test runs alone (the format is every page's), while
 * the traffic the other pages show is made side by side (each flow awaits its own); then every other
 * flow runs side by side, each in an organization of its own, but the organization's admin's three
 * flows, which go on one after another in one page signed in once by its link. The operator signs in
 * once (the money test) for the catalog and top-up flow. Every kind of page is read at 360 px at least
 * once (atBothWidths); a page kind read again in another state is read at 1280 px (atDesktop).
 */
let stack: Stack;
let console_: ConsoleServer;
let browser: Browser;
let org: TestOrg;
/** The request made through the OpenAI SDK, with its trace id and what it cost. */
let made: { id: string; trace: string; cost: number };
/** `org`'s records: the SDK's request, one the provider refused, one read from its prompt cache, a slow one. */
let records: UsageRecord[];
/** The organization's admin (signed in by its link in the first of its flows) and the operator (in the money test), each one page its flows go on in. */
let admin: { context: BrowserContext; page: Page };
let ops: { context: BrowserContext; page: Page };
/** Organizations whose traffic is made up front: the debugging flow's, an MCP tool call's, a guardrail denial's. */
let debug: { o: TestOrg; keyId: string; ids: string[] };
let tool: { o: TestOrg; id: string };
let guard: { o: TestOrg; id: string };
/** The traffic above, being made: a flow awaits what it reads. */
let traffic: Record<"org" | "debug" | "tool" | "guard", Promise<void>>;
/** A promise awaited later (a failure is its flow's, not an unhandled rejection meanwhile). */
const settled = (p: Promise<void>) => {
  p.catch(() => undefined);
  return p;
};
/** What a page broke of its Content-Security-Policy (the browser's console errors saying so). */
const cspViolations: string[] = [];

const sdk = (secret: string) => new OpenAI({ baseURL: stack.baseUrl(), apiKey: secret, maxRetries: 0 });
const listAll = (orgId: string) => stack.ledgerClient.ListUsage({ org_id: orgId, key_id: "", model: "", route: "", status: 0, from_ms: 0, to_ms: 0, limit: 50, cursor: "" });
/** Until the ledger has `n` records of the organization. */
const applied = (orgId: string, n: number) =>
  eventually(
    async () => {
      const r = await listAll(orgId);
      return r.records.length === n ? r.records : undefined;
    },
    15_000,
    `${n} records of ${orgId}`,
  );

/** `org`'s traffic: the SDK's request, one the provider refuses (an error), one read from its prompt cache, a slow one. */
async function orgTraffic(): Promise<void> {
  const client = sdk(org.secret);
  const chat = (model: string, content: string) => client.chat.completions.create({ model, messages: [{ role: "user", content }] });
  const [{ response }] = await Promise.all([
    chat("gw-chat-mini", "hello from the browser test").withResponse(),
    chat("gw-chat-mini", "refused upstream [[fake:status=400]]").catch((e: unknown) => e),
    chat("gw-chat-large", "[[fake:cached=12]] a prompt mostly read from the provider's prompt cache"),
    chat("gw-chat-large", "[[fake:delay=400]] a slow answer"),
  ]);
  const id = response.headers.get("x-request-id")!;
  records = await applied(org.orgId, 4);
  made = { id, trace: response.headers.get("x-gateway-trace-id")!, cost: records.find((r) => r.request_id === id)!.cost_minor };
}

/** The debugging flow's organization: a named key with a budget, three requests (two of it). */
async function debugTraffic(): Promise<void> {
  const o = await createOrg(stack, { balanceMinor: 5_000_000 });
  const named = await stack.admin.CreateKey({ org: o.orgId, name: "checkout-service", routes: [], models: [], mcp_tools: [] });
  await stack.admin.SetKeyBudget({ key_id: named.key!.id, limit_minor: 5_000_000, window: "day", tags: { tags: ["checkout"] } });
  const ids: string[] = [];
  // One after another: the log's order is theirs.
  for (const [secret, model] of [
    [named.secret, "gw-chat-large"],
    [named.secret, "gw-chat-mini"],
    [o.secret, "gw-chat-mini"],
  ] as const) {
    const { response } = await sdk(secret)
      .chat.completions.create({ model, messages: [{ role: "user", content: "debug me" }] })
      .withResponse();
    ids.push(response.headers.get("x-request-id")!);
  }
  await applied(o.orgId, 3);
  debug = { o, keyId: named.key!.id, ids };
}

/** An MCP tool call through the gateway. */
async function toolTraffic(): Promise<void> {
  const o = await createOrg(stack, { balanceMinor: 1_000_000 });
  await stack.admin.EnableMcpServers({ org: o.orgId, servers: ["demo-tools"] });
  // A client per attempt: the servers just enabled reach the data-plane's caches a moment later, and
  // a client connects once.
  const mcp = await eventually(
    async () => {
      const client = new Client({ name: "console-test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(stack.baseUrl().replace(/\/v1$/, "/mcp")), { requestInit: { headers: { authorization: `Bearer ${o.secret}` } } });
      await client.connect(transport);
      if ((await client.listTools()).tools.length) return client;
      await client.close();
      return undefined;
    },
    15_000,
    "the tools visible",
  );
  const r = await mcp.callTool({ name: "demo-tools__echo", arguments: { text: "seen in the console" } });
  await mcp.close();
  tool = { o, id: (r._meta as Record<string, string>)["gateway/request_id"]! };
  await applied(o.orgId, 1);
}

/** A request an input guardrail denies. */
async function guardrailTraffic(): Promise<void> {
  const o = await createOrg(stack, { balanceMinor: 1_000_000 });
  await stack.admin.SetGuardrails({ org: o.orgId, document: "rules:\n  - plugin: keywords\n    name: no-secrets\n    config: { words: [topsecret] }\n" });
  const openai = sdk(o.secret);
  const denied = await eventually(
    async () => {
      const e = await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "the topsecret plan" }] }).catch((err: unknown) => err);
      return e instanceof OpenAI.BadRequestError && e.code === "guardrail_denied" ? e : undefined;
    },
    15_000,
    "the rule in force",
  );
  guard = { o, id: denied.headers!.get("x-gateway-trace-id")! };
  await applied(o.orgId, 1);
}

beforeAll(async () => {
  // A webhook on the loopback is allowed (the alerts page's receiver; tests only).
  stack = await startStack("console_browser", { serviceEnv: { ...consoleServiceEnv, CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1" } });
  [console_, org, browser] = await Promise.all([
    startConsoleFor(stack),
    createOrg(stack, { balanceMinor: 7_000_000, models: ["gw-chat-mini", "gw-chat-large", "gw-claude", "gw-image", "gw-video"] }),
    launchBrowser(),
  ]);
  // Made while the money test runs (it needs none of it); each flow waits for its own.
  traffic = { org: settled(orgTraffic()), debug: settled(debugTraffic()), tool: settled(toolTraffic()), guard: settled(guardrailTraffic()) };
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(Object.values(traffic ?? {}));
  await browser?.close();
  await console_?.close();
  await stack?.stop();
  // Every page ran under its CSP (no bypass): nothing it does may be refused by it.
  expect(cspViolations).toEqual([]);
});

/** A page in a fresh browser context, its CSP refusals collected. */
async function newPage(options: Parameters<Browser["newContext"]>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: WIDTHS[0][1], ...options });
  const page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error" && m.text().includes("Content Security Policy")) cspViolations.push(m.text());
  });
  return { context, page };
}

const as = (page: Page, orgId: string, email: string, role: "admin" | "billing" | "viewer" | "operator", then?: string) => signIn(page, stack, console_, { org: orgId, email, role }, then);
const url = (path: string) => `${console_.url}${path}`;
const text = async (page: Page, selector: string) => (await page.locator(selector).first().textContent()) ?? "";

it("money reads one way everywhere: every kind of price in the operator's format — per image size and quality, per video second and resolution, per search, per tool call — and the operator's change of the format reaches every page", async () => {
  // A price per call for the demo server's echo tool (the catalog's MCP servers are the operator's JSON).
  const doc = JSON.parse((await stack.admin.GetCatalogDocument({})).document_json) as { mcp_servers: Array<{ name: string; tools: Array<{ name: string; price_minor: number }> }> };
  const demo = doc.mcp_servers.find((s) => s.name === "demo-tools")!;
  await stack.admin.ApplyCatalog({ document_json: JSON.stringify({ mcp_servers: [{ ...demo, tools: demo.tools.map((t) => (t.name === "echo" ? { ...t, price_minor: 2_000 } : t)) }] }) });
  await stack.admin.EnableMcpServers({ org: org.orgId, servers: ["demo-tools"] });
  const { context, page } = await newPage();
  await as(page, org.orgId, "prices@example.com", "viewer", "/models");
  const card = (id: string) => page.locator("article.model", { has: page.getByRole("heading", { name: id, exact: true }) });
  await atBothWidths(page, "models", async () => {
    await expect(rendered(card("gw-image").locator("tbody"))).resolves.toContain("Image, 1024x1024, hd\t0.08 credits\tper image");
    await expect(rendered(card("gw-video").locator("tbody"))).resolves.toContain("Video, 720p\t0.10 credits\tper second");
    await expect(rendered(card("gw-claude").locator("tbody"))).resolves.toContain("Web search\t0.01 credits\tper search");
    await expect(rendered(card("gw-chat-mini").locator("tbody"))).resolves.toContain("Cached input\t0.075 credits\tper 1M tokens");
    await expect(rendered(page.locator("#tools tr").filter({ has: page.getByRole("cell", { name: "echo", exact: true }) }))).resolves.toBe("demo-tools\techo\t0.002 credits");
  });

  // The operator shows money with 3 decimals as "cr": the organization's pages follow at once.
  // The operator signs in once: its start page is the organizations; the tests that follow go on in this page.
  ops = await newPage();
  await as(ops.page, "", "operator@example.com", "operator");
  expect(new URL(ops.page.url()).pathname).toBe("/operator");
  await open(ops.page, url("/operator/settings"));
  await ops.page.getByLabel("Decimals").selectOption("3");
  await ops.page.getByLabel("Unit after an amount").fill("cr");
  await expect(text(ops.page, "#money-example")).resolves.toBe("1,234.568 cr");
  await ops.page.getByRole("button", { name: "Save" }).click();
  await atBothWidths(ops.page, "operator-settings", async () => {
    await expect(ops.page.locator("#money").getByRole("status").textContent()).resolves.toBe("Saved: every page shows money like 1,234.568 cr.");
  });
  try {
    await page.reload();
    await ready(page);
    await expect(rendered(card("gw-image").locator("tbody"))).resolves.toContain("Image, 1024x1024, hd\t0.080 cr\tper image");
    await open(page, url("/"));
    await expect(text(page, "#credits dd")).resolves.toMatch(/^\d+\.\d{3} cr$/);
    await screenshot(page, "overview-money-format-desktop");
  } finally {
    await ops.page.getByLabel("Decimals").selectOption("2");
    await ops.page.getByLabel("Unit after an amount").fill("credits");
    await ops.page.getByRole("button", { name: "Save" }).click();
    await ops.page.locator("#money").getByRole("status").waitFor();
  }
  await context.close();
});

// Every other flow side by side (the money format above is every page's: it changes nothing while they run).
describe.concurrent("side by side", () => {
  // The organization's admin signed in once by its link; its page's flows one after another, beside the others.
  describe.concurrent("the organization's admin", () => {
    it.sequential("signs in by link to an overview of credits and charts; the log shows the SDK's request with its key, latency and status, and its page what it cost; accessible at 1280 and 360 px", async () => {
      await traffic.org;
      const credits = (await (await fetch(`${stack.baseUrl()}/credits`, { headers: { authorization: `Bearer ${org.secret}` } })).json()) as { balance_minor: number };
      admin = await newPage();
      const { context, page } = admin;
      const link = await stack.admin.CreateSignInLink({ org: org.orgId, email: "browser@example.com", role: "admin" });
      await page.goto(url(`/signin?token=${link.token}`));
      await atBothWidths(page, "signin");
      await page.getByRole("button", { name: "Sign in" }).click();
      await ready(page);
      expect(new URL(page.url()).pathname).toBe("/");
      expect(Number(await page.locator("#credits dd").first().getAttribute("data-minor"))).toBe(credits.balance_minor);
      await atBothWidths(page, "overview", async () => {
        await expect(text(page, "#credits")).resolves.toContain(`Balance${(credits.balance_minor / 1e6).toFixed(2)} credits`);
        await expect(text(page, "#chart-requests-title")).resolves.toBe("Requests per hour by model, last 7 days");
        // Its two requests, one of them refused by the provider (an error).
        await expect(rendered(page.locator("#usage-totals tr", { hasText: "gw-chat-mini" }))).resolves.toMatch(/^gw-chat-mini\t2\t1\t/);
      });
      const cookie = (await context.cookies()).find((c) => c.name === "gw_console");
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });

      // The log: the request with its key's name (not its id), its status and latency.
      await page.getByRole("link", { name: "Requests", exact: true }).click();
      await ready(page);
      const logged = page.locator("#requests tr", { hasText: made.id });
      await atBothWidths(page, "requests", async () => {
        const cells = await logged.locator("td").allTextContents();
        expect(cells.slice(2, 6)).toEqual(["test", "gw-chat-mini", "chat", "200"]);
        expect(cells[6]).toMatch(/^\d[\d,]*(\.\d)? m?s$/);
      });
      // Its page, from its row; and found by its trace id at 360 px.
      await logged.getByRole("link", { name: made.id }).click();
      await ready(page);
      await atBothWidths(page, "request", async () => {
        expect(Number(await page.locator("#summary dd").first().getAttribute("data-minor"))).toBe(made.cost);
        await expect(text(page, "#attempts")).resolves.toContain("served");
      });
      await page.setViewportSize(WIDTHS[1][1]);
      await open(page, url("/requests"));
      await page.getByLabel("Trace id (x-gateway-trace-id or x-request-id)").fill(made.trace);
      await page.getByRole("button", { name: "Open request" }).click();
      await ready(page);
      await expect(text(page, "#title")).resolves.toBe(`Request ${made.id}`);
      await page.setViewportSize(WIDTHS[0][1]);
    }, 60_000);

    it.sequential("charts errors, p95 latency and cache hits by model beside spend, requests and tokens: each drawn, its window's figures said under it and in the totals, and readable in the dark scheme", async () => {
      await traffic.org;
      const { page } = admin;
      await open(page, url("/"));
      const ofModel = (m: string) => records.filter((r) => r.model === m);
      const sum = (m: string, f: (r: UsageRecord) => number) => ofModel(m).reduce((n, r) => n + f(r), 0);
      const share = (m: string) => {
        const v = (100 * sum(m, (r) => r.cached_input_tokens)) / sum(m, (r) => r.input_tokens);
        return `${v.toFixed(v > 0 && v < 10 ? 1 : 0)} %`;
      };
      expect(sum("gw-chat-large", (r) => r.cached_input_tokens)).toBeGreaterThan(0);
      for (const [id, title] of [
        ["spend", "Spend"],
        ["requests", "Requests"],
        ["tokens", "Tokens (input + output)"],
        ["errors", "Errors"],
        ["latency", "p95 latency"],
        ["cache", "Cache hits (share of input tokens)"],
      ] as const) {
        await expect(text(page, `#chart-${id}-title`)).resolves.toBe(`${title} per hour by model, last 7 days`);
        expect(await page.locator(`#chart-${id} canvas`).count()).toBe(1);
        await expect(rendered(page.locator(`#chart-${id} .u-legend`))).resolves.toMatch(/gw-chat-large[\s\S]*gw-chat-mini/);
      }
      // Errors: the request the provider refused, of the two of each model.
      await expect(text(page, "#chart-errors-summary")).resolves.toBe("In 7 days: gw-chat-large 0 of 2; gw-chat-mini 1 of 2.");
      // Cache hits: the share of each model's input tokens read from the provider's prompt cache.
      await expect(text(page, "#chart-cache-summary")).resolves.toBe(`In 7 days: gw-chat-large ${share("gw-chat-large")}; gw-chat-mini ${share("gw-chat-mini")}.`);
      // p95 latency: gw-chat-large's slow request (~400 ms), read within the histogram's bucket of its duration.
      // Said in ms under a second, else in seconds to a tenth (a loaded machine makes the slow one slower).
      const latency = (await text(page, "#chart-latency-summary")).match(/gw-chat-large (\d+(?:\.\d)?) (ms|s)\b/);
      const latencyMs = latency?.[2] === "s" ? Number(latency[1]) * 1_000 : Number(latency?.[1]);
      const slowest = Math.max(...ofModel("gw-chat-large").map((r) => r.duration_ms));
      expect(slowest).toBeGreaterThanOrEqual(400);
      expect(latencyMs).toBeGreaterThanOrEqual(Math.floor(slowest / 1.7) - 50);
      expect(latencyMs).toBeLessThanOrEqual(Math.ceil(slowest * 1.7) + 50);
      // The totals say the same, a column each.
      await expect(rendered(page.locator("#usage-totals").locator("..").locator("thead tr"))).resolves.toBe("Model\tRequests\tErrors\tp95 latency\tCache hits\tInput tokens\tOutput tokens\tSpend");
      await expect(rendered(page.locator("#usage-totals tr", { hasText: "gw-chat-large" }))).resolves.toMatch(
        new RegExp(`^gw-chat-large\\t2\\t0\\t${latency?.[1]} ${latency?.[2]}\\t${share("gw-chat-large")}\\t`),
      );
      await expect(rendered(page.locator("#usage-totals tr", { hasText: "gw-chat-mini" }))).resolves.toMatch(/^gw-chat-mini\t2\t1\t\d+(\.\d)? m?s\t0 %\t/);
      // The dark scheme: every chart drawn again in its colors; the words under them pass axe's contrast check.
      await page.emulateMedia({ colorScheme: "dark" });
      for (const id of ["spend", "requests", "tokens", "errors", "latency", "cache"]) {
        await eventually(async () => ((await page.locator(`#chart-${id}`).getAttribute("data-scheme")) === "dark" ? true : undefined), 5_000, `the ${id} chart in the dark scheme`);
      }
      await atDesktop(page, "overview-dark", async () => {
        await expect(text(page, "#chart-errors-summary")).resolves.toBe("In 7 days: gw-chat-large 0 of 2; gw-chat-mini 1 of 2.");
      });
      await page.emulateMedia({ colorScheme: "light" });
      await eventually(async () => ((await page.locator("#chart-latency").getAttribute("data-scheme")) === "light" ? true : undefined), 5_000, "the charts light again");
    }, 60_000);

    it.sequential("pages have their own URLs and a navigation; a chart follows a window resize; a missing page, a spent link and a sign-out each get a page of their own; the console has an icon", async () => {
      await traffic.org;
      // The admin's page, signed in by the first test: the last to use it (it signs out).
      const { context, page } = admin;
      await open(page, url("/"));
      for (const [name, path] of [
        ["Keys", "/keys"],
        ["Models", "/models"],
        ["Guardrails", "/guardrails"],
        ["Overview", "/"],
      ] as const) {
        const nav = page.getByRole("navigation", { name: "Console" });
        await nav.getByRole("link", { name, exact: true }).click();
        await ready(page);
        expect(new URL(page.url()).pathname).toBe(path);
        await expect(nav.getByRole("link", { name, exact: true }).getAttribute("aria-current")).resolves.toBe("page");
      }
      // The chart follows the window: narrower at 360 px, wide again at 1280.
      const width = () => page.locator("#chart-spend canvas").evaluate((c) => (c as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width);
      const wide = await width();
      expect(wide).toBeGreaterThan(400);
      await page.setViewportSize(WIDTHS[1][1]);
      await eventually(async () => ((await width()) < 340 ? true : undefined), 5_000, "the chart narrower");
      await page.setViewportSize(WIDTHS[0][1]);
      await eventually(async () => ((await width()) === wide ? true : undefined), 5_000, "the chart wide again");
      // (The dark scheme: the charts test above.)

      // The icon, in every page's head and where browsers ask for it.
      expect(await page.locator("link[rel=icon]").getAttribute("href")).toBe("/assets/web/favicon.svg");
      const icon = await fetch(url("/favicon.ico"));
      expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);

      // A missing page: styled, says so, links back.
      const missing = await page.goto(url("/no-such-page"));
      expect(missing?.status()).toBe(404);
      await atBothWidths(page, "notice-not-found", async () => {
        await expect(text(page, "h1")).resolves.toBe("Page not found");
        await expect(page.locator("main").evaluate((m) => (m as unknown as { className: string }).className)).resolves.toBe("notice");
      });
      // A spent sign-in link: a page that says what happened and where to go.
      const spent = await stack.admin.CreateSignInLink({ org: org.orgId, email: "browser@example.com", role: "admin" });
      await stack.admin.RedeemSignInLink({ token: spent.token });
      const other = await newPage();
      await other.page.goto(url(`/signin?token=${spent.token}`));
      await other.page.getByRole("button", { name: "Sign in" }).click();
      await other.page.getByRole("heading", { name: "This sign-in link does not work" }).waitFor();
      await atDesktop(other.page, "notice-spent-link", async () => {
        await expect(text(other.page, "main p")).resolves.toContain("This sign-in link is not valid");
      });
      await other.context.close();
      // Signing out lands on the sign-in page, which says so; the console then sends to sign in.
      await open(page, url("/"));
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(url("/signin"));
      await atDesktop(page, "signed-out", async () => {
        await expect(page.getByRole("status").textContent()).resolves.toBe("You are signed out.");
      });
      await page.goto(url("/keys"));
      expect(new URL(page.url()).pathname).toBe("/signin");
      await context.close();
    }, 60_000);
  });

  it("the log as a person debugging uses it: models and keys from dropdowns, a period preset, the filter in the URL; a key's page with its usage and newest requests; charts by key name", async () => {
    await traffic.debug;
    const { o, ids } = debug;
    const named = { key: { id: debug.keyId } };
    const { context, page } = await newPage();
    await as(page, o.orgId, "debugger@example.com", "viewer", "/requests");
    await page.getByLabel("Key").selectOption({ label: "checkout-service" });
    await page.getByLabel("Model", { exact: true }).selectOption("gw-chat-mini");
    await page.getByLabel("Period").selectOption({ label: "last hour" });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.poll(() => page.locator("#requests tr").count()).toBe(1);
    expect(new URL(page.url()).search).toBe(`?period=1h&model=gw-chat-mini&key=${named.key!.id}`);
    await atDesktop(page, "requests-filtered", async () => {
      await expect(rendered(page.locator("#requests tr"))).resolves.toContain(`${ids[1]}\tcheckout-service\tgw-chat-mini\tchat\t200`);
    });
    // The filter is the page's URL: reloading it keeps the filter.
    await page.reload();
    await ready(page);
    await expect(page.getByLabel("Key").inputValue()).resolves.toBe(named.key!.id);
    await expect(page.locator("#requests tr").count()).resolves.toBe(1);

    // The overview by key: the charts' legends and the totals name the keys.
    await open(page, url("/"));
    await page.getByLabel("By", { exact: true }).selectOption("key");
    await page.locator("#usage-totals tr", { hasText: "checkout-service" }).waitFor();
    await atDesktop(page, "overview-by-key", async () => {
      await expect(rendered(page.locator("#chart-requests .u-legend"))).resolves.toContain("checkout-service");
      await expect(rendered(page.locator("#chart-latency .u-legend"))).resolves.toContain("checkout-service");
      await expect(text(page, "#chart-errors-title")).resolves.toBe("Errors per hour by key, last 7 days");
      await expect(text(page, "#chart-errors-summary")).resolves.toMatch(/^In 7 days: checkout-service 0 of 2; test 0 of 1\.$/);
      await expect(text(page, "#chart-latency-summary")).resolves.toMatch(/^In 7 days: checkout-service \d+(\.\d)? m?s; test \d+(\.\d)? m?s\.$/);
      await expect(text(page, "#chart-cache-summary")).resolves.toBe("In 7 days: checkout-service 0 %; test 0 %.");
      await expect(rendered(page.locator("#usage-totals tr", { hasText: "checkout-service" }))).resolves.toMatch(/^checkout-service\t2\t0\t\d+(\.\d)? m?s\t0 %\t/);
    });

    // The key's page: what it is, its usage, its newest requests, and every one of them in the log.
    await open(page, url("/keys"));
    await page.getByRole("link", { name: "checkout-service" }).click();
    await ready(page);
    await atBothWidths(page, "key", async () => {
      await expect(text(page, "h1")).resolves.toBe("checkout-service");
      await expect(text(page, "#key-totals")).resolves.toContain("Requests2");
      // Its limits and budget: the day's cap in credits, its tags.
      await expect(text(page, "#facts")).resolves.toMatch(/Budget5\.00 credits a dayThis window\d+\.\d{2} credits spent, /);
      await expect(text(page, "#facts")).resolves.toContain("Tagscheckout");
      await expect(page.locator("#recent tr").count()).resolves.toBe(2);
      // Its charts by model, errors, latency and cache hits among them.
      await expect(text(page, "#chart-requests-title")).resolves.toBe("Requests per day by model, last 30 days");
      await expect(text(page, "#chart-requests-summary")).resolves.toBe("In 30 days: gw-chat-large 1; gw-chat-mini 1.");
      await expect(text(page, "#chart-errors-summary")).resolves.toBe("In 30 days: gw-chat-large 0 of 1; gw-chat-mini 0 of 1.");
      await expect(text(page, "#chart-latency-summary")).resolves.toMatch(/^In 30 days: gw-chat-large \d+(\.\d)? m?s; gw-chat-mini \d+(\.\d)? m?s\.$/);
      expect(await page.locator("#chart-cache canvas").count()).toBe(1);
    });
    await page.getByRole("link", { name: "Every request of this key" }).click();
    await ready(page);
    expect(new URL(page.url()).search).toBe(`?key=${named.key!.id}`);
    await expect(page.locator("#requests tr").count()).resolves.toBe(2);
    await context.close();
  }, 60_000);

  it("the only admin cannot remove itself or become a viewer; the organization's cap reads and refuses in credits; the audit log says who changed what", async () => {
    const o = await createOrg(stack, { balanceMinor: 1_000_000 });
    const { context, page } = await newPage();
    await as(page, o.orgId, "boss@example.com", "admin", "/members");
    // Removing itself, the only admin: asked first, then refused beside the button.
    await page.getByRole("button", { name: "Remove boss@example.com" }).click();
    await page.getByRole("dialog", { name: "Remove yourself?" }).getByRole("button", { name: "Remove member" }).click();
    const refusal = page.locator("#members tr.feedback-row").getByRole("alert");
    await atBothWidths(page, "members-last-admin", async () => {
      await refusal.waitFor();
      await expect(refusal.textContent()).resolves.toBe("boss@example.com is the organization's only admin and cannot be removed: make another member an admin first.");
    });
    // Making itself a viewer through the invitation form: refused beside the form, which keeps what was typed.
    await page.setViewportSize(WIDTHS[1][1]);
    await page.getByLabel("Email").fill("boss@example.com");
    await page.getByLabel("Role").selectOption("viewer");
    await page.getByRole("button", { name: "Invite" }).click();
    await expect(page.locator("#invite").getByRole("alert").textContent()).resolves.toBe(
      "boss@example.com is the organization's only admin and cannot become a viewer: make another member an admin first.",
    );
    expect(await refusal.count()).toBe(0);
    expect(await page.getByLabel("Email").inputValue()).toBe("boss@example.com");
    await screenshot(page, "members-demote-refused-360px");
    await page.getByLabel("Email").fill("deputy@example.com");
    await page.getByRole("button", { name: "Invite" }).click();
    await expect(page.locator("#invite").getByRole("status").textContent()).resolves.toBe("Invited deputy@example.com as viewer: send the link below.");
    await expect(text(page, "#invite-link")).resolves.toMatch(/\/signin\?token=gwl_/);
    await page.locator("#members tr", { hasText: "deputy@example.com" }).waitFor();

    // The organization's cap: an amount that is not one is refused in credits; a good one reads back in credits.
    await open(page, url("/budget"));
    const cap = page.getByLabel(/^Organization's cap/);
    for (const [width, viewport] of WIDTHS) {
      await page.setViewportSize(viewport);
      await cap.fill("-3");
      await page.getByRole("button", { name: "Save organization budget" }).click();
      await expect(page.locator("#org-budget").getByRole("alert").textContent()).resolves.toBe(
        "The organization's cap must be an amount in credits such as 12.50, with at most 6 decimals (0: no cap).",
      );
      await cap.fill(width === "desktop" ? "12.5" : "1,000");
      await page.getByRole("button", { name: "Save organization budget" }).click();
      const amount = width === "desktop" ? "12.50" : "1,000.00";
      await expect(page.locator("#org-budget").getByRole("status").textContent()).resolves.toMatch(new RegExp(`^Saved: ${amount} credits a month, windows from midnight in UTC; it resets `));
      // A setting's form keeps the setting as it now is.
      expect(await cap.inputValue()).toBe(width === "desktop" ? "12.5" : "1,000");
      await expect(text(page, "#org-now")).resolves.toContain(`Cap${amount} credits a month`);
      await screenshot(page, `budget-${width}`);
    }
    await page.getByRole("link", { name: "Audit log" }).click();
    await ready(page);
    await atBothWidths(page, "audit", async () => {
      await expect(text(page, "#audit")).resolves.toContain("member invited");
      await expect(text(page, "#audit tr:first-child")).resolves.toContain("budget: 1,000.00 credits a month");
    });
    await context.close();
  }, 60_000);

  it("a billing member sets the organization's zone and cap, end users' source and default, a named end user's cap (refused beside its form, removed after confirming), a project and a key's budget on its page; each reads back with its window's spend and its reset in the organization's zone", async () => {
    const o = await createOrg(stack, { balanceMinor: 5_000_000 });
    const { context, page } = await newPage();
    await as(page, o.orgId, "budgets@example.com", "billing", "/budget");
    const said = (form: string, role: "status" | "alert") => page.locator(form).getByRole(role).textContent();
    // The organization: Paris time, 50 credits a month; its end users from the header, 1 credit a day each.
    await page.getByLabel("Time zone (IANA, such as Europe/Paris)").fill("Europe/Paris");
    await page.getByLabel(/^Organization's cap/).fill("50");
    await page.getByRole("button", { name: "Save organization budget" }).click();
    await expect(said("#org-budget", "status")).resolves.toMatch(/^Saved: 50\.00 credits a month, windows from midnight in Europe\/Paris; it resets [A-Z][a-z]{2} 1, \d{4}, 12:00\sAM\.$/);
    await page.getByLabel("Read end users from").selectOption("header");
    await page.getByLabel(/^End users' default cap/).fill("1");
    await page.getByLabel("End users' window").selectOption("day");
    await page.getByRole("button", { name: "Save end-user settings" }).click();
    await expect(said("#end-user-settings", "status")).resolves.toBe("Saved: each end user may spend 1.00 credits a day unless it has a cap of its own.");
    // A named end user's cap: not an amount, refused beside its form in credits; then set.
    await page.getByLabel("End user", { exact: true }).fill("alice@example.com");
    await page.getByLabel(/^End user's cap/).fill("2.5.0");
    await page.getByRole("button", { name: "Set end user's cap" }).click();
    await expect(said("#end-user", "alert")).resolves.toBe("The end user's cap must be an amount in credits such as 12.50, with at most 6 decimals (0: no cap for this end user).");
    expect(await page.getByLabel("End user", { exact: true }).inputValue()).toBe("alice@example.com");
    await page.getByLabel(/^End user's cap/).fill("2.5");
    await page.getByRole("button", { name: "Set end user's cap" }).click();
    await expect(said("#end-user", "status")).resolves.toBe("Saved: alice@example.com may spend 2.50 credits a day.");
    expect(await page.locator("#end-user").getByRole("alert").count()).toBe(0);
    await page.getByLabel("New project's name").fill("search");
    await page.getByLabel(/^New project's cap/).fill("10");
    await page.getByLabel("New project's window").selectOption("week");
    await page.getByRole("button", { name: "Create project" }).click();
    await expect(said("#new-project", "status")).resolves.toBe("Created search (10.00 credits a week): put keys in it on their pages.");

    // The key's cap, window, project and tags on its page.
    await page.locator("#key-budgets").getByRole("link", { name: "test" }).click();
    await ready(page);
    await page.getByLabel(/^Key's cap/).fill("3");
    await page.getByLabel("Key's window").selectOption("day");
    await page.getByLabel("Project", { exact: true }).selectOption({ label: "search" });
    await page.getByLabel(/^Tags/).fill("team:search, eval");
    await page.getByRole("button", { name: "Save key budget" }).click();
    await expect(said("#key-budget", "status")).resolves.toBe("Saved: 3.00 credits a day, in project search, tagged team:search, eval.");
    await expect(text(page, "#facts")).resolves.toMatch(/Budget3\.00 credits a dayThis windownothing spent yet; resets .+, 12:00\sAM \(Europe\/Paris\)Projectsearch/);
    await expect(text(page, "#facts")).resolves.toContain("Tagsteam:search, eval");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "key-budget-desktop");

    // Alice spends through the SDK: her window, the key's, the project's and the organization's show it, each resetting at midnight in Paris.
    const alice = new OpenAI({ baseURL: stack.baseUrl(), apiKey: o.secret, maxRetries: 0, defaultHeaders: { "x-gateway-end-user": "alice@example.com" } });
    await alice.chat.completions.create({ model: "gw-chat-large", messages: [{ role: "user", content: "spend ".repeat(2_000) }], max_tokens: 16 });
    const aliceRow = page.locator("#end-users tr", { hasText: "alice@example.com" });
    // Once her spend is at the ledger (asked there: reloading the page to find out drew it again and again).
    await eventually(
      async () => ((await stack.ledgerClient.ListBudgets({ org_id: o.orgId, scope: "" })).windows.some((w) => w.scope.includes("alice@example.com") && w.spent_minor > 0) ? true : undefined),
      15_000,
      "alice's window at the ledger",
    );
    await open(page, url("/budget"));
    expect(await rendered(aliceRow)).not.toContain("none yet");
    const spent = "\\d+\\.\\d{2} credits";
    const midnight = "[A-Z][a-z]{2} \\d+, \\d{4}, 12:00\\sAM";
    // The budget page at 360 px: the organization's cap in the test above.
    await atDesktop(page, "budgets", async () => {
      await expect(text(page, "#org-now")).resolves.toMatch(/^Time zoneEurope\/ParisCap50\.00 credits a monthSpent in this window\d+\.\d{2} credits/);
      await expect(rendered(aliceRow)).resolves.toMatch(new RegExp(`^alice@example\\.com\\t2\\.50 credits a day\\t${spent}\\t${spent}\\t${midnight}\\t`));
      await expect(rendered(page.locator("#projects tr"))).resolves.toMatch(new RegExp(`^search\\t1\\t10\\.00 credits a week\\t${spent}\\t${spent}\\t${midnight}$`));
      await expect(rendered(page.locator("#key-budgets tr"))).resolves.toMatch(new RegExp(`^test\\t3\\.00 credits a day\\t${spent}\\t${spent}\\t${midnight}\\tsearch\\tteam:search, eval$`));
    });
    // Removing alice's own cap asks first; she has the default cap afterwards.
    await page.getByRole("button", { name: "Remove alice@example.com's own cap" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove alice@example.com's own cap?" });
    await expect(dialog.textContent()).resolves.toContain("falls back to the end users' default cap (1.00 credits a day)");
    await dialog.getByRole("button", { name: "Remove cap" }).click();
    await expect(page.locator("#end-users tr.feedback-row").getByRole("status").textContent()).resolves.toBe("Removed: alice@example.com has the default cap now (1.00 credits a day).");
    expect((await stack.admin.ListEndUserBudgets({ org: o.orgId })).end_users).toEqual([]);
    await context.close();
  }, 60_000);

  it("an operator edits a model's prices in a form per field, reviews the difference in credits and applies it, audited; tops up an organization once, after confirming — at 1280 and 360 px", async () => {
    const o = await createOrg(stack, { balanceMinor: 1_000_000 });
    const { page } = ops;
    await open(page, url("/operator"));
    await page.getByRole("link", { name: "Catalog" }).click();
    await ready(page);
    await page.getByLabel("Model", { exact: true }).selectOption("gw-chat-large");
    const input = page.getByLabel("Input price per 1M tokens (credits)", { exact: true });
    const before = await input.inputValue();
    // Not an amount: refused beside the form, naming the field.
    await input.fill("three");
    await page.getByRole("button", { name: "Review changes" }).first().click();
    await expect(page.locator("#prices").getByRole("alert").textContent()).resolves.toBe("Input price per 1M tokens must be an amount in credits such as 12.50, with at most 6 decimals.");
    expect(await page.getByRole("button", { name: "Apply reviewed changes" }).isDisabled()).toBe(true);
    const after = (Number(before) + 0.01).toFixed(2);
    await input.fill(after);
    await page.getByRole("button", { name: "Review changes" }).first().click();
    await expect(page.locator("#prices").getByRole("status").textContent()).resolves.toBe("1 change to review below.");
    await atBothWidths(page, "operator-catalog", async () => {
      await expect(rendered(page.locator("#catalog-diff tr"))).resolves.toBe(`model\tgw-chat-large\tchanged\tInput price per 1M tokens\t${Number(before).toFixed(2)} credits\t${after} credits`);
    });
    await page.getByRole("button", { name: "Apply reviewed changes" }).click();
    await expect(page.locator("#catalog-apply").locator("..").getByRole("status").textContent()).resolves.toMatch(/^Applied: the catalog is at version \d+\.$/);
    expect(await page.getByRole("button", { name: "Apply reviewed changes" }).isDisabled()).toBe(true);
    await expect(input.inputValue()).resolves.toBe(after);
    // At 360 px, an image's price by size and quality.
    await page.setViewportSize(WIDTHS[1][1]);
    await page.getByLabel("Model", { exact: true }).selectOption("gw-image");
    await page.getByLabel("Image, 1024x1024, hd (credits per image)").fill("0.085");
    await page.getByRole("button", { name: "Review changes" }).first().click();
    await page.locator("#prices").getByRole("status").waitFor();
    await expect(rendered(page.locator("#catalog-diff tr"))).resolves.toContain("Image prices\t1024x1024, standard: 0.04 credits; 1024x1024, hd: 0.08 credits");
    await expect(rendered(page.locator("#catalog-diff tr"))).resolves.toContain("1024x1024, hd: 0.085 credits");
    await screenshot(page, "operator-catalog-image-360px");
    await page.getByRole("link", { name: "Audit log" }).click();
    await ready(page);
    // Other tests' changes may be newer: the entry is found by what it says.
    await page.locator("#audit tr", { hasText: "model gw-chat-large changed (Input price per 1M tokens)" }).waitFor();

    // A top-up asks first, naming the amount and the organization; Cancel adds nothing.
    const balance = async () => (await stack.ledgerClient.GetCredits({ org_id: o.orgId })).balance_minor;
    const start = await balance();
    await open(page, url(`/operator/orgs/${o.orgId}`));
    for (const [width, viewport] of WIDTHS) {
      await page.setViewportSize(viewport);
      await page.getByLabel("Top up, in credits").fill("2.5");
      await page.getByRole("button", { name: "Top up" }).click();
      const dialog = page.getByRole("dialog", { name: `Top up ${o.name}?` });
      await expect(dialog.textContent()).resolves.toContain(`Add 2.50 credits to ${o.name} (${o.orgId}).`);
      await screenshot(page, `operator-topup-asks-${width}`, false);
      if (width === "desktop") {
        await dialog.getByRole("button", { name: "Cancel" }).click();
        expect(await balance()).toBe(start);
        // The form sent twice more (a double click): one question, one top-up.
        await page.locator("#topup").evaluate((f) => {
          (f as unknown as { requestSubmit(): void }).requestSubmit();
          (f as unknown as { requestSubmit(): void }).requestSubmit();
        });
      }
      await dialog.getByRole("button", { name: "Top up" }).click();
      const added = width === "desktop" ? "3.50" : "6.00";
      await expect(page.locator("#topup").getByRole("status").textContent()).resolves.toBe(`Done: 2.50 credits added; ${o.name} now has ${added} credits.`);
      expect(await page.getByLabel("Top up, in credits").inputValue()).toBe("");
    }
    expect(await balance()).toBe(start + 5_000_000);
    await open(page, url("/operator/audit"));
    expect(await page.locator("#audit tr", { hasText: "top up" }).filter({ hasText: o.orgId }).count()).toBe(2);
    await expect(page.locator("#audit tr", { hasText: "top up" }).first().textContent()).resolves.toContain("amount: 2.50 credits");
    await page.setViewportSize(WIDTHS[0][1]);
  }, 60_000);

  it("signs in by OpenID Connect (authorization code with PKCE) at the organization's issuer: a member's verified address gets a session, an unverified or unknown one none", async () => {
    const [consolePort, port] = [await freePort(), await issuerPort()];
    const publicUrl = `http://127.0.0.1:${consolePort}`;
    const issuer = await startIssuer(port, `${publicUrl}/oidc/callback`);
    const sso = await startConsoleFor(stack, { port: consolePort, oidc: { issuer: issuer.url, clientId: issuer.clientId, clientSecret: issuer.clientSecret, publicUrl } });
    try {
      // Membership is the gateway's: the admin made this address a member; the issuer only proves it.
      await stack.admin.CreateSignInLink({ org: org.orgId, email: "sso-user@example.com", role: "billing" });
      const signInAt = async (login: string) => {
        const { context, page } = await newPage();
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
      await ready(page);
      expect(new URL(page.url()).pathname).toBe("/");
      await expect(page.locator("#who").textContent()).resolves.toContain("sso-user@example.com (billing)");
      const cookie = (await context.cookies()).find((c) => c.name === "gw_console");
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
      // The attempt's cookie (PKCE verifier, state, nonce) is spent.
      expect((await context.cookies()).some((c) => c.name === "gw_oidc")).toBe(false);
      await page.goto(`${publicUrl}/signin`);
      await page.locator("#sso:not([hidden])").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, "signin-sso-desktop");
      await context.close();

      // Side by side: each its own browser context.
      await Promise.all(
        (
          [
            ["unverified-sso-user@example.com", "has not verified"],
            ["stranger@example.com", "is not a console member"],
          ] as const
        ).map(async ([login, status]) => {
          const attempt = await signInAt(login);
          await expect(attempt.page.locator("main").textContent()).resolves.toContain(status);
          await expect(attempt.page.locator("h1").textContent()).resolves.toBe("You are not signed in");
          expect((await attempt.context.cookies()).some((c) => c.name === "gw_console")).toBe(false);
          await attempt.context.close();
        }),
      );
      // A callback without the attempt's cookie (forged, or replayed elsewhere) signs no one in.
      const forged = await fetch(`${publicUrl}/oidc/callback?code=stolen&state=guessed`, { redirect: "manual" });
      expect(forged.status).toBe(401);
      expect(forged.headers.get("set-cookie") ?? "").not.toContain("gw_console=gws_");
    } finally {
      await sso.close();
      await issuer.close();
    }
  }, 60_000);

  it("an admin sets alert thresholds and a webhook (a refused URL beside its form), sees the signing secret once with a copy button and rotates it after confirming; spending across the thresholds lists the alerts with their delivery", async () => {
    const o = await createOrg(stack, { balanceMinor: 10_000_000 });
    await stack.admin.SetOrgBudgets({ org: o.orgId, limit_minor: 1_000_000, window: "day" });
    const { context, page } = await newPage({ permissions: ["clipboard-read", "clipboard-write"] });
    await as(page, o.orgId, "alerts@example.com", "admin", "/alerts");
    const said = (form: string, role: "status" | "alert") => page.locator(form).getByRole(role).textContent();
    await page.getByLabel(/^Budget alerts/).fill("1 50");
    await page.getByLabel(/^Balance alerts/).fill("9.99");
    await page.getByRole("button", { name: "Save thresholds" }).click();
    await expect(said("#thresholds", "status")).resolves.toBe("Saved: alerts at 1 %, 50 % of each budget and at a balance at or below 9.99 credits.");
    // Not https: refused beside the form. A receiver on the loopback (allowed in tests) that is not listening: deliveries fail and are retried.
    const hook = page.getByLabel(/^Webhook URL/);
    await hook.fill("http://hooks.example.com/gateway");
    await page.getByRole("button", { name: "Save webhook" }).click();
    await expect(said("#webhook", "alert")).resolves.toBe("The webhook URL must be an https:// URL.");
    const receiver = `http://127.0.0.1:${await freePort()}/gateway`;
    await hook.fill(receiver);
    await page.getByRole("button", { name: "Save webhook" }).click();
    await expect(said("#webhook", "status")).resolves.toBe(`Saved: alerts are sent to ${receiver}. Copy its signing secret below: it is shown only now.`);
    await expect(text(page, "#secret")).resolves.toContain("Copy this signing secret now: it will not be shown again.");
    const first = await text(page, "#secret-value");
    expect(first).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Copy secret" }).click();
    await expect(page.locator("#secret").getByRole("status").textContent()).resolves.toBe("Copied.");
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(first);
    // Rotated because it leaked: asked first; the new secret shown once.
    await page.getByLabel("Stop the old secret at once (it leaked)").check();
    await page.getByRole("button", { name: "Rotate the signing secret" }).click();
    await page.getByRole("dialog", { name: "Rotate the secret and stop the old one?" }).getByRole("button", { name: "Rotate secret" }).click();
    await expect(page.locator("#rotate-box").getByRole("status").textContent()).resolves.toBe("Rotated: only the new secret signs from now on. Copy it below: it is shown only now.");
    const rotated = await text(page, "#secret-value");
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(first);
    await screenshot(page, "alerts-secret-once-desktop");

    // Spent through the SDK across 1 % of the day's cap and the balance threshold: two alerts, each tried at the webhook.
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: o.secret, maxRetries: 0 });
    const tried = async () => {
      const { alerts } = await stack.admin.ListAlerts({ org: o.orgId });
      return alerts.length === 2 && alerts.every((a) => a.attempts > 0) ? alerts : undefined;
    };
    for (let i = 0; i < 10 && (await stack.admin.ListAlerts({ org: o.orgId })).alerts.length < 2; i++) {
      await client.chat.completions.create({ model: "gw-chat-large", messages: [{ role: "user", content: "spend ".repeat(2_000) }], max_tokens: 16 });
      await new Promise((r) => setTimeout(r, 200));
    }
    await eventually(tried, 15_000, "both alerts tried at the webhook");
    await open(page, url("/alerts"));
    // The secret is never shown again; only its first characters.
    expect(await page.locator("#secret").isVisible()).toBe(false);
    await expect(text(page, "#webhook-now")).resolves.toContain(`${rotated.slice(0, 10)}…`);
    const money = "\\d+\\.\\d{2} credits";
    await atBothWidths(page, "alerts", async () => {
      await expect(text(page, "#thresholds-now")).resolves.toBe("Budget alertsat 1 %, 50 % of each budget's capBalance alertsat or below 9.99 credits");
      await expect(rendered(page.locator("#alerts tr", { hasText: "1 % of" }))).resolves.toMatch(
        new RegExp(`\\tbudget\\tthe organization\\t1 % of 1\\.00 credits\\t${money} spent\\tpending, next try .+\\t\\d+\\t.*ECONNREFUSED`),
      );
      await expect(rendered(page.locator("#alerts tr", { hasText: "at or below" }))).resolves.toMatch(
        new RegExp(`\\tbalance\\tthe organization's balance\\tat or below 9\\.99 credits\\t${money}\\tpending, next try .+\\t\\d+\\t.*ECONNREFUSED`),
      );
    });
    await context.close();
  }, 60_000);

  it("an admin's actions answer beside their control and the next action clears them; a key's revocation asks first; the form empties after success — at 1280 and 360 px", async () => {
    const o = await createOrg(stack, { balanceMinor: 1_000_000 });
    const { context, page } = await newPage();
    await as(page, o.orgId, "keys@example.com", "admin", "/keys");
    const form = page.locator("#new-key");
    for (const [width, viewport] of WIDTHS) {
      await page.setViewportSize(viewport);
      const name = `browser-made-${width}`;
      // A limit that is not a number: refused beside the form, in words.
      await page.getByLabel("Name of a new key").fill(name);
      await page.getByLabel("Requests per minute (0: none)").fill("thirty");
      await page.getByRole("button", { name: "Create key" }).click();
      await expect(form.getByRole("alert").textContent()).resolves.toBe("Requests per minute must be a whole number of at least 0 (0: no limit of its own).");
      await screenshot(page, `keys-refused-${width}`);
      // The next action clears it; its own answer replaces it; the form is empty again.
      await page.getByLabel("Requests per minute (0: none)").fill("30");
      await page.getByRole("button", { name: "Create key" }).click();
      await expect(form.getByRole("status").textContent()).resolves.toBe(`Created ${name}.`);
      expect(await form.getByRole("alert").count()).toBe(0);
      expect(await page.getByLabel("Name of a new key").inputValue()).toBe("");
      const secret = (await page.locator("#secret-value").textContent()) ?? "";
      expect(secret).toMatch(/^sk-gateway-/);
      const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: secret, maxRetries: 0 });
      await eventually(() => client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "made in the browser" }] }), 15_000, "the key works");

      // Revoking asks first: Cancel keeps the key.
      const row = page.locator("#keys tr:not(.feedback-row)", { hasText: name });
      await row.waitFor();
      await page.getByRole("button", { name: `Revoke ${name}` }).click();
      const dialog = page.getByRole("dialog", { name: `Revoke ${name}?` });
      await expect(dialog.textContent()).resolves.toContain("A revoked key cannot be restored.");
      expect(await form.getByRole("status").count()).toBe(0);
      await screenshot(page, `keys-revoke-asks-${width}`, false);
      // The question is a modal dialog that takes the focus (Cancel) and passes axe too.
      if (width === "desktop") {
        await expect(dialog.getByRole("button", { name: "Cancel" }).evaluate((b) => b === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).resolves.toBe(
          true,
        );
        expect(await axeViolations(page)).toEqual([]);
      }
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(row.locator("td").nth(8).textContent()).resolves.toBe("active");
      await page.getByRole("button", { name: `Revoke ${name}` }).click();
      await dialog.getByRole("button", { name: "Revoke key" }).click();
      // Said in a row of its own right under the key's (in view of the table scrolled sideways at 360 px).
      await expect(page.locator("#keys tr.feedback-row").getByRole("status").textContent()).resolves.toBe(`Revoked: ${name} no longer works.`);
      await expect(row.locator("td").nth(8).textContent()).resolves.toBe("revoked");
      await eventually(
        async () =>
          (await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "revoked?" }] }).catch((e: unknown) => e)) instanceof OpenAI.AuthenticationError
            ? true
            : undefined,
        15_000,
        "the revoked key refused",
      );
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `keys-${width}`);
    }
    await context.close();
  }, 60_000);

  it("an operator's organization page lists the organization's newest requests and keys, and finds any of its requests by trace id", async () => {
    await traffic.debug;
    const { o } = debug;
    const traceOfLast = debug.ids[2]!;
    // A page of its own: the operator's page is the catalog test's.
    const { context, page: opsPage } = await newPage();
    await as(opsPage, "", "debug-ops@example.com", "operator");
    await opsPage.getByLabel("Id or name contains").fill(o.name);
    await opsPage.getByRole("button", { name: "Search" }).click();
    await opsPage.getByRole("link", { name: o.name }).click();
    await ready(opsPage);
    // An organization's page at 360 px: the top-up in the operator's test.
    await atDesktop(opsPage, "operator-org", async () => {
      await expect(text(opsPage, "h1")).resolves.toBe(o.name);
      await expect(opsPage.locator("#recent tr").count()).resolves.toBe(3);
      await expect(text(opsPage, "#keys")).resolves.toContain("checkout-service");
    });
    await opsPage.getByLabel("Trace id (x-gateway-trace-id or x-request-id)").fill(traceOfLast);
    await opsPage.getByRole("button", { name: "Open request" }).click();
    await ready(opsPage);
    expect(new URL(opsPage.url()).pathname).toBe(`/operator/orgs/${o.orgId}/requests/${traceOfLast}`);
    await expect(text(opsPage, "#title")).resolves.toBe(`Request ${traceOfLast}`);
    await expect(text(opsPage, "#back")).resolves.toBe(o.orgId);
    expect(await axeViolations(opsPage)).toEqual([]);
    await context.close();
  }, 60_000);

  it("a viewer sees no form it may not use, and no audit log", async () => {
    const o = await createOrg(stack, { balanceMinor: 1_000_000 });
    const { context, page } = await newPage();
    await as(page, o.orgId, "looker@example.com", "viewer", "/keys");
    for (const path of ["/keys", "/members", "/budget", "/alerts"]) {
      await open(page, url(path));
      for (const form of ["#new-key", "#invite", "#org-budget", "#end-user-settings", "#end-user", "#new-project", "#thresholds", "#webhook"]) expect(await page.locator(form).isVisible()).toBe(false);
      expect(await page.getByRole("button", { name: /^(Revoke|Remove|Rotate|Change)/ }).count()).toBe(0);
    }
    expect(await page.getByRole("link", { name: "Audit log" }).count()).toBe(0);
    await context.close();
  }, 60_000);

  it("shows a request an input guardrail denied among the organization's requests: status 400, no cost, no provider asked, the rule that denied it", async () => {
    await traffic.guard;
    const { o: guarded, id } = guard;
    const { context, page } = await newPage();
    // The count of the rule's outcomes has the denial (from its record).
    await as(page, guarded.orgId, "auditor@example.com", "viewer", "/guardrails");
    await expect(page.locator("#guardrails tr", { hasText: "no-secrets" }).textContent()).resolves.toMatch(/keywords.*deny.*input.*0\s*1\s*0\s*0\s*0/);
    await atBothWidths(page, "guardrails");
    await open(page, url("/requests"));
    await page.getByLabel("Status").fill("400");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(rendered(page.locator("#requests tr", { hasText: id }))).resolves.toContain("400 error");
    await page.getByRole("link", { name: id }).click();
    await ready(page);
    await expect(page.locator("#summary").textContent()).resolves.toContain("400");
    await expect(page.locator("#attempts").textContent()).resolves.toContain("a guardrail rule denied the request before any provider was asked");
    await expect(page.locator("#guardrails").textContent()).resolves.toContain("no-secrets: denied");
    // Nothing was counted or billed, and the page says so rather than crediting the provider or leaving a blank table.
    await expect(page.locator("#tokens").textContent()).resolves.toContain("nobody (no provider was asked)");
    await expect(page.locator("#items").textContent()).resolves.toContain("None: nothing was billed.");
    await atDesktop(page, "request-denied");
    await context.close();
  }, 60_000);

  it("shows an MCP tool call in the request log, its detail naming the server, the tool and the outcome", async () => {
    await traffic.tool;
    const { o: tooled, id } = tool;
    const { context, page } = await newPage();
    await as(page, tooled.orgId, "tools@example.com", "viewer", "/requests");
    await page.getByLabel("Route").selectOption("mcp");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByRole("link", { name: id }).click();
    await ready(page);
    const items = (await page.locator("#items").textContent()) ?? "";
    expect(items).toContain("tool_call");
    expect(items).toContain("server: demo-tools");
    expect(items).toContain("tool: echo");
    expect(items).toContain("outcome: ok");
    await expect(page.locator("#attempts").textContent()).resolves.toContain("No upstream attempts recorded");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "request-mcp-desktop");
    await context.close();
  }, 60_000);

  it("a new organization's pages say what is empty", async () => {
    const fresh = await createOrg(stack, { balanceMinor: 1_000 });
    const { context, page } = await newPage({ viewport: WIDTHS[1][1] });
    await as(page, fresh.orgId, "a-rather-long-address.of.someone@subdomain.example.com", "viewer");
    await expect(text(page, "#chart-spend")).resolves.toBe("No spend in the last 7 days.");
    await expect(text(page, "#credits")).resolves.toContain("Days left at that rate— (nothing spent)");
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, "overview-empty-360px");
    await open(page, url("/requests"));
    await expect(text(page, "#requests")).resolves.toBe("No requests yet.");
    await context.close();
  }, 60_000);
});
