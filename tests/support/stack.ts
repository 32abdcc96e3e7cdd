import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createControlPlane, loadConfig as loadControlConfig, migrateControlSchema, type ControlOverrides } from "@gateway/control-plane";
import { createDataPlane, loadConfig as loadDataPlaneConfig, type DataPlane } from "@gateway/data-plane";
import { startFakeUpstream, type FakeUpstream } from "@gateway/fake-upstream";
import { createLedger, loadConfig as loadLedgerConfig, migrateLedgerSchema } from "@gateway/ledger";
import { adminService, bearer, channelCredentials, createClient, ledgerService, type AdminServiceMethods, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { createDatabase, eventually, freePort, startNats, templateDatabase, testPgUrl, type NatsHandle } from "@gateway/testing";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { FAKE_UPSTREAM_API_KEY } from "../../scripts/lib/demo-catalog.ts";
import { writeNatsAuth, type NatsAuth, type NatsUser } from "../../scripts/lib/nats-auth.ts";
import { seedDemo, type SeedResult } from "../../scripts/lib/seed.ts";
import { makeTestCerts, type TestCerts } from "./certs.ts";

type Ledger = ReturnType<typeof createLedger>;
type ControlPlane = ReturnType<typeof createControlPlane>;

export interface StackOptions {
  /** Data-plane replicas to start (default 1). */
  dataPlanes?: number;
  /** Extra DATA_PLANE_* settings. */
  dataPlaneEnv?: Record<string, string>;
  /** The demo organization's name (default `demo-<suite>`; `make up`'s is `demo`). */
  demoOrgName?: string;
  /** Demo org top-up, minor units (default 100 credits). */
  topUpMinor?: number;
  /** Extra LEDGER_* settings. */
  ledgerEnv?: Record<string, string>;
  /** gRPC over mutual TLS between every part (certificates made for the run). */
  mtls?: boolean;
  /** Settings given to all three services (the standard OTEL_* variables). */
  serviceEnv?: Record<string, string>;
  /**
   * The suite makes NATS refuse things on purpose. Otherwise stop() fails when nats-server refused
   * anything (a subject or JetStream call a service uses that its permissions in
   * scripts/lib/nats-auth.ts leave out).
   */
  natsViolationsExpected?: boolean;
  /** What the control-plane is built with besides its environment (a resolver for webhook hosts). */
  controlOverrides?: ControlOverrides;
}

/**
 * The whole gateway in this process against a real PostgreSQL database (one per suite) and a real
 * nats-server (one per suite), with the fake upstream standing in for the providers.
 */
export interface Stack {
  /** The control-plane's environment, to start another instance on the same database and NATS. */
  controlConfig: Record<string, string>;
  dbUrl: string;
  readonly nats: NatsHandle;
  /**
   * The users NATS runs with (scripts/lib/nats-auth.ts): each service connects as its own, with
   * only its subjects; nothing connects without credentials.
   */
  natsAuth: NatsAuth;
  /** A new NATS connection as `user` (close it when done). */
  natsAs(user: NatsUser): Promise<NatsConnection>;
  /** The permission violations nats-server has logged so far ("Publish Violation …", "Subscription Violation …"). */
  natsViolations(): string[];
  fake: FakeUpstream;
  adminToken: string;
  /** The DATA_PLANE_* caller tokens, NATS credentials (and TLS files) a data-plane of this stack needs, for replicas started elsewhere. */
  dataPlaneCallerEnv: Record<string, string>;
  /** The certificates, when the stack runs with mtls. */
  certs: TestCerts | undefined;
  admin: TypedClient<AdminServiceMethods>;
  ledgerClient: TypedClient<LedgerServiceMethods>;
  demo: SeedResult;
  dataPlanes: DataPlane[];
  /** OpenAI-style base URL (…/v1) of data-plane replica i. */
  baseUrl(i?: number): string;
  control: ControlPlane;
  ledger(): Ledger;
  /** Stops nats-server (its JetStream store is kept). */
  stopNats(): Promise<void>;
  /** Starts nats-server again on the same port and store. */
  startNats(): Promise<void>;
  stopLedger(): Promise<void>;
  /** Starts the ledger again, with `env` over its settings (e.g. LEDGER_CONSUME). */
  startLedger(env?: Record<string, string>): Promise<void>;
  addDataPlane(env?: Record<string, string>): Promise<DataPlane>;
  /** Applies a catalog document and waits until every replica serves that catalog version. */
  applyCatalog(doc: unknown): Promise<void>;
  stop(): Promise<void>;
}

const silent = { LOG_LEVEL: "silent" };

/**
 * A database both services have migrated, made once per worker process: each stack's database is a
 * copy of it, so the services' migrate step at start finds nothing to do (a stack started in
 * ~0.7 s instead of ~2 s). Suites that test migrations make their own databases.
 */
const migratedTemplate = () =>
  templateDatabase(testPgUrl(), "e2e", async (url) => {
    const adminToken = "template-admin-token-0123456789";
    await migrateControlSchema(loadControlConfig({ CONTROL_PLANE_DATABASE_URL: url, CONTROL_PLANE_ADMIN_TOKEN: adminToken, CONTROL_PLANE_LOG_LEVEL: silent.LOG_LEVEL }));
    await migrateLedgerSchema(loadLedgerConfig({ LEDGER_DATABASE_URL: url, LEDGER_ADMIN_TOKEN: adminToken, LEDGER_LOG_LEVEL: silent.LOG_LEVEL }));
  });

export async function startStack(name: string, opts: StackOptions = {}): Promise<Stack> {
  const USAGE_SIGNING_KEY = `usage-${randomBytes(24).toString("hex")}`;
  const dbUrl = await createDatabase(testPgUrl(), `e2e_${name}`, await migratedTemplate());
  const natsDir = mkdtempSync(join(tmpdir(), "gw-stack-nats-"));
  // Fresh passwords for every service user, in a folder of their own (the store is not private).
  const natsAuth = writeNatsAuth(mkdtempSync(join(tmpdir(), "gw-stack-nats-auth-")));
  const natsLog: string[] = [];
  const natsOptions = {
    storeDir: natsDir,
    configFile: natsAuth.configFile,
    env: natsAuth.serverEnv,
    log: (line: string) => void natsLog.push(line),
    // The ledger reads the node's store from /jsz (docs/operations.md, "Watching the streams").
    monitorPort: await freePort(),
  };
  let nats = await startNats(natsOptions);
  const violations = () =>
    natsLog
      .join("")
      .split("\n")
      .filter((l) => / Violation - /.test(l));
  const fake = await startFakeUpstream({ apiKey: FAKE_UPSTREAM_API_KEY });
  const adminToken = "test-admin-token-0123456789";
  // Each server knows the data-plane by its own token: one leaked token opens one service, within its grants.
  const dataPlaneTokens = { control: "test-dp-control-token-0123456789", ledger: "test-dp-ledger-token-0123456789" };
  const certs = opts.mtls ? makeTestCerts() : undefined;
  const serverTls = (prefix: string): Record<string, string> =>
    certs ? { [`${prefix}TLS_CERT_FILE`]: certs.serverCertFile, [`${prefix}TLS_KEY_FILE`]: certs.serverKeyFile, [`${prefix}TLS_CLIENT_CA_FILE`]: certs.caFile } : {};
  const clientTls = certs ? { caFile: certs.caFile, ...certs.client } : undefined;
  const dataPlaneCallerEnv: Record<string, string> = {
    DATA_PLANE_CONTROL_PLANE_TOKEN: dataPlaneTokens.control,
    DATA_PLANE_LEDGER_TOKEN: dataPlaneTokens.ledger,
    // Every replica signs and accepts the same MCP session ids (docs/mcp.md).
    DATA_PLANE_MCP_SESSION_SECRET: `mcp-${randomBytes(16).toString("hex")}`,
    // Usage messages are signed, and the ledger takes no other (docs/security.md).
    DATA_PLANE_USAGE_SIGNING_KEY: USAGE_SIGNING_KEY,
    // Every replica seals and opens the same stored Responses (docs/security.md).
    DATA_PLANE_RESPONSES_SECRET: `responses-${randomBytes(24).toString("hex")}`,
    // The fake upstream's MCP server listens on loopback.
    DATA_PLANE_MCP_ALLOW_LOOPBACK: "true",
    ...natsAuth.env("data-plane"),
    ...(certs ? { DATA_PLANE_GRPC_TLS_CA_FILE: certs.caFile, DATA_PLANE_GRPC_TLS_CERT_FILE: certs.client.certFile, DATA_PLANE_GRPC_TLS_KEY_FILE: certs.client.keyFile } : {}),
  };
  const spoolRoot = mkdtempSync(join(tmpdir(), "gw-spool-"));

  // Operators' top-up grants: the control-plane signs, the ledger verifies (docs/security.md).
  const grantKeys = generateKeyPairSync("ed25519");
  const controlConfig = {
    CONTROL_PLANE_GRANT_SIGNING_KEY: grantKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    // Seals the organizations' webhook signing secrets (docs/billing.md, "Alerts").
    CONTROL_PLANE_SECRETS_KEY: `secrets-${randomBytes(24).toString("hex")}`,
    CONTROL_PLANE_DATABASE_URL: dbUrl,
    CONTROL_PLANE_MIGRATE_ON_START: "true",
    CONTROL_PLANE_NATS_URL: nats.url,
    ...natsAuth.env("control-plane"),
    CONTROL_PLANE_GRPC_PORT: "0",
    CONTROL_PLANE_OPS_PORT: "0",
    CONTROL_PLANE_ADMIN_TOKEN: adminToken,
    CONTROL_PLANE_DATA_PLANE_TOKEN: dataPlaneTokens.control,
    CONTROL_PLANE_LOG_LEVEL: silent.LOG_LEVEL,
    ...serverTls("CONTROL_PLANE_"),
    ...opts.serviceEnv,
  };
  const control = createControlPlane(loadControlConfig(controlConfig), opts.controlOverrides);
  await control.start();
  const ledgerPort = await freePort();
  const ledgerEnv = {
    LEDGER_DATABASE_URL: dbUrl,
    LEDGER_MIGRATE_ON_START: "true",
    LEDGER_NATS_URL: nats.url,
    ...natsAuth.env("ledger"),
    LEDGER_GRPC_PORT: String(ledgerPort),
    LEDGER_OPS_PORT: "0",
    LEDGER_ADMIN_TOKEN: adminToken,
    LEDGER_DATA_PLANE_TOKEN: dataPlaneTokens.ledger,
    LEDGER_LOG_LEVEL: silent.LOG_LEVEL,
    ...serverTls("LEDGER_"),
    LEDGER_SWEEP_INTERVAL_MS: "200",
    LEDGER_NATS_MONITOR_URLS: nats.monitorUrl!,
    LEDGER_USAGE_SIGNING_KEYS: USAGE_SIGNING_KEY,
    LEDGER_GRANT_PUBLIC_KEY: grantKeys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    ...opts.serviceEnv,
    ...opts.ledgerEnv,
  };
  let ledger: Ledger | undefined = createLedger(loadLedgerConfig(ledgerEnv));
  await ledger.start();

  const controlAddr = `127.0.0.1:${control.grpcPort}`;
  const ledgerAddr = `127.0.0.1:${ledgerPort}`;
  const clientOptions = { timeoutMs: 10_000, metadata: bearer(adminToken), credentials: channelCredentials(clientTls) };
  const admin = createClient(adminService(), controlAddr, clientOptions);
  const ledgerClient = createClient(ledgerService(), ledgerAddr, clientOptions);
  const demo = await seedDemo({
    controlPlaneAddr: controlAddr,
    ledgerAddr,
    adminToken,
    ...(clientTls ? { tls: clientTls } : {}),
    fakeUpstreamUrl: fake.url,
    orgName: opts.demoOrgName ?? `demo-${name}`,
    topUpMinor: opts.topUpMinor ?? 100_000_000,
  });

  const dataPlanes: DataPlane[] = [];
  let replica = 0;
  const addDataPlane = async (env: Record<string, string> = {}) => {
    const id = `dp-${name}-${replica++}`;
    const dp = createDataPlane(
      loadDataPlaneConfig({
        DATA_PLANE_PORT: "0",
        DATA_PLANE_CONTROL_PLANE_ADDR: controlAddr,
        DATA_PLANE_LEDGER_ADDR: ledgerAddr,
        DATA_PLANE_NATS_URL: nats.url,
        DATA_PLANE_LOG_LEVEL: "silent",
        DATA_PLANE_REPLICA_ID: id,
        DATA_PLANE_SPOOL_DIR: join(spoolRoot, id),
        DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
        // A stack's streams still open when its suite stops (left by a test on purpose) end after a
        // second, not the deployed 10 s: the shutdown's own tests set theirs.
        DATA_PLANE_SHUTDOWN_STREAM_DRAIN_MS: "1000",
        ...dataPlaneCallerEnv,
        ...opts.serviceEnv,
        ...opts.dataPlaneEnv,
        ...env,
      }),
    );
    await dp.start();
    dataPlanes.push(dp);
    return dp;
  };
  for (let i = 0; i < (opts.dataPlanes ?? 1); i++) await addDataPlane();

  // The demo top-up ends the org's trial through ledger → control-plane → cache eviction; wait for it.
  await eventually(
    async () => {
      const r = await fetch(`${dataPlanes[0]!.url}/v1/models`, { headers: { authorization: `Bearer ${demo.secret}` } });
      const j = (await r.json()) as { data?: unknown[] };
      return j.data && j.data.length > 0 ? true : undefined;
    },
    10_000,
    "demo org out of trial",
  );

  return {
    controlConfig,
    dbUrl,
    get nats() {
      return nats;
    },
    natsAuth,
    natsAs: (user) => connect({ servers: nats.url, name: `test as ${user}`, ...natsAuth.connectOptions(user) }),
    natsViolations: violations,
    async stopNats() {
      await nats.stop();
    },
    async startNats() {
      nats = await startNats({ ...natsOptions, port: nats.port });
    },
    fake,
    adminToken,
    dataPlaneCallerEnv,
    certs,
    admin,
    ledgerClient,
    demo,
    dataPlanes,
    control,
    baseUrl: (i = 0) => `${dataPlanes[i]!.url}/v1`,
    ledger: () => ledger!,
    async stopLedger() {
      await ledger?.stop();
      ledger = undefined;
    },
    async startLedger(env: Record<string, string> = {}) {
      ledger = createLedger(loadLedgerConfig({ ...ledgerEnv, ...env }));
      await ledger.start();
    },
    addDataPlane,
    async applyCatalog(doc: unknown) {
      const { version } = await admin.ApplyCatalog({ document_json: JSON.stringify(doc) });
      // The change event usually lands in milliseconds; on a loaded machine the periodic refresh (10 s) may be the one that brings it.
      await eventually(() => (dataPlanes.every((dp) => dp.ctx.catalog.current.version >= version) ? true : undefined), 15_000, `catalog ${version} on every replica`);
    },
    async stop() {
      // Tolerant: a test may already have stopped a component to simulate an outage.
      const quietly = (p: Promise<unknown>) => p.catch(() => undefined);
      for (const dp of dataPlanes) await quietly(dp.stop());
      admin.close();
      ledgerClient.close();
      await quietly(ledger?.stop() ?? Promise.resolve());
      await quietly(control.stop());
      await fake.close();
      await nats.stop();
      rmSync(spoolRoot, { recursive: true, force: true });
      rmSync(natsDir, { recursive: true, force: true });
      rmSync(natsAuth.dir, { recursive: true, force: true });
      if (certs) rmSync(certs.dir, { recursive: true, force: true });
      const refused = violations();
      if (refused.length > 0 && !opts.natsViolationsExpected) {
        throw new Error(`nats-server refused what a service did: grant it in scripts/lib/nats-auth.ts\n${refused.join("\n")}`);
      }
    },
  };
}
