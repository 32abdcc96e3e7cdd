import type { Server } from "node:http";
import express from "express";
import type { ConsoleConfig } from "./config.js";
import { closeContext, createContext } from "./context.js";
import { notFound, refuseCrossSite, routesOn, securityHeaders, type Routes } from "./middleware.js";
import { alertRoutes } from "./routes/alerts.js";
import { auditRoutes } from "./routes/audit.js";
import { budgetRoutes } from "./routes/budget.js";
import { guardrailRoutes } from "./routes/guardrails.js";
import { keyRoutes } from "./routes/keys.js";
import { mcpPinRoutes } from "./routes/mcp-pins.js";
import { memberRoutes } from "./routes/members.js";
import { modelRoutes } from "./routes/models.js";
import { operatorCatalogRoutes } from "./routes/operator-catalog.js";
import { operatorHealthRoutes } from "./routes/operator-health.js";
import { operatorOrgRoutes } from "./routes/operator-orgs.js";
import { operatorSettingsRoutes } from "./routes/operator-settings.js";
import { operatorTraceRoutes } from "./routes/operator-trace.js";
import { overviewRoutes } from "./routes/overview.js";
import { pageRoutes } from "./routes/pages.js";
import { requestRoutes } from "./routes/requests.js";
import { sessionRoutes } from "./routes/session.js";
import { signInRoutes } from "./routes/sign-in.js";

export interface ConsoleServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Every page's and API group's routes (`routes/`), each registered with the shared read and write chains (`middleware.ts`). */
const ROUTES: ((routes: Routes) => void)[] = [
  pageRoutes,
  signInRoutes,
  sessionRoutes,
  overviewRoutes,
  requestRoutes,
  keyRoutes,
  guardrailRoutes,
  budgetRoutes,
  modelRoutes,
  memberRoutes,
  auditRoutes,
  operatorOrgRoutes,
  operatorCatalogRoutes,
  operatorHealthRoutes,
  operatorSettingsRoutes,
  operatorTraceRoutes,
  mcpPinRoutes,
  alertRoutes,
];

/**
 * The console's server (docs/console.md): the built web app and a JSON API for it, over the
 * control-plane (sign-in, sessions) and the ledger (an organization's spend and requests), as its
 * own caller identity `console`. It never reads Postgres. Every API call acts for the organization
 * of the signed-in member, which the control-plane's session answers; the browser holds only an
 * HttpOnly session cookie, and every state-changing call needs the session's CSRF token from the same
 * origin. Pages load no inline script and nothing from another origin (Content-Security-Policy).
 */
export function startConsole(config: ConsoleConfig): Promise<ConsoleServer> {
  const ctx = createContext(config);
  const app = express();
  app.disable("x-powered-by");
  app.use(securityHeaders, refuseCrossSite(ctx));
  const routes = routesOn(app, ctx);
  for (const register of ROUTES) register(routes);
  app.use(notFound);

  return new Promise((resolve) => {
    const server: Server = app.listen(config.port, config.host, () => {
      const addr = server.address();
      const port = typeof addr === "object" && addr ? addr.port : config.port;
      const url = `http://${config.host}:${port}`;
      ctx.listeningOn(url);
      resolve({
        url,
        port,
        close: () =>
          new Promise<void>((done) => {
            closeContext(ctx);
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
