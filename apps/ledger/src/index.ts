import { jetstreamManager } from "@nats-io/jetstream";
import { migrate, type Kysely } from "@gateway/db";
import { startOpsServer } from "@gateway/observability";
import { addHealthService, addService, adminTokenGuard, bindServer, grpc, ledgerService, shutdownServer } from "@gateway/proto";
import type { LedgerConfig } from "./config.js";
import { connectNats, createContext, type LedgerContext, type LedgerOverrides } from "./context.js";
import type { LedgerDb } from "./db/schema.js";
import { migrations } from "./db/migrations/index.js";
import { UsageConsumer } from "./consumer/usage-consumer.js";
import { ensureLedgerStream } from "./consumer/ensure-stream.js";
import { LeaseSweeper } from "./leases/sweeper.js";
import { TopUpAnnouncer } from "./top-ups/announcer.js";
import { acquireLease } from "./rpc/acquire-lease.js";
import { getCredits } from "./rpc/get-credits.js";
import { getUsage } from "./rpc/get-usage.js";
import { releaseLease } from "./rpc/release-lease.js";
import { topUp } from "./rpc/top-up.js";
import { listHolds } from "./rpc/list-holds.js";

export { loadConfig, type LedgerConfig } from "./config.js";
export type { LedgerContext, LedgerOverrides } from "./context.js";
export { applyUsage } from "./consumer/apply-usage.js";

export interface Ledger {
  readonly ctx: LedgerContext;
  readonly db: Kysely<LedgerDb>;
  readonly grpcPort: number;
  readonly opsPort: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const ADMIN_METHODS = new Set(["TopUp", "ListHolds"]);

/** Builds the ledger; start() migrates, connects NATS, starts the consumer, sweeper and gRPC. */
export function createLedger(config: LedgerConfig, overrides: LedgerOverrides = {}): Ledger {
  const ctx = createContext(config, overrides);
  const server = new grpc.Server();
  addService(
    server,
    ledgerService(),
    {
      AcquireLease: acquireLease(ctx),
      ReleaseLease: releaseLease(ctx),
      GetUsage: getUsage(ctx),
      GetCredits: getCredits(ctx),
      TopUp: topUp(ctx),
      ListHolds: listHolds(ctx),
    },
    { guard: adminTokenGuard(config.adminToken, ADMIN_METHODS), onUnexpected: (err, method) => ctx.log.error({ err, method }, "rpc failed") },
  );
  let grpcPort = config.grpcPort;
  let ops: Awaited<ReturnType<typeof startOpsServer>> | undefined;
  let consumer: UsageConsumer | undefined;
  let announcer: TopUpAnnouncer | undefined;
  const sweeper = new LeaseSweeper(ctx);
  let bound = false;
  let stopped: Promise<void> | undefined;
  // Migrations ran before the consumer starts, so a running consumer implies them.
  const ready = () => bound && consumer?.running === true && ctx.nats?.isClosed() === false;
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
      await migrate(ctx.db as Kysely<unknown>, config.dbSchema, migrations);
      const nc = await connectNats(ctx);
      consumer = new UsageConsumer(ctx, nc);
      await consumer.start();
      // The announcer publishes with a JetStream ack: its stream must exist before the first top-up.
      await ensureLedgerStream(await jetstreamManager(nc), ctx.log);
      announcer = new TopUpAnnouncer(ctx, nc);
      ctx.onTopUp = () => announcer?.kick();
      announcer.start();
      sweeper.start();
      grpcPort = await bindServer(server, config.grpcHost, config.grpcPort);
      bound = true;
      ctx.log.info({ grpc_port: grpcPort, ops_port: ops.port }, "ledger started");
    },
    stop() {
      // Idempotent, and safe after a start() that failed half-way.
      stopped ??= (async () => {
        bound = false;
        await consumer?.stop();
        await announcer?.stop();
        await sweeper.stop();
        await shutdownServer(server, 2_000);
        await ctx.nats?.drain().catch(() => undefined);
        await ctx.db.destroy();
        await ops?.close();
        ctx.log.info("ledger stopped");
      })();
      return stopped;
    },
  };
}
