import { migrate, type Kysely } from "@gateway/db";
import { startOpsServer } from "@gateway/observability";
import { addHealthService, addService, adminTokenGuard, adminService, bindServer, controlService, grpc, shutdownServer } from "@gateway/proto";
import type { ControlPlaneConfig } from "./config.js";
import { connectNats, createContext, type ControlContext, type ControlOverrides } from "./context.js";
import type { ControlDb } from "./db/schema.js";
import { migrations } from "./db/migrations/index.js";
import { applyCatalog } from "./rpc/apply-catalog.js";
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
import { setTrialPolicy } from "./rpc/set-trial-policy.js";
import { getGuardrails, setGuardrails } from "./rpc/guardrails.js";
import { claimVideoJobs, createVideoJob, getVideoJob, updateVideoJob } from "./rpc/video-jobs.js";

export { loadConfig, type ControlPlaneConfig } from "./config.js";
export type { ControlContext } from "./context.js";
export { hashSecret } from "./keys/secret.js";
export { policyHash } from "./rpc/get-trial-policy.js";

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
  const server = new grpc.Server();
  const onUnexpected = (err: unknown, method: string) => ctx.log.error({ err, method }, "rpc failed");
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
      UpdateVideoJob: updateVideoJob(ctx),
    },
    { onUnexpected },
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
      ApplyCatalog: applyCatalog(ctx),
      SetOrgTrial: setOrgTrial(ctx),
      SetOrgBudget: setOrgBudget(ctx),
      SetTrialPolicy: setTrialPolicy(ctx),
      SetGuardrails: setGuardrails(ctx),
      GetGuardrails: getGuardrails(ctx),
    },
    { guard: adminTokenGuard(config.adminToken), onUnexpected },
  );
  addHealthService(server, ["gateway.control.v1.ControlService", "gateway.control.v1.AdminService"], () => bound && ctx.nats?.isClosed() === false);
  let grpcPort = config.grpcPort;
  let ops: Awaited<ReturnType<typeof startOpsServer>> | undefined;
  let unlocker: TrialUnlocker | undefined;
  let bound = false;

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
      await migrate(ctx.db as Kysely<unknown>, config.dbSchema, migrations);
      const nc = await connectNats(ctx);
      unlocker = new TrialUnlocker(ctx, nc);
      await unlocker.start();
      grpcPort = await bindServer(server, config.grpcHost, config.grpcPort);
      bound = true;
      ops = await startOpsServer({ host: config.opsHost, port: config.opsPort, registry: ctx.registry, ready: () => bound && ctx.nats?.isClosed() === false });
      ctx.log.info({ grpc_port: grpcPort, ops_port: ops.port }, "control-plane started");
    },
    async stop() {
      bound = false;
      await shutdownServer(server, 2_000);
      await unlocker?.stop();
      await ctx.nats?.drain().catch(() => undefined);
      await ops?.close();
      await ctx.db.destroy();
    },
  };
}
