import { join } from "node:path";
import express from "express";
import { signed, type Routes } from "../middleware.js";

/**
 * The probe and the web app's pages: an organization's member gets the organization's pages, an
 * operator the operator's. A page without a session sends the person to /signin.
 */
export function webRoutes({ app, ctx, session }: Routes): void {
  // For the orchestrator's probes: the process answers (sessions and data are the control-plane's and the ledger's).
  app.get("/healthz", (_req, res) => res.type("text/plain").send("ok"));
  app.get("/", session, (_req, res) => (signed(res).member.role === "operator" ? res.redirect(303, "/operator") : res.sendFile(join(ctx.web, "index.html"))));
  app.get("/operator", session, (_req, res) => (signed(res).member.role === "operator" ? res.sendFile(join(ctx.web, "operator.html")) : res.redirect(303, "/")));
  app.get("/requests/:id", session, (_req, res) => res.sendFile(join(ctx.web, "request.html")));
  app.use("/assets", express.static(ctx.web, { index: false, fallthrough: false }));
}
