import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GrpcStatus } from "@gateway/errors";
import { bearer, channelCredentials, createClient, gatewayServices, grpc, healthService, ledgerService, mayCall, METHOD_GRANTS } from "@gateway/proto";
import { eventually } from "@gateway/testing";
import { loadConfig as loadConsoleConfig } from "@gateway/console";
import { CONSOLE_TOKENS, consoleServiceEnv, consoleUser, startConsoleFor } from "../support/console.ts";
import { createOrg } from "../support/orgs.ts";
import { startStack, type Stack } from "../support/stack.ts";
import type { ErrorBody } from "../support/api.ts";

/**
 * Internal gRPC calls are authenticated: every method of every gateway service refuses a caller
 * without a known token (UNAUTHENTICATED), the data-plane's token reaches only the methods granted
 * to it (PERMISSION_DENIED elsewhere), and with mTLS on, nobody without a certificate from the
 * internal CA gets a connection at all. The services are the real ones, on real Postgres and NATS.
 */

type RawService = ReturnType<typeof gatewayServices>[number];

interface Outcome {
  code: number;
  details: string;
}

/** One call, unary or server-streaming, with an empty request; the gRPC status it ends with. */
function rawCall(svc: RawService, address: string, method: string, o: { token?: string; credentials?: grpc.ChannelCredentials } = {}): Promise<Outcome> {
  const Ctor = grpc.makeGenericClientConstructor(svc.definition, svc.name);
  const client = new Ctor(address, o.credentials ?? grpc.credentials.createInsecure());
  const md = new grpc.Metadata();
  if (o.token) md.set("authorization", `Bearer ${o.token}`);
  const deadline = Date.now() + 5_000;
  // biome-ignore lint/complexity/noBannedTypes: grpc-js makes the methods at run time.
  const fn = (client as unknown as Record<string, Function>)[method]!.bind(client);
  return new Promise<Outcome>((resolve) => {
    const done = (code: number, details: string) => {
      client.close();
      resolve({ code, details });
    };
    if (svc.definition[method]!.responseStream) {
      const call = fn({}, md, { deadline }) as grpc.ClientReadableStream<unknown>;
      call.on("data", () => undefined);
      call.on("error", (err: grpc.ServiceError) => done(err.code, err.details));
      call.on("status", (s: grpc.StatusObject) => s.code === GrpcStatus.OK && done(s.code, s.details));
    } else {
      fn({}, md, { deadline }, (err: grpc.ServiceError | null) => done(err ? err.code : GrpcStatus.OK, err?.details ?? ""));
    }
  });
}

const services = gatewayServices();
const methodsOf = (svc: RawService) => Object.keys(svc.definition);

