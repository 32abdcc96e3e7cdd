import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig as loadControlConfig } from "@gateway/control-plane";
import { loadConfig as loadDataPlaneConfig } from "@gateway/data-plane";
import { loadConfig as loadLedgerConfig } from "@gateway/ledger";
import { connectNats, natsTlsFromEnv, natsTlsOptions } from "@gateway/nats";
import { createLogger } from "@gateway/observability";
import { freePort, startNats, type NatsHandle } from "@gateway/testing";
import { connect } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * NATS over TLS with client certificates, as the production overlay runs it (docs/operations.md,
 * "TLS inside the cluster"): each service reads its CA, certificate and key from *_NATS_TLS_*, and
 * a server that verifies clients takes no plaintext connection and none without a certificate of its CA.
 */
let dir: string;
let nats: NatsHandle;
const pem = (name: string) => join(dir, name);

/** A CA, a server certificate for 127.0.0.1 and a client certificate, by openssl (as cert-manager issues them). */
function makeCertificates(): void {
  const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  ssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", "/CN=gateway-internal-ca", "-keyout", "ca.key", "-out", "ca.crt");
  for (const [name, ext] of [
    ["server", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth"],
    ["client", "extendedKeyUsage=clientAuth"],
  ] as const) {
    writeFileSync(pem(`${name}.ext`), `${ext}\n`);
    ssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", `/CN=${name}`, "-keyout", `${name}.key`, "-out", `${name}.csr`);
    ssl("x509", "-req", "-in", `${name}.csr`, "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "1", "-extfile", `${name}.ext`, "-out", `${name}.crt`);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gw-nats-tls-"));
  makeCertificates();
  const conf = pem("nats.conf");
  writeFileSync(conf, `tls {\n  cert_file: "${pem("server.crt")}"\n  key_file: "${pem("server.key")}"\n  ca_file: "${pem("ca.crt")}"\n  verify: true\n}\n`);
  nats = await startNats({ configFile: conf, monitorPort: await freePort() });
});
afterAll(async () => {
  await nats?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("NATS over TLS", () => {
  it("reads each service's NATS TLS settings, refusing half of them or an empty path", () => {
    const files = { caFile: pem("ca.crt"), certFile: pem("client.crt"), keyFile: pem("client.key") };
    const vars = (p: string) => ({ [`${p}NATS_TLS_CA_FILE`]: files.caFile, [`${p}NATS_TLS_CERT_FILE`]: files.certFile, [`${p}NATS_TLS_KEY_FILE`]: files.keyFile });
    const token = "nats-tls-admin-token-0123456789";
    const dp = { DATA_PLANE_CONTROL_PLANE_TOKEN: token, DATA_PLANE_LEDGER_TOKEN: token };
    expect(loadControlConfig({ CONTROL_PLANE_DATABASE_URL: "postgres://x", CONTROL_PLANE_ADMIN_TOKEN: token, ...vars("CONTROL_PLANE_") }).natsTls).toEqual(files);
    expect(loadLedgerConfig({ LEDGER_DATABASE_URL: "postgres://x", LEDGER_ADMIN_TOKEN: token, ...vars("LEDGER_") }).natsTls).toEqual(files);
    expect(loadDataPlaneConfig({ ...dp, ...vars("DATA_PLANE_") }).natsTls).toEqual(files);
    // Without any: plaintext, as before.
    expect(loadLedgerConfig({ LEDGER_DATABASE_URL: "postgres://x", LEDGER_ADMIN_TOKEN: token }).natsTls).toBeUndefined();
    expect(natsTlsFromEnv("LEDGER_", { LEDGER_NATS_TLS_CA_FILE: files.caFile })).toEqual({ tls: { caFile: files.caFile }, problems: [] });
    expect(natsTlsFromEnv("LEDGER_", { LEDGER_NATS_TLS_CERT_FILE: files.certFile }).problems).toEqual([
      "LEDGER_NATS_TLS_CERT_FILE: needs LEDGER_NATS_TLS_KEY_FILE, and the other way round",
      "LEDGER_NATS_TLS_CERT_FILE: needs LEDGER_NATS_TLS_CA_FILE (the CA of the servers' certificates)",
    ]);
    expect(() => loadDataPlaneConfig({ ...dp, DATA_PLANE_NATS_TLS_CA_FILE: "" })).toThrow(/DATA_PLANE_NATS_TLS_CA_FILE: must not be empty/);
  });

  it("connects with the service's certificate, and a client without one, or in plaintext, is refused", async () => {
    const tls = natsTlsFromEnv("LEDGER_", { LEDGER_NATS_TLS_CA_FILE: pem("ca.crt"), LEDGER_NATS_TLS_CERT_FILE: pem("client.crt"), LEDGER_NATS_TLS_KEY_FILE: pem("client.key") }).tls;
    const stop = new AbortController();
    const nc = await connectNats({
      servers: nats.url,
      name: "ledger",
      tls,
      inboxPrefix: "_INBOX.ledger",
      log: createLogger({ service: "ledger", level: "silent" }),
      signal: stop.signal,
      onState: () => undefined,
      onReplaced: async () => undefined,
    });
    try {
      expect(nc.info?.tls_required).toBe(true);
      const sub = nc.subscribe("tls.check", { max: 1 });
      nc.publish("tls.check", "over tls");
      for await (const m of sub) expect(m.string()).toBe("over tls");
    } finally {
      stop.abort();
      await nc.close();
    }
    const once = { servers: nats.url, timeout: 3_000, reconnect: false } as const;
    await expect(connect({ ...once, ...natsTlsOptions({ caFile: pem("ca.crt") }) })).rejects.toThrow();
    await expect(connect(once)).rejects.toThrow();
  });
});
