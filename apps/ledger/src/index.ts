import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { prepareSchema, runMigrateStep, type Kysely } from "@gateway/db";
import { createLogger, startOpsServer } from "@gateway/observability";
import { addHealthService, addService, bindServer, CallerAuthenticator, callerGuard, grpc, ledgerService, serverCredentials, shutdownServer, unauthenticatedCallers } from "@gateway/proto";
import { Counter } from "@gateway/observability";
import type { LedgerConfig } from "./config.js";
import { connectServiceNats, createContext, type LedgerContext, type LedgerOverrides } from "./context.js";
import { closeNats, retrying } from "@gateway/nats";
import { tracingServerInterceptor } from "@gateway/proto/tracing";
import { unavailableWhenDbDown } from "@gateway/db";
import type { LedgerDb } from "./db/schema.js";
import { migrations } from "./db/migrations/index.js";
import { UsageConsumer } from "./consumer/usage-consumer.js";
import { ensureLedgerStream, ensureUsageStream } from "./consumer/ensure-stream.js";
import { LeaseSweeper } from "./leases/sweeper.js";
import { RecordsMaintenance } from "./records/maintenance.js";
import { checkBooks } from "./books.js";
import { replayUsage } from "./consumer/replay.js";
import { republishJournal } from "./top-ups/republish.js";
import { TopUpAnnouncer } from "./top-ups/announcer.js";
import { AlertWatch } from "./alerts/watch.js";
import { acquireLease } from "./rpc/acquire-lease.js";
import { getCredits } from "./rpc/get-credits.js";
import { getUsage } from "./rpc/get-usage.js";
import { lookupTrace } from "./rpc/lookup-trace.js";
import { releaseLease } from "./rpc/release-lease.js";
import { topUp, topUpWithGrant } from "./rpc/top-up.js";
import { listHolds } from "./rpc/list-holds.js";
import { listBudgets } from "./rpc/list-budgets.js";
import { costReport } from "./rpc/cost-report.js";
import { spendSeries } from "./rpc/spend-series.js";
import { listUsage } from "./rpc/list-usage.js";
import { guardrailCounts, orgBalances, providerHealth } from "./rpc/console-reads.js";
import { exportUsage } from "./rpc/export-usage.js";
import { refundUsage } from "./rpc/refund-usage.js";
import { issueCreditNote } from "./rpc/issue-credit-note.js";
import { grantPromoCredit } from "./rpc/grant-promo-credit.js";
import { setCreditLimit } from "./rpc/set-credit-limit.js";
import { listAdjustments } from "./rpc/list-adjustments.js";
import { usageFeed } from "./rpc/usage-feed.js";
import { getOrgBilling, setOrgBilling } from "./rpc/set-org-billing.js";
import { usageStatement } from "./rpc/usage-statement.js";

export { loadConfig, type LedgerConfig } from "./config.js";
export type { LedgerContext, LedgerOverrides } from "./context.js";
export { applyUsage, applyUsageBatch } from "./consumer/apply-usage.js";
/** For the benches that migrate or query a ledger schema themselves (bench/). */
export { migrations as ledgerMigrations } from "./db/migrations/index.js";
export type { LedgerDb } from "./db/schema.js";
export { histogramOf, LATENCY_BOUNDS_SQL } from "./rollups/latency.js";

/** The migrate step: applies this release's migrations to the configured schema (`node dist/main.js migrate`). */
export function migrateLedgerSchema(config: LedgerConfig): Promise<void> {
  const log = createLogger({ service: "ledger", level: config.logLevel });
  return runMigrateStep({ url: config.databaseUrl, schema: config.dbSchema, migrations, settings: config.migrations, log });
}

