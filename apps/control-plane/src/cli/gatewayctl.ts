/**
 * gatewayctl: the admin CLI over the control-plane's AdminService and the ledger's top-up.
 * Grammar (scripts rely on it; every command takes --json and then prints one JSON object):
 *   org create --name NAME | org list
 *   key create --org ORG [--routes r,…] [--models m,…] [--name LABEL] | key revoke KEY_ID | key list --org ORG
 *   models enable ORG MODEL…
 *   mcp enable ORG SERVER…
 *   mcp pins [SERVER] / mcp approve SERVER TOOL
 *   credits top-up ORG --amount-minor N --idempotency-key K | credits show ORG
 *   catalog apply -f FILE
 *   guardrails set ORG -f FILE | guardrails show ORG | guardrails clear ORG
 *   usage export --org ORG --from T --to T [--format csv|jsonl]   (the data on stdout, not one object)
 *   usage costs --from T --to T
 *   usage spend --org ORG --from T --to T [--by hour|day] [--group model|key]
 *   journal tail [--from-start | --since T] [--count N]          (one JSON line per posting)
 *   console link --org ORG --email E --role admin|billing|viewer   (or --operator --email E)
 * Exit codes: 0 ok, 1 the server refused or failed, 2 bad usage.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parse as parseYaml } from "yaml";
import { GatewayError } from "@gateway/errors";
import { natsCredentialsFromEnv, type NatsCredentials } from "@gateway/nats";
import { adminService, bearer, channelCredentials, createClient, ledgerService, type AdminServiceMethods, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { tailJournal } from "./journal-tail.js";
import { OutputClosedError, stdoutWriter } from "./output.js";
import { parseInstant } from "./timestamps.js";
import { CSV_HEADER, formatRecord, type UsageFormat } from "./usage-export.js";

const USAGE = `usage: gatewayctl <command> [--json]

  org create --name NAME
  org list
  org set-budget ORG --monthly-minor N      (0 removes the cap)
  org trial ORG on|off
  key create --org ORG [--routes chat,messages,…] [--models ID,…] [--name LABEL] [--rpm N] [--tpm N]
  key revoke KEY_ID
  key list --org ORG
  models enable ORG MODEL [MODEL…]
  mcp enable ORG SERVER [SERVER…]  lets the organization use MCP servers of the catalog (docs/mcp.md)
  mcp pins [SERVER]                the pinned tool definitions, and changed ones waiting for approval
  mcp approve SERVER TOOL          approves a tool's changed definition (its calls resume)
  credits top-up ORG --amount-minor N --idempotency-key K
  credits show ORG
  holds list ORG
  catalog apply -f FILE            (YAML or JSON)
  trial-policy set -f FILE         (YAML or JSON: allowed_models, unlock_topup_minor)
  guardrails set ORG -f FILE       (YAML or JSON rules; see docs/guardrails.md)
  guardrails show ORG
  guardrails clear ORG
  usage export --org ORG --from T --to T [--format csv|jsonl] [--timeout-s N]
                                   usage records received in [from, to) with their line items, oldest
                                   first, streamed to stdout (docs/billing.md: columns and units);
                                   T is ISO-8601: 2026-11-01 (UTC) or 2026-11-01T09:30:00Z / +01:00
  usage costs --from T --to T      what upstream attempts cost in [from, to): per UTC day and provider
                                   (attempts, unserved, provider cost, absorbed by the operator) and per
                                   organization (billed, provider cost, absorbed, margin); docs/billing.md
  usage spend --org ORG --from T --to T [--by hour|day] [--group model|key]
                                   the organization's requests, tokens and cost per UTC hour or day
                                   (default day), per model or key, from the ledger's rollups
  console link --org ORG --email E --role admin|billing|viewer
                                   adds the console member (or sets its role) and prints a one-time
                                   sign-in token: single use, 15 minutes (docs/console.md)
  console link --operator --email E
                                   the same for an operator (every organization, the catalog)
  journal tail [--from-start | --since T] [--count N] [--nats URL]
                                   follows the ledger's journal: one JSON line per posting, until
                                   Ctrl-C (or N postings); by default only postings made from now on

environment: GATEWAY_ADMIN_TOKEN (required), GATEWAY_CONTROL_PLANE_ADDR (127.0.0.1:50051),
             GATEWAY_LEDGER_ADDR (127.0.0.1:50052), GATEWAY_NATS_URL (nats://127.0.0.1:4222) with GATEWAY_NATS_USER
             + GATEWAY_NATS_PASSWORD (the read-only gatewayctl user); gRPC over TLS: GATEWAY_TLS_CA_FILE,
             GATEWAY_TLS_CERT_FILE + GATEWAY_TLS_KEY_FILE (a client certificate, for mTLS)`;

class UsageError extends Error {}

/** GATEWAY_NATS_USER and GATEWAY_NATS_PASSWORD (both or neither): the read-only `gatewayctl` NATS user. */
function natsCredentials(env: Record<string, string | undefined>): NatsCredentials | undefined {
  const { credentials, problems } = natsCredentialsFromEnv("GATEWAY_", env);
  if (problems.length > 0) throw new UsageError(problems.join("; "));
  return credentials;
}

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

