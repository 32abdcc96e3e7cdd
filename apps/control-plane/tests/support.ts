import { adminService, controlService, createClient, type AdminServiceMethods, type ControlServiceMethods, type TypedClient } from "@gateway/proto";
import { createDatabase, startNats, templateDatabase, testPgUrl, type NatsHandle } from "@gateway/testing";
import { createControlPlane, loadConfig, migrateControlSchema, type ControlPlane } from "../src/index.js";
import type { ControlOverrides } from "../src/context.js";

/** A control-plane on free ports against a fresh database and its own nats-server, with an admin and a data-plane client. */
export interface TestControlPlane {
  cp: ControlPlane;
  admin: TypedClient<AdminServiceMethods>;
  control: TypedClient<ControlServiceMethods>;
  nats: NatsHandle;
  /** The environment it was started with (another instance on the same database and NATS takes it). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A database the control-plane's migrations ran on, once per worker: each test control-plane's is a copy of it. */
const migratedTemplate = () =>
  templateDatabase(testPgUrl(), "control", (url) =>
    migrateControlSchema(loadConfig({ CONTROL_PLANE_DATABASE_URL: url, CONTROL_PLANE_ADMIN_TOKEN: "template-admin-token-0123456789", CONTROL_PLANE_LOG_LEVEL: "silent" })),
  );

export async function startTestControlPlane(
  database: string,
  adminToken: string,
  dataPlaneToken: string,
  extraEnv: Record<string, string> = {},
  overrides: ControlOverrides = {},
): Promise<TestControlPlane> {
  const db = await createDatabase(testPgUrl(), database, await migratedTemplate());
  const nats = await startNats();
  const env = {
    CONTROL_PLANE_DATABASE_URL: db,
    CONTROL_PLANE_MIGRATE_ON_START: "true",
    CONTROL_PLANE_NATS_URL: nats.url,
    CONTROL_PLANE_GRPC_PORT: "0",
    CONTROL_PLANE_OPS_PORT: "0",
    CONTROL_PLANE_ADMIN_TOKEN: adminToken,
    CONTROL_PLANE_DATA_PLANE_TOKEN: dataPlaneToken,
    CONTROL_PLANE_LOG_LEVEL: "silent",
    ...extraEnv,
  };
  const cp = createControlPlane(loadConfig(env), overrides);
  await cp.start();
  const addr = `127.0.0.1:${cp.grpcPort}`;
  const admin = createClient(adminService(), addr, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${adminToken}` } });
  const control = createClient(controlService(), addr, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${dataPlaneToken}` } });
  return {
    cp,
    admin,
    control,
    nats,
    env,
    stop: async () => {
      admin.close();
      control.close();
      await cp.stop();
      await nats.stop();
    },
  };
}