export interface Ledger {
  readonly ctx: LedgerContext;
  readonly db: Kysely<LedgerDb>;
  readonly grpcPort: number;
  readonly opsPort: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Builds the ledger; start() migrates, connects NATS, starts the consumer, sweeper and gRPC. */
export function createLedger(config: LedgerConfig, overrides: LedgerOverrides = {}): Ledger {
  const ctx = createContext(config, overrides);
  const server = new grpc.Server(ctx.tracing ? { interceptors: [tracingServerInterceptor(ctx.tracing)] } : {});
  // Every caller presents a token naming its identity; what each identity may call is METHOD_GRANTS
  // (the data-plane: leases, usage and credit reads; TopUp, ListHolds and any new method: admin only).
  const callers = new CallerAuthenticator(config.callerTokens);
  const refusals = new Counter({
    name: "ledger_rpc_refusals_total",
    help: "gRPC calls refused: unauthenticated (no or unknown token) or not_allowed (outside the caller's grants)",
    labelNames: ["method", "reason"],
    registers: [ctx.metrics.registry],
  });
  addService(
    server,
    ledgerService(),
    {
      AcquireLease: acquireLease(ctx),
      ReleaseLease: releaseLease(ctx),
      GetUsage: getUsage(ctx),
      LookupTrace: lookupTrace(ctx),
      GetCredits: getCredits(ctx),
      TopUp: topUp(ctx),
      TopUpWithGrant: topUpWithGrant(ctx),
      ListHolds: listHolds(ctx),
      ExportUsage: exportUsage(ctx),
      CostReport: costReport(ctx),
      SpendSeries: spendSeries(ctx),
      ListUsage: listUsage(ctx),
      OrgBalances: orgBalances(ctx),
      ProviderHealth: providerHealth(ctx),
      GuardrailCounts: guardrailCounts(ctx),
      CheckBooks: checkBooks(ctx),
      ReplayUsage: replayUsage(ctx),
      RepublishJournal: republishJournal(ctx),
      ListBudgets: listBudgets(ctx),
      RefundUsage: refundUsage(ctx),
      IssueCreditNote: issueCreditNote(ctx),
      GrantPromoCredit: grantPromoCredit(ctx),
      SetCreditLimit: setCreditLimit(ctx),
      UsageFeed: usageFeed(ctx),
      SetOrgBilling: setOrgBilling(ctx),
      GetOrgBilling: getOrgBilling(ctx),
      UsageStatement: usageStatement(ctx),
      ListAdjustments: listAdjustments(ctx),
    },
    {
      guard: callerGuard(
        ledgerService().name,
        callers,
        (reason, method, identity) => {
          refusals.inc({ method, reason });
          ctx.log.debug({ method, reason, caller: identity }, "rpc refused");
        },
        unauthenticatedCallers(
          config.unauthenticatedCallers,
          new Counter({
            name: "ledger_rpc_unauthenticated_calls_total",
            help: "gRPC calls admitted without credentials (LEDGER_UNAUTHENTICATED_CALLERS, during an upgrade)",
            labelNames: ["method"],
            registers: [ctx.metrics.registry],
          }),
        ),
      ),
      onUnexpected: (err, method) => ctx.log.error({ err, method }, "rpc failed"),
      translate: unavailableWhenDbDown,
    },
  );
  let grpcPort = config.grpcPort;
  let ops: Awaited<ReturnType<typeof startOpsServer>> | undefined;
  let consumer: UsageConsumer | undefined;
  let announcer: TopUpAnnouncer | undefined;
  const sweeper = new LeaseSweeper(ctx);
  // Crossed thresholds into the alerts outbox; the announcer (on whichever NATS connection is current) publishes them.
  const alertWatch = new AlertWatch(ctx, () => announcer?.kick());
  ctx.onApplied = (orgs) => alertWatch.touched(orgs);
  const maintenance = new RecordsMaintenance(ctx);
  let bound = false;
  let stopped: Promise<void> | undefined;
  // Aborted by stop(): ends the waits for Postgres and NATS of a start() still in progress.
  const abort = new AbortController();
  // Migrations ran before the consumer starts, so a running consumer implies them. Every answer
  // needs Postgres, and usage is not applied without NATS: not ready without either.
  const ready = () => bound && (!config.consume || consumer?.running === true) && ctx.natsConnected && ctx.dbHealth.healthy;
  addHealthService(server, ["gateway.ledger.v1.LedgerService"], ready);

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
      // Ops first: /healthz answers (and /readyz says 503) while migrations and NATS are pending.
      ops = await startOpsServer({ host: config.opsHost, port: config.opsPort, registry: ctx.metrics.registry, ready });
      ctx.dbHealth.start();
      await prepareSchema(ctx.db as Kysely<unknown>, config.dbSchema, migrations, config.migrations, ctx.log, abort.signal);
      await ctx.dbHealth.check();
      /** Everything that pulls from or publishes to NATS, on connection `nc` (again on a replacement). */
      const startNatsWork = (nc: NatsConnection) =>
        retrying(ctx.log, "usage consumer start", abort.signal, async () => {
          await consumer?.stop();
          await announcer?.stop();
          if (config.consume) {
            consumer = new UsageConsumer(ctx, nc);
            await consumer.start();
          } else {
            // An RPC-only replica still reads the durable's progress (usage lookups, lease settlement).
            await ensureUsageStream(await jetstreamManager(nc), config, ctx.log);
          }
          // The announcer publishes with a JetStream ack: its stream must exist before the first top-up.
          await ensureLedgerStream(await jetstreamManager(nc), config, ctx.log);
          announcer = new TopUpAnnouncer(ctx, nc);
          ctx.onTopUp = (orgId) => {
            announcer?.kick();
            if (orgId) alertWatch.touched([orgId]);
          };
          announcer.start();
          if (abort.signal.aborted) {
            // stop() ran meanwhile and cannot have seen these.
            await consumer?.stop();
            await announcer.stop();
          }
        });
      await startNatsWork(await connectServiceNats(ctx, abort.signal, startNatsWork));
      sweeper.start();
      ctx.feedWatermark.start();
      alertWatch.start();
      maintenance.start();
      ctx.streamWatch.start();
      grpcPort = await bindServer(server, config.grpcHost, config.grpcPort, serverCredentials(config.tls));
      bound = true;
      ctx.log.info({ grpc_port: grpcPort, ops_port: ops.port, tls: config.tls ? (config.tls.clientCaFile ? "mtls" : "tls") : "off", callers: callers.identities }, "ledger started");
    },
    stop() {
      // Idempotent, and safe after a start() that failed half-way.
      stopped ??= (async () => {
        abort.abort();
        ctx.closing.abort();
        bound = false;
        await consumer?.stop();
        await announcer?.stop();
        await sweeper.stop();
        await ctx.feedWatermark.stop();
        await alertWatch.stop();
        await maintenance.stop();
        await ctx.streamWatch.stop();
        await shutdownServer(server, 2_000);
        await closeNats(ctx.nats);
        await ctx.dbHealth.stop();
        await ctx.db.destroy();
        await ops?.close();
        await ctx.tracing?.shutdown();
        ctx.log.info("ledger stopped");
      })();
      return stopped;
    },
  };
}
