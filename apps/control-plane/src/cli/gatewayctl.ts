/**
 * gatewayctl: the admin CLI over the control-plane's AdminService and the ledger's top-up.
 * Grammar (scripts rely on it; every command takes --json and then prints one JSON object):
 *   org create --name NAME | org list
 *   key create --org ORG [--routes r,…] [--models m,…] [--name LABEL] | key revoke KEY_ID | key list --org ORG
 *   models enable ORG MODEL…
 *   credits top-up ORG --amount-minor N --idempotency-key K | credits show ORG
 *   catalog apply -f FILE
 *   guardrails set ORG -f FILE | guardrails show ORG | guardrails clear ORG
 * Exit codes: 0 ok, 1 the server refused or failed, 2 bad usage.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parse as parseYaml } from "yaml";
import { GatewayError } from "@gateway/errors";
import { adminService, bearer, channelCredentials, createClient, ledgerService, type AdminServiceMethods, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";

const USAGE = `usage: gatewayctl <command> [--json]

  org create --name NAME
  org list
  org set-budget ORG --monthly-minor N      (0 removes the cap)
  org trial ORG on|off
  key create --org ORG [--routes chat,messages,…] [--models ID,…] [--name LABEL] [--rpm N] [--tpm N]
  key revoke KEY_ID
  key list --org ORG
  models enable ORG MODEL [MODEL…]
  credits top-up ORG --amount-minor N --idempotency-key K
  credits show ORG
  holds list ORG
  catalog apply -f FILE            (YAML or JSON)
  trial-policy set -f FILE         (YAML or JSON: allowed_models, unlock_topup_minor)
  guardrails set ORG -f FILE       (YAML or JSON rules; see docs/guardrails.md)
  guardrails show ORG
  guardrails clear ORG

environment: GATEWAY_ADMIN_TOKEN (required), GATEWAY_CONTROL_PLANE_ADDR (127.0.0.1:50051),
             GATEWAY_LEDGER_ADDR (127.0.0.1:50052); gRPC over TLS: GATEWAY_TLS_CA_FILE,
             GATEWAY_TLS_CERT_FILE + GATEWAY_TLS_KEY_FILE (a client certificate, for mTLS)`;

class UsageError extends Error {}

interface Out {
  json: boolean;
  print(obj: Record<string, unknown>, human: string): void;
}

/** A non-negative integer flag; absent → fallback. */
function intFlag(v: string | undefined, flag: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (!/^[0-9]+$/.test(v) || !Number.isSafeInteger(Number(v))) throw new UsageError(`${flag} must be a non-negative integer, got '${v}'`);
  return Number(v);
}

function readDocument(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return parseYaml(text) ?? {};
  } catch (err) {
    throw new UsageError(`${file} is not valid YAML or JSON: ${(err as Error).message}`);
  }
}

const list = (v: string | undefined) => (v ? v.split(",").map((s) => s.trim()).filter(Boolean) : []);

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined || v === "") throw new UsageError(`missing ${what}`);
  return v;
}

interface Clients {
  admin: TypedClient<AdminServiceMethods>;
  ledger: TypedClient<LedgerServiceMethods>;
}

async function resolveOrgId(c: Clients, ref: string): Promise<string> {
  if (ref.startsWith("org_")) return ref;
  const { orgs } = await c.admin.ListOrgs({});
  const org = orgs.find((o) => o.name === ref);
  if (!org) throw new GatewayError("not_found", `organization '${ref}' does not exist`);
  return org.id;
}