describe("with caller tokens", () => {
  let stack: Stack;
  let addressOf: (svc: RawService) => string;
  beforeAll(async () => {
    stack = await startStack("internal_auth");
    addressOf = (svc) => {
      if (svc.name.startsWith("gateway.control.")) return `127.0.0.1:${stack.control.grpcPort}`;
      if (svc.name.startsWith("gateway.ledger.")) return `127.0.0.1:${stack.ledger().grpcPort}`;
      throw new Error(`no server known for ${svc.name}: add it to this test`);
    };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("the grants name only methods the contracts define", () => {
    for (const [service, grants] of Object.entries(METHOD_GRANTS)) {
      const svc = services.find((s) => s.name === service);
      expect(svc, service).toBeDefined();
      for (const method of Object.keys(grants)) expect(methodsOf(svc!), `${service}/${method}`).toContain(method);
    }
  });

  it("every method of every service refuses a caller without a token, or with a token no one holds (UNAUTHENTICATED)", async () => {
    expect(services.map((s) => s.name)).toEqual(expect.arrayContaining(["gateway.control.v1.ControlService", "gateway.control.v1.AdminService", "gateway.ledger.v1.LedgerService"]));
    for (const svc of services) {
      for (const method of methodsOf(svc)) {
        const none = await rawCall(svc, addressOf(svc), method);
        expect({ method: `${svc.name}/${method}`, code: none.code }).toEqual({ method: `${svc.name}/${method}`, code: GrpcStatus.UNAUTHENTICATED });
        expect(none.details).toMatch(/^unauthenticated_caller:/);
        const wrong = await rawCall(svc, addressOf(svc), method, { token: "not-a-token-anyone-holds-0123456789" });
        expect({ method: `${svc.name}/${method}`, code: wrong.code }).toEqual({ method: `${svc.name}/${method}`, code: GrpcStatus.UNAUTHENTICATED });
      }
    }
  });

  it("the data-plane's token is refused (PERMISSION_DENIED) on every method not granted to it: it cannot top up, list holds, create keys or change the catalog", async () => {
    const refused: string[] = [];
    for (const svc of services) {
      const token = svc.name.startsWith("gateway.ledger.") ? stack.dataPlaneCallerEnv.DATA_PLANE_LEDGER_TOKEN : stack.dataPlaneCallerEnv.DATA_PLANE_CONTROL_PLANE_TOKEN;
      for (const method of methodsOf(svc).filter((m) => !mayCall("data-plane", svc.name, m))) {
        const r = await rawCall(svc, addressOf(svc), method, { token });
        expect({ method: `${svc.name}/${method}`, code: r.code }).toEqual({ method: `${svc.name}/${method}`, code: GrpcStatus.PERMISSION_DENIED });
        expect(r.details).toBe(`caller_not_allowed:data-plane may not call ${svc.name}/${method}`);
        refused.push(`${svc.name.split(".").at(-1)}/${method}`);
      }
    }
    expect(refused).toEqual(
      expect.arrayContaining(["LedgerService/TopUp", "LedgerService/ListHolds", "AdminService/CreateKey", "AdminService/ApplyCatalog", "AdminService/RevokeKey", "AdminService/SetOrgBudget"]),
    );
    // Refused before anything ran: a TopUp through the typed client changes no balance.
    const before = await stack.ledgerClient.GetCredits({ org_id: stack.demo.orgId });
    const dpLedger = createClient(ledgerService(), `127.0.0.1:${stack.ledger().grpcPort}`, {
      timeoutMs: 5_000,
      metadata: bearer(stack.dataPlaneCallerEnv.DATA_PLANE_LEDGER_TOKEN!),
    });
    await expect(dpLedger.TopUp({ org_id: stack.demo.orgId, amount_minor: 1_000_000, idempotency_key: "stolen" })).rejects.toMatchObject({ code: "caller_not_allowed" });
    expect((await stack.ledgerClient.GetCredits({ org_id: stack.demo.orgId })).topped_up_minor).toBe(before.topped_up_minor);
    dpLedger.close();
  });

  it("the data-plane's token does its usual work: a lease for an org's credit, and a chat completion through the SDK", async () => {
    const dpLedger = createClient(ledgerService(), `127.0.0.1:${stack.ledger().grpcPort}`, { timeoutMs: 5_000, metadata: bearer(stack.dataPlaneCallerEnv.DATA_PLANE_LEDGER_TOKEN!) });
    const lease = await dpLedger.AcquireLease({ org_id: stack.demo.orgId, lease_id: "", holder: "internal-auth-test", amount_minor: 1_000, min_amount_minor: 1, ttl_ms: 5_000 });
    expect(lease).toMatchObject({ org_id: stack.demo.orgId, granted_minor: 1_000 });
    await dpLedger.ReleaseLease({ lease_id: lease.lease_id, org_id: stack.demo.orgId, holder: "internal-auth-test", consumed_minor: 0 });
    dpLedger.close();
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    const r = await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "hello" }] });
    expect(r.choices[0]?.message.content).toBeTruthy();
  });

  it("each server knows the data-plane by its own token: the ledger's is no credential at the control-plane, nor the other way round", async () => {
    const control = services.find((s) => s.name === "gateway.control.v1.ControlService")!;
    const ledger = services.find((s) => s.name === "gateway.ledger.v1.LedgerService")!;
    expect((await rawCall(control, addressOf(control), "GetCatalog", { token: stack.dataPlaneCallerEnv.DATA_PLANE_LEDGER_TOKEN! })).code).toBe(GrpcStatus.UNAUTHENTICATED);
    expect((await rawCall(ledger, addressOf(ledger), "GetCredits", { token: stack.dataPlaneCallerEnv.DATA_PLANE_CONTROL_PLANE_TOKEN! })).code).toBe(GrpcStatus.UNAUTHENTICATED);
  });

  it("the standard health check stays open to probes without a token", async () => {
    for (const port of [stack.control.grpcPort, stack.ledger().grpcPort]) {
      const health = createClient(healthService(), `127.0.0.1:${port}`, { timeoutMs: 5_000 });
      expect(await health.Check({ service: "" })).toEqual({ status: "SERVING" });
      health.close();
    }
  });

  it("counts refusals by method and reason on the servers' metrics", async () => {
    const metrics = await (await fetch(`http://127.0.0.1:${stack.ledger().opsPort}/metrics`)).text();
    expect(metrics).toMatch(/ledger_rpc_refusals_total\{method="TopUp",reason="not_allowed"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/ledger_rpc_refusals_total\{method="GetCredits",reason="unauthenticated"[^}]*\} [1-9]/);
    const control = await (await fetch(`http://127.0.0.1:${stack.control.opsPort}/metrics`)).text();
    expect(control).toMatch(/control_rpc_refusals_total\{method="CreateKey",reason="not_allowed"[^}]*\} [1-9]/);
  });

  const chat = (url: string, secret = stack.demo.secret) =>
    fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "hi" }] }),
    });

  it("a data-plane whose control-plane token is refused is not ready and answers 503, never a 401 for the caller's valid key", async () => {
    const dp = await stack.addDataPlane({ DATA_PLANE_CONTROL_PLANE_TOKEN: "rotated-away-token-0123456789" });
    expect((await fetch(`${dp.url}/readyz`)).status).toBe(503);
    const r = await chat(dp.url);
    expect(r.status).toBe(503);
    expect(((await r.json()) as ErrorBody).error.code).toBe("service_unavailable");
  });

  it("a data-plane whose ledger token is refused places no hold and serves nothing it could not bill (503)", async () => {
    const dp = await stack.addDataPlane({ DATA_PLANE_LEDGER_TOKEN: "rotated-away-token-0123456789" });
    await eventually(async () => ((await fetch(`${dp.url}/readyz`)).status === 200 ? true : undefined), 10_000, "ready: its control-plane token is good");
    // An organization of its own: no other test's usage can still be on its way to the ledger.
    const org = await createOrg(stack, { balanceMinor: 1_000_000 });
    const r = await chat(dp.url, org.secret);
    expect(r.status).toBe(503);
    expect(((await r.json()) as ErrorBody).error.code).toBe("service_unavailable");
    expect(await stack.ledgerClient.GetCredits({ org_id: org.orgId })).toMatchObject({ spent_minor: 0, held_minor: 0, balance_minor: 1_000_000 });
  });
});

