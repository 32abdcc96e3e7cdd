import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** PEM files made for one test run: a CA, a server certificate for 127.0.0.1/localhost, client certificates. */
export interface TestCerts {
  dir: string;
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  /** Signed by the CA: what the data-plane and gatewayctl present. */
  client: { certFile: string; keyFile: string };
  /** Signed by another CA, which the servers do not trust. */
  stranger: { caFile: string; certFile: string; keyFile: string };
}

const openssl = (args: string[]) => execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });

function makeCa(dir: string, name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", `/CN=${name}`]);
  return { cert, key };
}

function issue(dir: string, ca: { cert: string; key: string }, name: string, ext: string): { certFile: string; keyFile: string } {
  const keyFile = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const certFile = join(dir, `${name}.crt`);
  const extFile = join(dir, `${name}.ext`);
  writeFileSync(extFile, ext);
  openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", keyFile, "-out", csr, "-subj", `/CN=${name}`]);
  openssl(["x509", "-req", "-in", csr, "-CA", ca.cert, "-CAkey", ca.key, "-CAcreateserial", "-out", certFile, "-days", "2", "-extfile", extFile]);
  return { certFile, keyFile };
}

/** Makes the certificates with the system's openssl in a fresh temporary directory. */
export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), "gw-certs-"));
  const ca = makeCa(dir, "gateway-internal-ca");
  const server = issue(dir, ca, "server", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  const client = issue(dir, ca, "data-plane", "extendedKeyUsage=clientAuth\n");
  const otherCa = makeCa(dir, "someone-else-ca");
  const stranger = issue(dir, otherCa, "stranger", "extendedKeyUsage=clientAuth\n");
  return { dir, caFile: ca.cert, serverCertFile: server.certFile, serverKeyFile: server.keyFile, client, stranger: { caFile: otherCa.cert, ...stranger } };
}