async function run(argv: string[], out: Out, clients: () => Clients): Promise<void> {
  const opts = {
    name: { type: "string" },
    org: { type: "string" },
    routes: { type: "string" },
    models: { type: "string" },
    "amount-minor": { type: "string" },
    "idempotency-key": { type: "string" },
    file: { type: "string", short: "f" },
    rpm: { type: "string" },
    tpm: { type: "string" },
    "monthly-minor": { type: "string" },
    json: { type: "boolean" },
  } as const;
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: opts, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values: v } = parsed;
  const [group, action, ...pos] = parsed.positionals;
  const cmd = `${group ?? ""} ${action ?? ""}`.trim();
  switch (cmd) {
    case "org create": {
      const org = await clients().admin.CreateOrg({ name: need(v.name, "--name") });
      return out.print({ ...org }, `created organization ${org.id} (${org.name})`);
    }
    case "org list": {
      const { orgs } = await clients().admin.ListOrgs({});
      return out.print({ orgs }, orgs.map((o) => `${o.id}\t${o.name}\t${o.in_trial ? "trial" : "active"}\t${o.enabled_models.join(",")}`).join("\n") || "(no organizations)");
    }
    case "key create": {
      const r = await clients().admin.CreateKey({
        org: need(v.org, "--org"),
        routes: list(v.routes),
        models: list(v.models),
        name: v.name ?? "",
        rpm_limit: intFlag(v.rpm, "--rpm", 0),
        tpm_limit: intFlag(v.tpm, "--tpm", 0),
      });
      const k = r.key!;
      return out.print(
        { id: k.id, org_id: k.org_id, name: k.name, prefix: k.prefix, routes: k.routes, models: k.models, rpm_limit: k.rpm_limit, tpm_limit: k.tpm_limit, secret: r.secret },
        `created key ${k.id} for ${k.org_id}\nsecret (shown once, store it now): ${r.secret}`,
      );
    }
    case "key revoke": {
      if (pos.length !== 1) throw new UsageError("key revoke takes exactly one KEY_ID");
      const k = await clients().admin.RevokeKey({ key_id: pos[0]! });
      return out.print({ ...k }, `revoked key ${k.id}`);
    }
    case "key list": {
      const { keys } = await clients().admin.ListKeys({ org: need(v.org, "--org") });
      return out.print({ keys }, keys.map((k) => `${k.id}\t${k.prefix}…\t${k.revoked ? "revoked" : "active"}\t${k.routes.join(",") || "all routes"}\t${k.models.join(",") || "all models"}\t${k.name}`).join("\n") || "(no keys)");
    }
    case "models enable": {
      if (pos.length < 2) throw new UsageError("models enable takes ORG and at least one MODEL");
      const org = await clients().admin.EnableModels({ org: pos[0]!, models: pos.slice(1) });
      return out.print({ ...org }, `enabled for ${org.id}: ${org.enabled_models.join(", ")}`);
    }
    case "credits top-up": {
      if (pos.length !== 1) throw new UsageError("credits top-up takes exactly one ORG");
      const raw = need(v["amount-minor"], "--amount-minor");
      if (!/^[1-9][0-9]*$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new UsageError(`--amount-minor must be a positive integer, got '${raw}'`);
      const key = need(v["idempotency-key"], "--idempotency-key");
      const c = clients();
      const orgId = await resolveOrgId(c, pos[0]!);
      const r = await c.ledger.TopUp({ org_id: orgId, amount_minor: Number(raw), idempotency_key: key });
      return out.print(
        { id: r.top_up_id, org_id: orgId, duplicate: r.duplicate, balance_minor: r.credits?.balance_minor ?? 0, topped_up_minor: r.credits?.topped_up_minor ?? 0 },
        `${r.duplicate ? "already applied" : "topped up"} ${r.top_up_id}: balance ${r.credits?.balance_minor ?? 0} minor units`,
      );
    }
    case "credits show": {
      if (pos.length !== 1) throw new UsageError("credits show takes exactly one ORG");
      const c = clients();
      const cr = await c.ledger.GetCredits({ org_id: await resolveOrgId(c, pos[0]!) });
      return out.print({ ...cr }, `balance ${cr.balance_minor}  held ${cr.held_minor}  spent ${cr.spent_minor}  topped up ${cr.topped_up_minor} (minor units)`);
    }
    case "catalog apply": {
      const doc = readDocument(need(v.file, "-f FILE"));
      const r = await clients().admin.ApplyCatalog({ document_json: JSON.stringify(doc) });
      return out.print({ ...r }, `catalog version ${r.version}: ${r.providers} providers, ${r.models} models applied`);
    }
    case "trial-policy set": {
      const doc = readDocument(need(v.file, "-f FILE")) as { allowed_models?: unknown; unlock_topup_minor?: unknown };
      const models = doc.allowed_models ?? [];
      if (!Array.isArray(models) || !models.every((m) => typeof m === "string")) throw new UsageError("allowed_models must be a list of model ids");
      if (typeof doc.unlock_topup_minor !== "number" || !Number.isSafeInteger(doc.unlock_topup_minor) || doc.unlock_topup_minor < 0) {
        throw new UsageError("unlock_topup_minor must be a non-negative integer");
      }
      const p = await clients().admin.SetTrialPolicy({ allowed_models: models, unlock_topup_minor: doc.unlock_topup_minor });
      return out.print({ ...p }, `trial policy version ${p.version} (${p.policy_hash.slice(0, 12)}…): ${p.allowed_models.join(", ") || "no models"}, unlocks at ${p.unlock_topup_minor} minor units`);
    }
    case "guardrails set": {
      if (pos.length !== 1) throw new UsageError("guardrails set takes exactly one ORG and -f FILE");
      const file = need(v.file, "-f FILE");
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (err) {
        throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
      }
      // The server validates the text as written, so its errors name lines of this file.
      const g = await clients().admin.SetGuardrails({ org: pos[0]!, document: text });
      return out.print({ org_id: g.org_id, version: g.version, rules: JSON.parse(g.rules_json) as unknown }, `${g.org_id}: guardrails version ${g.version}, ${g.rules} rule(s)`);
    }
    case "guardrails show": {
      if (pos.length !== 1) throw new UsageError("guardrails show takes exactly one ORG");
      const g = await clients().admin.GetGuardrails({ org: pos[0]! });
      return out.print({ org_id: g.org_id, version: g.version, rules: JSON.parse(g.rules_json) as unknown, document: g.document }, g.document || `${g.org_id}: no guardrail rules`);
    }
    case "guardrails clear": {
      if (pos.length !== 1) throw new UsageError("guardrails clear takes exactly one ORG");
      const g = await clients().admin.SetGuardrails({ org: pos[0]!, document: "" });
      return out.print({ org_id: g.org_id, version: g.version, rules: [] }, `${g.org_id}: guardrail rules removed`);
    }
    case "org set-budget": {
      if (pos.length !== 1) throw new UsageError("org set-budget takes exactly one ORG");
      const budget = intFlag(need(v["monthly-minor"], "--monthly-minor"), "--monthly-minor", 0);
      const org = await clients().admin.SetOrgBudget({ org: pos[0]!, monthly_budget_minor: budget });
      return out.print({ ...org }, `${org.id}: monthly budget ${org.monthly_budget_minor || "none"}`);
    }
    case "org trial": {
      if (pos.length !== 2 || (pos[1] !== "on" && pos[1] !== "off")) throw new UsageError("org trial takes ORG and on|off");
      const org = await clients().admin.SetOrgTrial({ org: pos[0]!, in_trial: pos[1] === "on" });
      return out.print({ ...org }, `${org.id}: ${org.in_trial ? "in trial" : "out of trial"}`);
    }
    case "holds list": {
      if (pos.length !== 1) throw new UsageError("holds list takes exactly one ORG");
      const c = clients();
      const { leases } = await c.ledger.ListHolds({ org_id: await resolveOrgId(c, pos[0]!) });
      return out.print(
        { holds: leases.map((l) => ({ id: l.lease_id, ...l })) },
        leases.map((l) => `${l.lease_id}\t${l.status}\theld ${l.remaining_minor}\tgranted ${l.granted_minor}\tapplied ${l.applied_minor}\t${l.holder}\texpires ${new Date(l.expires_at_ms).toISOString()}`).join("\n") || "(no holds)",
      );
    }
    default:
      throw new UsageError(group ? `unknown command '${cmd}'` : "no command given");
  }
}

