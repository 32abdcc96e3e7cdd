import type { NatsConnection } from "@nats-io/transport-node";
import { prepareSchema, runMigrateStep, type Kysely } from "@gateway/db";
import { createLogger, startOpsServer } from "@gateway/observability";
import {
  addHealthService,
  addService,
  adminService,
  bindServer,
  CallerAuthenticator,
  callerGuard,
  controlService,
  grpc,
  serverCredentials,
  shutdownServer,
  unauthenticatedCallers,
} from "@gateway/proto";
import { Counter } from "@gateway/observability";
import type { ControlPlaneConfig } from "./config.js";
import { publishCurrentPriceSheet } from "./catalog/price-sheets.js";
import { connectServiceNats, createContext, type ControlContext, type ControlOverrides } from "./context.js";
import { closeNats, retrying } from "@gateway/nats";
import { tracingServerInterceptor } from "@gateway/proto/tracing";
import { unavailableWhenDbDown } from "@gateway/db";
import type { ControlDb } from "./db/schema.js";
import { migrations } from "./db/migrations/index.js";
import { applyCatalog } from "./rpc/apply-catalog.js";
import {
  consoleCreateKey,
  consoleGetOrg,
  consoleInviteMember,
  consoleListKeys,
  consoleListMembers,
  consoleRemoveMember,
  consoleRevokeKey,
  consoleSetBudget,
  createSignInLink,
  endConsoleSession,
  getConsoleSession,
  redeemSignInLink,
  removeConsoleMember,
  consoleGetGuardrails,
} from "./rpc/console-links.js";
import { consoleListAudit, consoleRecordAudit } from "./rpc/console-audit.js";
import { consoleListModels } from "./rpc/console-models.js";
import { consoleSetMoneyFormat } from "./rpc/console-money-format.js";
import { consoleOperatorOrg } from "./rpc/console-operator-org.js";
import { startOidcSession } from "./rpc/console-oidc.js";
import { enableMcpServers } from "./rpc/enable-mcp-servers.js";
import { approveMcpTool, listMcpToolPins, reportMcpTools } from "./rpc/mcp-pins.js";
import { consoleApplyCatalog, consoleGetCatalog, consoleGrantTopUp, consoleListOrgs } from "./rpc/console-operator.js";
import { consoleGrantTraceLookup } from "./rpc/console-grant-trace-lookup.js";
import { getCatalogDocument } from "./rpc/get-catalog-document.js";
import { consoleApproveMcpTool, consoleListPendingMcpTools } from "./rpc/console-mcp-pins.js";
import { authenticateKey } from "./rpc/authenticate-key.js";
import { createKey } from "./rpc/create-key.js";
import { createOrg } from "./rpc/create-org.js";
import { enableModels } from "./rpc/enable-models.js";
import { getCatalog } from "./rpc/get-catalog.js";
import { getTrialPolicy } from "./rpc/get-trial-policy.js";
import { listKeys } from "./rpc/list-keys.js";
import { listOrgs } from "./rpc/list-orgs.js";
import { revokeKey } from "./rpc/revoke-key.js";
import { TrialUnlocker } from "./trial-unlock.js";
import { setOrgTrial } from "./rpc/set-org-trial.js";
import { setOrgBudget } from "./rpc/set-org-budget.js";
import { setOrgBudgets } from "./rpc/set-org-budgets.js";
import { setKeyBudget } from "./rpc/set-key-budget.js";
import { createProject, listProjects, setProjectBudget } from "./rpc/projects.js";
import { listEndUserBudgets, setEndUserBudget } from "./rpc/end-user-budgets.js";
import { consoleCreateProject, consoleGetBudgets, consoleSetEndUserBudget, consoleSetKeyBudget, consoleSetOrgBudgets, consoleSetProjectBudget } from "./rpc/console-budgets.js";
import { setOrgOutputLimit } from "./rpc/set-org-output-limit.js";
import { setTrialPolicy } from "./rpc/set-trial-policy.js";
import { getGuardrails, setGuardrails } from "./rpc/guardrails.js";
import { claimVideoHolds, claimVideoJobs, createVideoJob, getVideoJob, updateVideoJob } from "./rpc/video-jobs.js";
import { AlertConsumer } from "./alerts/consumer.js";
import { createAlertMetrics } from "./alerts/metrics.js";
import { checkSecretsKey } from "./alerts/secrets.js";
import { WebhookSender } from "./alerts/sender.js";
import { getAlertSettings, setAlertSettings } from "./rpc/alert-settings.js";
import { consoleGetAlertSettings, consoleListAlerts, consoleSetAlertSettings } from "./rpc/console-alerts.js";
import { listAlerts } from "./rpc/list-alerts.js";

