import { join } from "node:path";
import express from "express";
import { signed, type Routes } from "../middleware.js";

/** Who a page is for: an organization's members, or operators. */
type PageFor = "org" | "operator";

/**
 * Every page of the web app, each at its own URL (docs/console.md, "The pages"): a static file with
 * its own module script (`web/pages/`), under the console's header and navigation. A page of the
 * other kind sends the person to their own start page; a page without a session, to /signin.
 */
const PAGES: ReadonlyArray<{ path: string; file: string; for: PageFor }> = [
  { path: "/", file: "overview.html", for: "org" },
  { path: "/requests", file: "requests.html", for: "org" },
  { path: "/requests/:id", file: "request.html", for: "org" },
  { path: "/keys", file: "keys.html", for: "org" },
  { path: "/keys/:id", file: "key.html", for: "org" },
  { path: "/models", file: "models.html", for: "org" },
  { path: "/budget", file: "budget.html", for: "org" },
  { path: "/alerts", file: "alerts.html", for: "org" },
  { path: "/guardrails", file: "guardrails.html", for: "org" },
  { path: "/members", file: "members.html", for: "org" },
  { path: "/audit", file: "audit.html", for: "org" },
  { path: "/operator", file: "operator-orgs.html", for: "operator" },
  { path: "/operator/orgs/:org", file: "operator-org.html", for: "operator" },
  { path: "/operator/orgs/:org/requests/:id", file: "request.html", for: "operator" },
  { path: "/operator/health", file: "operator-health.html", for: "operator" },
  { path: "/operator/catalog", file: "operator-catalog.html", for: "operator" },
  { path: "/operator/mcp", file: "operator-mcp.html", for: "operator" },
  { path: "/operator/trace", file: "operator-trace.html", for: "operator" },
  { path: "/operator/trace/:id", file: "request.html", for: "operator" },
  { path: "/operator/audit", file: "operator-audit.html", for: "operator" },
  { path: "/operator/settings", file: "operator-settings.html", for: "operator" },
];

/** The probe, the pages, the icon and the built assets (pages' scripts, the stylesheet, uPlot) under /assets. */
export function pageRoutes({ app, ctx, session }: Routes): void {
  // For the orchestrator's probes: the process answers (sessions and data are the control-plane's and the ledger's).
  app.get("/healthz", (_req, res) => res.type("text/plain").send("ok"));
  for (const page of PAGES) {
    app.get(page.path, session, (_req, res) => {
      const operator = signed(res).member.role === "operator";
      if (operator !== (page.for === "operator")) return res.redirect(303, operator ? "/operator" : "/");
      res.setHeader("cache-control", "no-store");
      res.sendFile(join(ctx.web, "web", page.file));
    });
  }
  app.get("/favicon.ico", (_req, res) => res.type("image/svg+xml").sendFile(join(ctx.web, "web", "favicon.svg")));
  app.use("/assets", express.static(ctx.web, { index: false, fallthrough: false }));
}