export async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(USAGE + "\n");
    return argv.length === 0 ? 2 : 0;
  }
  const json = argv.includes("--json");
  const out: Out = {
    json,
    print: (obj, human) => process.stdout.write((json ? JSON.stringify(obj) : human) + "\n"),
  };
  let made: Clients | undefined;
  const clients = (): Clients => {
    if (made) return made;
    const token = env.GATEWAY_ADMIN_TOKEN;
    if (!token) throw new UsageError("GATEWAY_ADMIN_TOKEN is not set");
    const tls = env.GATEWAY_TLS_CA_FILE || env.GATEWAY_TLS_CERT_FILE ? { caFile: env.GATEWAY_TLS_CA_FILE, certFile: env.GATEWAY_TLS_CERT_FILE, keyFile: env.GATEWAY_TLS_KEY_FILE } : undefined;
    if (Boolean(env.GATEWAY_TLS_CERT_FILE) !== Boolean(env.GATEWAY_TLS_KEY_FILE)) throw new UsageError("GATEWAY_TLS_CERT_FILE and GATEWAY_TLS_KEY_FILE go together");
    const options = { timeoutMs: 10_000, metadata: bearer(token), credentials: channelCredentials(tls) };
    made = {
      admin: createClient(adminService(), env.GATEWAY_CONTROL_PLANE_ADDR || "127.0.0.1:50051", options),
      ledger: createClient(ledgerService(), env.GATEWAY_LEDGER_ADDR || "127.0.0.1:50052", options),
    };
    return made;
  };
  try {
    await run(argv, out, clients);
    return 0;
  } catch (err) {
    const usage = err instanceof UsageError;
    const message = err instanceof Error ? err.message : String(err);
    const code = err instanceof GatewayError ? err.code : usage ? "usage" : "error";
    process.stderr.write(json ? JSON.stringify({ error: { message, code } }) + "\n" : `gatewayctl: ${message}${usage ? "\n\n" + USAGE : ""}\n`);
    return usage ? 2 : 1;
  } finally {
    made?.admin.close();
    made?.ledger.close();
  }
}

process.exitCode = await main(process.argv.slice(2), process.env);