export { loadConfig, type ControlPlaneConfig } from "./config.js";
export type { ControlContext, ControlOverrides } from "./context.js";
export { hashSecret } from "./keys/secret.js";
export { policyHash } from "./rpc/get-trial-policy.js";
export { SecretsKeyError } from "./alerts/secrets.js";
export { signatureHeader, verifySignature } from "./alerts/signature.js";

/** The migrate step: applies this release's migrations to the configured schema (`node dist/main.js migrate`). */
export function migrateControlSchema(config: ControlPlaneConfig): Promise<void> {
  const log = createLogger({ service: "control-plane", level: config.logLevel });
  return runMigrateStep({ url: config.databaseUrl, schema: config.dbSchema, migrations, settings: config.migrations, log });
}

export interface ControlPlane {
  readonly ctx: ControlContext;
  readonly db: Kysely<ControlDb>;
  readonly grpcPort: number;
  readonly opsPort: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Builds the control-plane; start() migrates, connects NATS and serves gRPC + ops HTTP. */
export function createControlPlane(config: ControlPlaneConfig, overrides: ControlOverrides = {}): ControlPlane {
  const ctx = createContext(config, overrides);
  const server = new grpc.Server(ctx.tracing ? { interceptors: [tracingServerInterceptor(ctx.tracing)] } : {});
  const onUnexpected = (err: unknown, method: string) => ctx.log.error({ err, method }, "rpc failed");
  // Every caller presents a token naming its identity; what each identity may call is METHOD_GRANTS.
  const callers = new CallerAuthenticator(config.callerTokens);
  const refusals = new Counter({
    name: "control_rpc_refusals_total",
    help: "gRPC calls refused: unauthenticated (no or unknown token) or not_allowed (outside the caller's grants)",
    labelNames: ["method", "reason"],
    registers: [ctx.registry],
  });
  const unauthenticated = unauthenticatedCallers(
    config.unauthenticatedCallers,
    new Counter({
      name: "control_rpc_unauthenticated_calls_total",
      help: "gRPC calls admitted without credentials (CONTROL_PLANE_UNAUTHENTICATED_CALLERS, during an upgrade)",
      labelNames: ["method"],
      registers: [ctx.registry],
    }),
  );
  const guard = (def: { name: string }) =>
    callerGuard(
      def.name,
      callers,
      (reason, method, identity) => {
        refusals.inc({ method, reason });
        ctx.log.debug({ method, reason, caller: identity }, "rpc refused");
      },
      unauthenticated,
    );
  addService(
    server,
    controlService(),
    {
      AuthenticateKey: authenticateKey(ctx),
      GetCatalog: getCatalog(ctx),
      GetTrialPolicy: getTrialPolicy(ctx),
      CreateVideoJob: createVideoJob(ctx),
      GetVideoJob: getVideoJob(ctx),
      ClaimVideoJobs: claimVideoJobs(ctx),
      ClaimVideoHolds: claimVideoHolds(ctx),
      UpdateVideoJob: updateVideoJob(ctx),
      ReportMcpTools: reportMcpTools(ctx),
    },
    { guard: guard(controlService()), onUnexpected, translate: unavailableWhenDbDown },
  );
  addService(
    server,
    adminService(),
    {
      CreateOrg: createOrg(ctx),
      ListOrgs: listOrgs(ctx),
      CreateKey: createKey(ctx),
      RevokeKey: revokeKey(ctx),
      ListKeys: listKeys(ctx),
      EnableModels: enableModels(ctx),
      EnableMcpServers: enableMcpServers(ctx),
      ListMcpToolPins: listMcpToolPins(ctx),
      ApproveMcpTool: approveMcpTool(ctx),
      ApplyCatalog: applyCatalog(ctx),
      GetCatalogDocument: getCatalogDocument(ctx),
      SetOrgTrial: setOrgTrial(ctx),
      SetOrgBudget: setOrgBudget(ctx),
      SetOrgOutputLimit: setOrgOutputLimit(ctx),
      SetTrialPolicy: setTrialPolicy(ctx),
      SetGuardrails: setGuardrails(ctx),
      GetGuardrails: getGuardrails(ctx),
      CreateSignInLink: createSignInLink(ctx),
      RedeemSignInLink: redeemSignInLink(ctx),
      GetConsoleSession: getConsoleSession(ctx),
      EndConsoleSession: endConsoleSession(ctx),
      RemoveConsoleMember: removeConsoleMember(ctx),
      ConsoleListKeys: consoleListKeys(ctx),
      ConsoleCreateKey: consoleCreateKey(ctx),
      ConsoleRevokeKey: consoleRevokeKey(ctx),
      ConsoleListMembers: consoleListMembers(ctx),
      ConsoleInviteMember: consoleInviteMember(ctx),
      ConsoleRemoveMember: consoleRemoveMember(ctx),
      ConsoleListModels: consoleListModels(ctx),
      ConsoleGetOrg: consoleGetOrg(ctx),
      ConsoleSetBudget: consoleSetBudget(ctx),
      ConsoleGetGuardrails: consoleGetGuardrails(ctx),
      StartOidcSession: startOidcSession(ctx),
      ConsoleListAudit: consoleListAudit(ctx),
      ConsoleRecordAudit: consoleRecordAudit(ctx),
      ConsoleListOrgs: consoleListOrgs(ctx),
      ConsoleGrantTopUp: consoleGrantTopUp(ctx),
      ConsoleGetCatalog: consoleGetCatalog(ctx),
      ConsoleApplyCatalog: consoleApplyCatalog(ctx),
      ConsoleListPendingMcpTools: consoleListPendingMcpTools(ctx),
      ConsoleApproveMcpTool: consoleApproveMcpTool(ctx),
      SetOrgBudgets: setOrgBudgets(ctx),
      SetKeyBudget: setKeyBudget(ctx),
      CreateProject: createProject(ctx),
      ListProjects: listProjects(ctx),
      SetProjectBudget: setProjectBudget(ctx),
      SetEndUserBudget: setEndUserBudget(ctx),
      ListEndUserBudgets: listEndUserBudgets(ctx),
      ConsoleGetBudgets: consoleGetBudgets(ctx),
      ConsoleSetOrgBudgets: consoleSetOrgBudgets(ctx),
      ConsoleSetKeyBudget: consoleSetKeyBudget(ctx),
      ConsoleCreateProject: consoleCreateProject(ctx),
      ConsoleSetProjectBudget: consoleSetProjectBudget(ctx),
      ConsoleSetEndUserBudget: consoleSetEndUserBudget(ctx),
      SetAlertSettings: setAlertSettings(ctx),
      GetAlertSettings: getAlertSettings(ctx),
      ListAlerts: listAlerts(ctx),
      ConsoleGetAlertSettings: consoleGetAlertSettings(ctx),
      ConsoleSetAlertSettings: consoleSetAlertSettings(ctx),
      ConsoleListAlerts: consoleListAlerts(ctx),
      ConsoleSetMoneyFormat: consoleSetMoneyFormat(ctx),
      ConsoleOperatorOrg: consoleOperatorOrg(ctx),
      ConsoleGrantTraceLookup: consoleGrantTraceLookup(ctx),
    },
    { guard: guard(adminService()), onUnexpected, translate: unavailableWhenDbDown },
  );
  let grpcPort = config.grpcPort;
  let ops: Awaited<ReturnType<typeof startOpsServer>> | undefined;
  let unlocker: TrialUnlocker | undefined;
  let bound = false;
  // Aborted by stop(): ends the waits for Postgres and NATS of a start() still in progress.
  const abort = new AbortController();
  // Every answer needs Postgres, and a change that cannot be announced on NATS would leave revoked
  // keys working on the data-planes until their cache TTL: not ready without either.
  const ready = () => bound && ctx.dbHealth.healthy && ctx.natsConnected;
  addHealthService(server, ["gateway.control.v1.ControlService", "gateway.control.v1.AdminService"], ready);

  const startUnlocker = async (nc: NatsConnection) => {
    const next = new TrialUnlocker(ctx, nc);
    await retrying(ctx.log, "trial unlock consumer start", abort.signal, () => next.start());
    if (abort.signal.aborted) {
      // stop() ran while this was starting and cannot have seen it.
      await next.stop();
      abort.signal.throwIfAborted();
    }
    unlocker = next;
  };

  // Alerts (docs/billing.md, "Alerts"): the ledger's announcements into the outbox, and the webhook deliveries from it.
  const alertMetrics = createAlertMetrics(ctx.registry);
  const sender = new WebhookSender(ctx, { settings: config.webhooks, urls: ctx.webhookUrls, sealer: ctx.secrets, metrics: alertMetrics });
  let alertConsumer: AlertConsumer | undefined;
  const startAlertConsumer = async (nc: NatsConnection) => {
    const next = new AlertConsumer(ctx, nc, alertMetrics, () => sender.wake());
    await retrying(ctx.log, "alerts consumer start", abort.signal, () => next.start());
    if (abort.signal.aborted) {
      await next.stop();
      abort.signal.throwIfAborted();
    }
    alertConsumer = next;
  };

  return {
    ctx,
    db: ctx.db,
    get grpcPort() {
      return grpcPort;
    },
    get opsPort() {
      return ops?.port ?? config.opsPort;
    },
    async start() {
      // Ops first: /healthz answers (and /readyz says 503) while Postgres or NATS are awaited.
      ops = await startOpsServer({ host: config.opsHost, port: config.opsPort, registry: ctx.registry, ready });
      ctx.dbHealth.start();
      await prepareSchema(ctx.db as Kysely<unknown>, config.dbSchema, migrations, config.migrations, ctx.log, abort.signal);
      await ctx.dbHealth.check();
      // Webhook secrets sealed in the database need the key they were sealed with: refused (SecretsKeyError, exit 2) without it.
      await checkSecretsKey(ctx.db, ctx.secrets);
      const nc = await connectServiceNats(ctx, abort.signal, async (fresh) => {
        await unlocker?.stop();
        await alertConsumer?.stop();
        await startUnlocker(fresh);
        await startAlertConsumer(fresh);
      });
      await startUnlocker(nc);
      await startAlertConsumer(nc);
      sender.start();
      // Before serving: the ledgers can price every event of the current catalog version.
      await retrying(ctx.log, "current price sheet publish", abort.signal, () => publishCurrentPriceSheet(ctx));
      grpcPort = await bindServer(server, config.grpcHost, config.grpcPort, serverCredentials(config.tls));
      bound = true;
      ctx.log.info({ grpc_port: grpcPort, ops_port: ops.port, tls: config.tls ? (config.tls.clientCaFile ? "mtls" : "tls") : "off", callers: callers.identities }, "control-plane started");
    },
    async stop() {
      abort.abort();
      bound = false;
      await shutdownServer(server, 2_000);
      await unlocker?.stop();
      await alertConsumer?.stop();
      await sender.stop();
      await closeNats(ctx.nats);
      await ops?.close();
      await ctx.dbHealth.stop();
      await ctx.db.destroy();
      await ctx.tracing?.shutdown();
    },
  };
}
