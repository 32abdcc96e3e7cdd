import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import type { ConsoleServer } from "@gateway/console";
import type { Stack } from "./stack.ts";

/**
 * The console in a real browser (Debian's chromium driven by playwright-core; scripts/bootstrap.sh
 * installs it when missing): signing in by a fresh link, reading a page at a desktop width and at
 * 360 px, axe-core's findings, and screenshots kept in test-artifacts/console/ (JPEG: encoding a
 * full page as PNG cost the browser a quarter of its CPU in these tests).
 */
export const ARTIFACTS = resolve(import.meta.dirname, "../../test-artifacts/console");
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The widths every page is read at: a laptop's and a small phone's. */
export const WIDTHS = [
  ["desktop", { width: 1280, height: 900 }],
  ["360px", { width: 360, height: 780 }],
] as const;

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage"] });
}

/** Waits until the page has drawn what it loads (`body[data-ready]`, set by every signed-in page). */
export const ready = async (page: Page): Promise<void> => void (await page.waitForSelector("body[data-ready='true']"));

/** Opens a console page and waits until it is drawn. */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await ready(page);
}

/**
 * Signs in by a fresh one-time link (the button on the link's page) and waits for the start page
 * drawn — or, with `then`, goes on to that page as soon as the session is there (the start page is
 * left before it has drawn: a test that reads another page spends nothing on it).
 */
export async function signIn(page: Page, stack: Stack, server: ConsoleServer, who: { org: string; email: string; role: "admin" | "billing" | "viewer" | "operator" }, then?: string): Promise<void> {
  const link = await stack.admin.CreateSignInLink({ org: who.role === "operator" ? "" : who.org, email: who.email, role: who.role });
  await page.goto(`${server.url}/signin?token=${link.token}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  if (then === undefined) return void (await ready(page));
  await page.waitForURL((u) => u.pathname !== "/signin", { waitUntil: "commit" });
  await open(page, `${server.url}${then}`);
}

/** A screenshot kept as `test-artifacts/console/<name>.jpg`, the whole page unless `fullPage` is false. */
export const screenshot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: join(ARTIFACTS, `${name}.jpg`), type: "jpeg", quality: 80, fullPage });

/** True when the page does not scroll sideways (wide tables scroll inside their own region). */
export const fitsWidth = (page: Page) =>
  page.evaluate(() => {
    // Runs in the page.
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return root.scrollWidth <= root.clientWidth;
  });

/** What axe-core finds on the page at moderate impact or worse: each rule's id and its first element. */
export async function axeViolations(page: Page): Promise<string[]> {
  // axe-core once per document (a page read again after a change keeps it).
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    // Runs in the page: the page's global object, not Node's.
    const document = (globalThis as unknown as { document: unknown }).document;
    type Found = { id: string; impact: string | null; nodes: Array<{ target: string[] }> };
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Found[] }> } }).axe;
    // Violations only: the passes' details are not read (and cost most of a run).
    return (await axe.run(document, { resultTypes: ["violations"] })).violations.filter((v) => v.impact !== "minor").map((v) => `${v.id} (${v.impact}): ${v.nodes[0]?.target.join(" ") ?? ""}`);
  });
}

/**
 * The page as it is now, at a desktop width and at 360 px: `check` reads it at each (what a person
 * sees), axe finds nothing moderate or worse, the page does not scroll sideways, and a screenshot of
 * each is kept as `<name>-desktop.jpg` and `<name>-360px.jpg`. The page is left at 1280 px.
 */
export async function atBothWidths(page: Page, name: string, check: (width: "desktop" | "360px") => Promise<void> = async () => {}): Promise<void> {
  for (const [width, viewport] of WIDTHS) {
    await page.setViewportSize(viewport);
    await check(width);
    const findings = await axeViolations(page);
    if (findings.length) throw new Error(`axe at ${width} on ${name}: ${findings.join("; ")}`);
    if (!(await fitsWidth(page))) throw new Error(`${name} scrolls sideways at ${width}`);
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize(WIDTHS[0][1]);
}

/** The text as rendered (a table row's cells joined by tabs), not the DOM's raw text. */
// biome-ignore lint/performance/useDomNodeTextContent: a row's cells as a person reads them (tab-separated) is what the tests compare; textContent runs them together.
export const rendered = (l: Locator) => l.innerText();

/**
 * The page as it is now at the desktop width only, for a page kind whose layout at 360 px another
 * pass reads (atBothWidths): `check`, axe, no sideways scroll, and `<name>-desktop.jpg`.
 */
export async function atDesktop(page: Page, name: string, check: () => Promise<void> = async () => {}): Promise<void> {
  await page.setViewportSize(WIDTHS[0][1]);
  await check();
  const findings = await axeViolations(page);
  if (findings.length) throw new Error(`axe at desktop on ${name}: ${findings.join("; ")}`);
  if (!(await fitsWidth(page))) throw new Error(`${name} scrolls sideways at desktop`);
  await screenshot(page, `${name}-desktop`);
}