const list = (v: string | undefined) =>
  v
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

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

/** An organization by id or name that the control-plane knows (an unknown id is refused, not exported as empty). */
async function existingOrgId(c: Clients, ref: string): Promise<string> {
  const { orgs } = await c.admin.ListOrgs({});
  const org = orgs.find((o) => o.id === ref || o.name === ref);
  if (!org) throw new GatewayError("not_found", `organization '${ref}' does not exist`);
  return org.id;
}

function instantFlag(v: string | undefined, flag: string): number {
  const ms = parseInstant(need(v, flag));
  if (ms === undefined) throw new UsageError(`${flag} must be an ISO-8601 date (2026-11-01) or date and time with a zone (2026-11-01T09:30:00Z), got '${v}'`);
  return ms;
}

/** Default deadline of a whole export, seconds: a million records take well under a minute. */
const EXPORT_TIMEOUT_S = 3_600;

async function run(argv: string[], out: Out, clients: () => Clients, env: Record<string, string | undefined>): Promise<void> {
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
    from: { type: "string" },
    to: { type: "string" },
    format: { type: "string" },
    "timeout-s": { type: "string" },
    nats: { type: "string" },
    "from-start": { type: "boolean" },
    since: { type: "string" },
    count: { type: "string" },
    by: { type: "string" },
    group: { type: "string" },
    email: { type: "string" },
    role: { type: "string" },
    operator: { type: "boolean" },
    "mcp-tools": { type: "string" },
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
        mcp_tools: list(v["mcp-tools"]),
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
      return out.print(
        { keys },
        keys.map((k) => `${k.id}\t${k.prefix}…\t${k.revoked ? "revoked" : "active"}\t${k.routes.join(",") || "all routes"}\t${k.models.join(",") || "all models"}\t${k.name}`).join("\n") ||
          "(no keys)",
      );
    }
    case "models enable": {
      if (pos.length < 2) throw new UsageError("models enable takes ORG and at least one MODEL");
      const org = await clients().admin.EnableModels({ org: pos[0]!, models: pos.slice(1) });
      return out.print({ ...org }, `enabled for ${org.id}: ${org.enabled_models.join(", ")}`);
    }
    case "mcp pins": {
      const { pins } = await clients().admin.ListMcpToolPins({ server: pos[0] ?? "" });
      return out.print(
        { pins },
        pins
          .map(
            (p) =>
              `${p.server}\t${p.tool}\t${p.digest.slice(0, 12)}\t${p.approved_by} ${new Date(p.approved_at_ms).toISOString()}${p.pending_digest ? `\tCHANGED: ${p.pending_digest.slice(0, 12)} pending since ${new Date(p.pending_since_ms).toISOString()} (gatewayctl mcp approve ${p.server} ${p.tool})` : ""}`,
          )
          .join("\n") || "(no pinned tools)",
      );
    }
    case "mcp approve": {
      if (pos.length !== 2) throw new UsageError("mcp approve takes SERVER and TOOL");
      const pin = await clients().admin.ApproveMcpTool({ server: pos[0]!, tool: pos[1]! });
      return out.print({ ...pin }, `${pin.server} ${pin.tool}: definition ${pin.digest.slice(0, 12)} approved`);
    }
    case "mcp enable": {
      if (pos.length < 2) throw new UsageError("mcp enable takes ORG and at least one SERVER");
      const r = await clients().admin.EnableMcpServers({ org: pos[0]!, servers: pos.slice(1) });
      return out.print({ ...r }, `MCP servers of ${r.org_id}: ${r.servers.join(", ")}`);
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
      return out.print({ ...r }, `catalog version ${r.version}: ${r.providers} providers, ${r.models} models, ${r.mcp_servers} MCP servers applied`);
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
        leases
          .map((l) => `${l.lease_id}\t${l.status}\theld ${l.remaining_minor}\tgranted ${l.granted_minor}\tapplied ${l.applied_minor}\t${l.holder}\texpires ${new Date(l.expires_at_ms).toISOString()}`)
          .join("\n") || "(no holds)",
      );
    }
    case "usage export": {
      if (pos.length > 0) throw new UsageError("usage export takes --org, --from and --to, no positional arguments");
      const org = need(v.org, "--org");
      const fromMs = instantFlag(v.from, "--from");
      const toMs = instantFlag(v.to, "--to");
      if (fromMs >= toMs) throw new UsageError(`--from must be before --to (the window is [from, to)), got ${new Date(fromMs).toISOString()} and ${new Date(toMs).toISOString()}`);
      const format = (v.format ?? "csv") as UsageFormat;
      if (format !== "csv" && format !== "jsonl") throw new UsageError(`--format must be csv or jsonl, got '${v.format}'`);
      const timeoutS = intFlag(v["timeout-s"], "--timeout-s", EXPORT_TIMEOUT_S);
      const c = clients();
      const orgId = await existingOrgId(c, org);
      const write = stdoutWriter();
      // The header waits for the first page, so a refused export (a bad token) writes no partial file.
      let started = false;
      for await (const page of c.ledger.ExportUsage({ org_id: orgId, from_ms: fromMs, to_ms: toMs }, { timeoutMs: timeoutS * 1_000 })) {
        const text = page.records.map((r) => formatRecord(r, format)).join("");
        await write(!started && format === "csv" ? CSV_HEADER + text : text);
        started = true;
      }
      if (!started && format === "csv") await write(CSV_HEADER);
      return;
    }
    case "usage costs": {
      if (pos.length > 0) throw new UsageError("usage costs takes --from and --to, no positional arguments");
      const fromMs = instantFlag(v.from, "--from");
      const toMs = instantFlag(v.to, "--to");
      if (fromMs >= toMs) throw new UsageError(`--from must be before --to (the window is [from, to)), got ${new Date(fromMs).toISOString()} and ${new Date(toMs).toISOString()}`);
      const r = await clients().ledger.CostReport({ from_ms: fromMs, to_ms: toMs });
      const providers = r.providers.map((p) => `${p.day}\t${p.provider}\tattempts ${p.attempts}\tunserved ${p.unserved}\tprovider cost ${p.provider_cost_minor}\tabsorbed ${p.absorbed_minor}`);
      const orgs = r.orgs.map((o) => `${o.org_id}\trequests ${o.requests}\tbilled ${o.billed_minor}\tprovider cost ${o.provider_cost_minor}\tabsorbed ${o.absorbed_minor}\tmargin ${o.margin_minor}`);
      return out.print({ providers: r.providers, orgs: r.orgs }, [...(providers.length ? providers : ["(no attempts)"]), "", ...orgs].join("\n"));
    }
    case "usage spend": {
      if (pos.length > 0) throw new UsageError("usage spend takes --org, --from and --to, no positional arguments");
      const fromMs = instantFlag(v.from, "--from");
      const toMs = instantFlag(v.to, "--to");
      if (fromMs >= toMs) throw new UsageError(`--from must be before --to (the window is [from, to)), got ${new Date(fromMs).toISOString()} and ${new Date(toMs).toISOString()}`);
      const bucket = v.by ?? "day";
      if (bucket !== "hour" && bucket !== "day") throw new UsageError(`--by must be hour or day, got '${bucket}'`);
      const group = v.group ?? "";
      if (group !== "" && group !== "model" && group !== "key") throw new UsageError(`--group must be model or key, got '${group}'`);
      const c = clients();
      const orgId = await existingOrgId(c, need(v.org, "--org"));
      const { points } = await c.ledger.SpendSeries({ org_id: orgId, from_ms: fromMs, to_ms: toMs, bucket, group_by: group });
      const lines = points.map(
        (p) =>
          `${new Date(p.bucket_start_ms).toISOString().slice(0, bucket === "day" ? 10 : 13)}${group ? `\t${p.group}` : ""}\trequests ${p.requests}\tinput ${p.input_tokens}\toutput ${p.output_tokens}\tcost ${p.cost_minor}`,
      );
      return out.print({ points }, lines.join("\n") || "(no usage)");
    }
    case "console link": {
      if (pos.length > 0) throw new UsageError("console link takes --org, --email and --role (or --email and --operator), no positional arguments");
      const operator = v.operator === true;
      if (operator && (v.org !== undefined || v.role !== undefined)) throw new UsageError("--operator takes no --org or --role: an operator belongs to no organization");
      const role = operator ? "operator" : need(v.role, "--role");
      if (role !== "admin" && role !== "billing" && role !== "viewer" && role !== "operator") throw new UsageError(`--role must be admin, billing or viewer, got '${role}'`);
      const link = await clients().admin.CreateSignInLink({ org: operator ? "" : need(v.org, "--org"), email: need(v.email, "--email"), role });
      return out.print(
        { token: link.token, expires_at: new Date(link.expires_at_ms).toISOString(), member: link.member },
        `${link.token}\t${link.member?.email} (${link.member?.role})${operator ? "" : ` of ${link.member?.org_id}`}\tsingle use, until ${new Date(link.expires_at_ms).toISOString()}`,
      );
    }
    case "journal tail": {
      if (pos.length > 0) throw new UsageError("journal tail takes no positional arguments");
      if (v["from-start"] && v.since !== undefined) throw new UsageError("--from-start and --since exclude each other");
      const start = v["from-start"] ? "all" : v.since !== undefined ? instantFlag(v.since, "--since") : "new";
      const limit = intFlag(v.count, "--count", 0);
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        const write = stdoutWriter(onSignal);
        await tailJournal({ servers: v.nats ?? (env.GATEWAY_NATS_URL || "nats://127.0.0.1:4222"), credentials: natsCredentials(env), start, limit, write, signal: stop.signal });
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
      return;
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
    await run(argv, out, clients, env);
    return 0;
  } catch (err) {
    // The reader of our output went away (`… | head`): that ends the command, quietly.
    if (err instanceof OutputClosedError) return 0;
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