describe("with mTLS", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack("internal_auth_mtls", { mtls: true, serviceEnv: consoleServiceEnv });
  });
  afterAll(async () => {
    await stack?.stop();
  });
  const ledgerSvc = () => services.find((s) => s.name === "gateway.ledger.v1.LedgerService")!;
  const adminSvc = () => services.find((s) => s.name === "gateway.control.v1.AdminService")!;

  it("the gateway works end to end over mTLS: seeded through gatewayctl's credentials, a chat completion through the data-plane", async () => {
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    const r = await openai.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "hello over mtls" }] });
    expect(r.choices[0]?.message.content).toBeTruthy();
  });

  it("the console reaches the control-plane and the ledger with its certificate (CONSOLE_GRPC_TLS_*)", async () => {
    const certs = stack.certs!;
    const config = loadConsoleConfig({
      CONSOLE_CONTROL_PLANE_TOKEN: CONSOLE_TOKENS.control,
      CONSOLE_LEDGER_TOKEN: CONSOLE_TOKENS.ledger,
      CONSOLE_GRPC_TLS_CA_FILE: certs.caFile,
      CONSOLE_GRPC_TLS_CERT_FILE: certs.client.certFile,
      CONSOLE_GRPC_TLS_KEY_FILE: certs.client.keyFile,
    });
    expect(config.grpcTls).toEqual({ caFile: certs.caFile, ...certs.client });
    expect(() => loadConsoleConfig({ CONSOLE_CONTROL_PLANE_TOKEN: CONSOLE_TOKENS.control, CONSOLE_LEDGER_TOKEN: CONSOLE_TOKENS.ledger, CONSOLE_GRPC_TLS_CERT_FILE: certs.client.certFile })).toThrow(
      /CONSOLE_GRPC_TLS_CERT_FILE: needs CONSOLE_GRPC_TLS_KEY_FILE/,
    );
    const server = await startConsoleFor(stack, { grpcTls: config.grpcTls });
    try {
      const user = consoleUser(stack, server);
      const session = await user.signIn(stack.demo.orgId);
      // The budget page reads the organization at the control-plane and its credits at the ledger.
      const budget = await user.get("/api/budget", session.cookie);
      expect(budget.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("a client without a certificate gets no connection, even with the admin token", async () => {
    const certs = stack.certs!;
    const noCert = channelCredentials({ caFile: certs.caFile });
    const r = await rawCall(adminSvc(), `127.0.0.1:${stack.control.grpcPort}`, "ListOrgs", { token: stack.adminToken, credentials: noCert });
    expect(r.code).toBe(GrpcStatus.UNAVAILABLE);
    const plaintext = await rawCall(ledgerSvc(), `127.0.0.1:${stack.ledger().grpcPort}`, "TopUp", { token: stack.adminToken });
    expect(plaintext.code).toBe(GrpcStatus.UNAVAILABLE);
  });

  it("a certificate from another CA is refused", async () => {
    const certs = stack.certs!;
    const stranger = channelCredentials({ caFile: certs.caFile, certFile: certs.stranger.certFile, keyFile: certs.stranger.keyFile });
    const r = await rawCall(ledgerSvc(), `127.0.0.1:${stack.ledger().grpcPort}`, "GetCredits", { token: stack.adminToken, credentials: stranger });
    expect(r.code).toBe(GrpcStatus.UNAVAILABLE);
  });

  it("a good certificate still needs a caller token, and the data-plane's scopes hold", async () => {
    const certs = stack.certs!;
    const good = () => channelCredentials({ caFile: certs.caFile, ...certs.client });
    expect((await rawCall(ledgerSvc(), `127.0.0.1:${stack.ledger().grpcPort}`, "GetCredits", { credentials: good() })).code).toBe(GrpcStatus.UNAUTHENTICATED);
    expect((await rawCall(ledgerSvc(), `127.0.0.1:${stack.ledger().grpcPort}`, "TopUp", { credentials: good(), token: stack.dataPlaneCallerEnv.DATA_PLANE_LEDGER_TOKEN! })).code).toBe(
      GrpcStatus.PERMISSION_DENIED,
    );
  });
});
