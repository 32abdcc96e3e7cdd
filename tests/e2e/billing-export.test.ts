import { execFile, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { chatBody, createOrg, post, type TestOrg } from "../support/orgs.ts";
import type { UsageBody } from "../support/api.ts";
import type { UsageRecord } from "@gateway/proto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { lagoStandIn, openmeterStandIn, stripeStandIn } from "../support/billing-destinations.ts";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const gatewayctl = join(root, "bin/gatewayctl");
/** Small pages, so the volume test crosses many page boundaries. */
const PAGE_ROWS = 250;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack("billing-export", { ledgerEnv: { LEDGER_EXPORT_PAGE_ROWS: String(PAGE_ROWS) } });
});
afterAll(async () => {
  await stack?.stop();
});

function ctlEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GATEWAY_ADMIN_TOKEN: stack.adminToken,
    GATEWAY_CONTROL_PLANE_ADDR: `127.0.0.1:${stack.control.grpcPort}`,
    GATEWAY_LEDGER_ADDR: `127.0.0.1:${stack.ledger().grpcPort}`,
    GATEWAY_NATS_URL: stack.nats.url,
    ...stack.natsAuth.env("gatewayctl"),
  };
}

/** Runs gatewayctl to its end; a non-zero exit is returned, not thrown. */
async function ctl(args: string[], env = ctlEnv()): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(gatewayctl, args, { env, maxBuffer: 256 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** RFC 4180, strictly: quoted fields may hold commas, CRLF and doubled quotes; every record ends in CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error("unterminated quoted field");
        field += text.slice(i, q);
        i = q + 1;
        if (text[i] === '"') {
          field += '"';
          i++;
        } else break;
      }
    } else {
      const end = text.slice(i).search(/[,\r\n"]/);
      const stop = end < 0 ? text.length : i + end;
      if (text[stop] === '"') throw new Error(`a quote inside an unquoted field at ${stop}`);
      field = text.slice(i, stop);
      i = stop;
    }
    row.push(field);
    if (text[i] === ",") i++;
    else if (text.startsWith("\r\n", i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else throw new Error(`expected a comma or CRLF at ${i}, got ${JSON.stringify(text.slice(i, i + 10))}`);
  }
  if (row.length > 0) throw new Error("the last record does not end in CRLF");
  return rows;
}

/** CSV rows as objects by the header's names. */
function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((r) => {
    expect(r).toHaveLength(header!.length);
    return Object.fromEntries(header!.map((h, i) => [h, r[i]!]));
  });
}

const jsonl = (text: string) =>
  text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function usageOf(org: TestOrg, id: string): Promise<UsageBody> {
  const r = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${org.secret}` } });
  expect(r.status).toBe(200);
  return (await r.json()) as UsageBody;
}

async function chat(org: TestOrg, content: string, extra: Record<string, unknown> = {}): Promise<UsageBody> {
  const r = await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody(content, extra));
  expect(r.status).toBe(200);
  return usageOf(org, r.headers.get("x-gateway-trace-id")!);
}

describe("gatewayctl usage export", () => {
  let a: TestOrg;
  let aName: string;
  let b: TestOrg;
  const made: UsageBody[] = [];
  let from: string;
  let to: string;

  beforeAll(async () => {
    a = await createOrg(stack, { balanceMinor: 50_000_000 });
    b = await createOrg(stack, { balanceMinor: 50_000_000 });
    aName = (await stack.admin.ListOrgs({})).orgs.find((o) => o.id === a.orgId)!.name;
    from = new Date(Date.now() - 1).toISOString();
    made.push(await chat(a, "one"));
    await chat(b, "another organization's request");
    made.push(await chat(a, "[[fake:cached=3,reasoning=7]] two, with cached and reasoning tokens"));
    made.push(await chat(a, "three, streamed", { stream: true }));
    await chat(b, "and one more of theirs");
    made.push(await chat(a, 'four, with a comma, and "quotes"'));
    to = new Date(Date.now() + 1).toISOString();
  });

  it("CSV: one RFC 4180 row per request of the organization, as each request reported it", async () => {
    const r = await ctl(["usage", "export", "--org", aName, "--from", from, "--to", to, "--format", "csv"]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout.startsWith("request_id,org_id,key_id,created_at,recorded_at,model,route,provider,upstream_model,status,stream,estimated,duration_ms,")).toBe(true);
    const rows = csvRecords(r.stdout);
    // Oldest first: the order the requests were made in; the other organization's are not there.
    expect(rows.map((x) => x.request_id)).toEqual(made.map((u) => u.request_id));
    for (const [i, row] of rows.entries()) {
      const u = made[i]!;
      expect(row).toMatchObject({
        org_id: a.orgId,
        key_id: a.keyId,
        model: u.model,
        route: u.route,
        provider: u.provider,
        status: "200",
        stream: String(u.stream),
        estimated: String(u.usage.estimated),
        basis: u.usage.basis,
        input_tokens: String(u.usage.input_tokens),
        cached_input_tokens: String(u.usage.cached_input_tokens),
        cache_creation_input_tokens: String(u.usage.cache_creation_input_tokens),
        output_tokens: String(u.usage.output_tokens),
        reasoning_tokens: String(u.usage.reasoning_tokens),
        cost_minor: String(u.cost_credits_minor),
      });
      expect(JSON.parse(row.line_items!)).toEqual(u.line_items);
      expect(row.journal_txn_id).toMatch(/^post_/);
      expect(Date.parse(row.created_at!)).toBeGreaterThanOrEqual(Date.parse(from));
      expect(Date.parse(row.recorded_at!)).toBeGreaterThanOrEqual(Date.parse(row.created_at!));
    }
    // The second request billed cached and reasoning tokens at their own prices, each its own line item.
    expect(JSON.parse(rows[1]!.line_items!).map((l: { item: string }) => l.item)).toEqual(expect.arrayContaining(["cached_input_tokens", "reasoning_tokens"]));
    // Money adds up: the export's costs are what the organization was charged.
    const total = rows.reduce((s, x) => s + Number(x.cost_minor), 0);
    expect(total).toBe(made.reduce((s, u) => s + u.cost_credits_minor, 0));
    expect((await stack.ledgerClient.GetCredits({ org_id: a.orgId })).spent_minor).toBe(total);
  });

  it("JSONL: the same records with typed values and line items nested, by organization id", async () => {
    const r = await ctl(["usage", "export", "--org", a.orgId, "--from", from, "--to", to, "--format", "jsonl"]);
    expect(r.code).toBe(0);
    const rows = jsonl(r.stdout);
    expect(rows.map((x) => x.request_id)).toEqual(made.map((u) => u.request_id));
    for (const [i, row] of rows.entries()) {
      const u = made[i]!;
      expect(row).toMatchObject({
        org_id: a.orgId,
        stream: u.stream,
        input_tokens: u.usage.input_tokens,
        output_tokens: u.usage.output_tokens,
        reasoning_tokens: u.usage.reasoning_tokens,
        cost_minor: u.cost_credits_minor,
        line_items: u.line_items,
        status: 200,
      });
      expect(typeof row.duration_ms).toBe("number");
    }
    // The CSV and the JSONL export say the same.
    const csv = csvRecords((await ctl(["usage", "export", "--org", a.orgId, "--from", from, "--to", to])).stdout);
    expect(csv.map((x) => x.created_at)).toEqual(rows.map((x) => x.created_at));
  });

  it("the window is [from, to): a record at `from` is in it, a record at `to` is not", async () => {
    const all = jsonl((await ctl(["usage", "export", "--org", a.orgId, "--from", from, "--to", to, "--format", "jsonl"])).stdout);
    const at = all.map((x) => x.created_at as string);
    // Dates alone are UTC midnights; an offset is honoured (the same instant as at[1], written as
    // local time two hours ahead of UTC). The three exports run side by side.
    const today = from.slice(0, 10);
    const plusOne = new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10);
    const offset = new Date(Date.parse(at[1]!) + 2 * 3_600_000).toISOString().replace("Z", "+02:00");
    const [r, days, offsetWindow] = await Promise.all([
      ctl(["usage", "export", "--org", a.orgId, "--from", at[1]!, "--to", at[3]!, "--format", "jsonl"]),
      ctl(["usage", "export", "--org", a.orgId, "--from", today, "--to", plusOne, "--format", "jsonl"]),
      ctl(["usage", "export", "--org", a.orgId, "--from", offset, "--to", at[3]!, "--format", "jsonl"]),
    ]);
    const inside = jsonl(r.stdout).map((x) => x.request_id);
    expect(inside).toContain(all[1]!.request_id);
    expect(inside).not.toContain(all[3]!.request_id);
    expect(inside).toEqual(all.filter((x) => (x.created_at as string) >= at[1]! && (x.created_at as string) < at[3]!).map((x) => x.request_id));
    expect(jsonl(days.stdout).length).toBeGreaterThanOrEqual(all.length);
    expect(jsonl(offsetWindow.stdout).map((x) => x.request_id)).toEqual(inside);
  });

  it("an empty window is a header and nothing else", async () => {
    const r = await ctl(["usage", "export", "--org", b.orgId, "--from", "2001-01-01", "--to", "2001-01-02"]);
    expect(r).toMatchObject({ code: 0, stdout: `${r.stdout.split("\r\n")[0]}\r\n` });
    expect(csvRecords(r.stdout)).toEqual([]);
  });

  it("refuses bad dates, an empty or inverted window, an unknown organization and a wrong token, clearly and without output", async () => {
    const cases: [string[], number, RegExp][] = [
      [["--org", a.orgId, "--from", "yesterday", "--to", to], 2, /--from must be an ISO-8601 date/],
      [["--org", a.orgId, "--from", "2026-02-30", "--to", to], 2, /--from must be an ISO-8601 date/],
      [["--org", a.orgId, "--from", "2026-11-01T10:00:00", "--to", to], 2, /--from must be an ISO-8601 date .* with a zone/],
      [["--org", a.orgId, "--from", to, "--to", from], 2, /--from must be before --to/],
      [["--org", a.orgId, "--from", from, "--to", from], 2, /--from must be before --to/],
      [["--org", a.orgId, "--to", to], 2, /missing --from/],
      [["--org", a.orgId, "--from", from, "--to", to, "--format", "xlsx"], 2, /--format must be csv or jsonl/],
      [["--org", "no-such-org", "--from", from, "--to", to], 1, /organization 'no-such-org' does not exist/],
      [["--org", "org_doesnotexist", "--from", from, "--to", to], 1, /organization 'org_doesnotexist' does not exist/],
    ];
    // Each a gatewayctl process of its own, started together (most of each is node starting).
    const [wrong, ...runs] = await Promise.all([
      ctl(["usage", "export", "--org", a.orgId, "--from", from, "--to", to], { ...ctlEnv(), GATEWAY_ADMIN_TOKEN: "not-the-admin-token-at-all" }),
      ...cases.map(([args]) => ctl(["usage", "export", ...args])),
    ]);
    cases.forEach(([args, code, message], i) => {
      const r = runs[i]!;
      expect({ args, code: r.code }).toEqual({ args, code });
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toBe("");
  });
});

describe("an export of thousands of records over 24 pages", () => {
  const ROWS = 6_000;
  const OTHER_ROWS = 1_500;
  let big: TestOrg;
  let other: TestOrg;

  beforeAll(async () => {
    big = await createOrg(stack);
    other = await createOrg(stack);
    // Straight into the ledger's table: 7 records share each millisecond, and some differ only in
    // microseconds, so page boundaries fall inside groups of equal timestamps. Another org's
    // records are interleaved at the same instants.
    const insert = (org: string, n: number, prefix: string) =>
      sql`
        INSERT INTO usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens, output_tokens,
          cached_input_tokens, estimated, cost_minor, input_price_minor_per_mtok, output_price_minor_per_mtok, stream, status, duration_ms, line_items, created_at, journal_txn_id)
        SELECT ${prefix} || lpad(((i * 7919) % ${n})::text, 6, '0'), ${org}, 'key_bulk', 'gw-chat-mini', 'chat', 'fake', 'fake-mini', '', 10 + i % 5, 20, 0, false,
          1 + i % 3, 150000, 600000, false, 200, 12,
          jsonb_build_array(jsonb_build_object('item', 'input_tokens', 'quantity', 10 + i % 5, 'unit_price_minor', 150000, 'per', '1M tokens')),
          timestamptz '2026-01-01T00:00:00Z' + (i / 7) * interval '1 millisecond' + (CASE WHEN i % 7 >= 4 THEN 250 ELSE 0 END) * interval '1 microsecond',
          'post_bulk'
        FROM generate_series(0, ${n - 1}) AS i`.execute(stack.ledger().db);
    await insert(big.orgId, ROWS, "req_bulk_a_");
    await insert(other.orgId, OTHER_ROWS, "req_bulk_b_");
  });

  it("streams every record exactly once, in (created_at, request_id) order, across many pages", async () => {
    // The JSONL and the CSV export, side by side.
    const [r, csvOut] = await Promise.all([
      ctl(["usage", "export", "--org", big.orgId, "--from", "2026-01-01", "--to", "2026-01-02", "--format", "jsonl"]),
      ctl(["usage", "export", "--org", big.orgId, "--from", "2026-01-01", "--to", "2026-01-02"]),
    ]);
    expect(r.code).toBe(0);
    const rows = jsonl(r.stdout);
    expect(rows.length).toBe(ROWS);
    expect(ROWS / PAGE_ROWS).toBeGreaterThan(20);
    expect(new Set(rows.map((x) => x.request_id)).size).toBe(ROWS);
    expect(rows.every((x) => x.org_id === big.orgId)).toBe(true);
    for (let i = 1; i < rows.length; i++) expect((rows[i]!.created_at as string) >= (rows[i - 1]!.created_at as string)).toBe(true);
    const { rows: sums } = await sql<{ cost: string; n: string }>`SELECT sum(cost_minor) AS cost, count(*) AS n FROM usage_records WHERE org_id = ${big.orgId}`.execute(stack.ledger().db);
    expect(rows.reduce((s, x) => s + (x.cost_minor as number), 0)).toBe(Number(sums[0]!.cost));

    const csv = csvRecords(csvOut.stdout);
    expect(csv.map((x) => x.request_id)).toEqual(rows.map((x) => x.request_id));
  });

  it("a reader that stops early (| head) ends the export quietly", async () => {
    const r = await run("bash", ["-c", `set -o pipefail; "${gatewayctl}" usage export --org ${big.orgId} --from 2026-01-01 --to 2026-01-02 | head -n 3`], { env: ctlEnv() });
    expect(r.stdout.split("\r\n").filter(Boolean)).toHaveLength(3);
    expect(r.stderr).toBe("");
  });
});

describe("gatewayctl journal tail", () => {
  /** The consumers on the LEDGER stream, through the JetStream API as the operators' NATS user. */
  async function ledgerConsumers(): Promise<string[]> {
    const nc = await stack.natsAs("admin");
    try {
      const reply = await nc.request("$JS.API.CONSUMER.NAMES.LEDGER", "{}", { timeout: 5_000 });
      return ((reply.json() as { consumers: string[] | null }).consumers ?? []).sort();
    } finally {
      await nc.close();
    }
  }

  it("prints the posting of a top-up made while it runs, and stops on SIGINT leaving no consumer behind", async () => {
    const org = await createOrg(stack);
    const before = await ledgerConsumers();
    const child = spawn(gatewayctl, ["journal", "tail"], { env: ctlEnv(), stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    let stderr = "";
    await new Promise<void>((res, rej) => {
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes("following")) res();
      });
      child.on("exit", () => rej(new Error(`journal tail exited: ${stderr}`)));
    });
    expect(stderr).toMatch(/following ledger\.v1\.journal from new postings/);

    const top = await stack.ledgerClient.TopUp({ org_id: org.orgId, amount_minor: 1_234_567, idempotency_key: `tail-${org.orgId}` });
    let posting: Record<string, unknown> | undefined;
    for (;;) {
      const next = await lines.next();
      expect(next.done).toBeFalsy();
      const p = JSON.parse(next.value as string) as Record<string, unknown>;
      expect(p).toMatchObject({ version: 1, stream_seq: expect.any(Number) });
      if (p.txn_id === top.top_up_id) {
        posting = p;
        break;
      }
    }
    expect(posting).toMatchObject({ kind: "top_up", created_at_ms: expect.any(Number) });
    expect(posting!.entries).toEqual(
      expect.arrayContaining([
        { account: `org:${org.orgId}`, amount_minor: 1_234_567 },
        { account: "system:funding", amount_minor: -1_234_567 },
      ]),
    );
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(await ledgerConsumers()).toEqual(before);
  });

  it("--from-start --count N prints the oldest N postings and exits; --since starts at an instant", async () => {
    const first = await ctl(["journal", "tail", "--from-start", "--count", "2"]);
    expect(first.code).toBe(0);
    const two = jsonl(first.stdout);
    expect(two).toHaveLength(2);
    expect(two[0]!.stream_seq as number).toBeLessThan(two[1]!.stream_seq as number);
    // Every posting balances.
    for (const p of two) expect((p.entries as { amount_minor: number }[]).reduce((s, e) => s + e.amount_minor, 0)).toBe(0);

    const since = new Date().toISOString();
    const org = await createOrg(stack);
    const top = await stack.ledgerClient.TopUp({ org_id: org.orgId, amount_minor: 777, idempotency_key: `since-${org.orgId}` });
    const later = jsonl((await ctl(["journal", "tail", "--since", since, "--count", "1"])).stdout);
    expect(later[0]).toMatchObject({ txn_id: top.top_up_id, kind: "top_up" });

    // A refused NATS user is named, never its password (nor one written into the URL). Each refusal
    // a process of its own, started together (most of each is node starting).
    const wrong = "WrongPassword0123456789";
    const [bad, unreachable, refused, inUrl] = await Promise.all([
      ctl(["journal", "tail", "--since", "last tuesday"]),
      ctl(["journal", "tail", "--nats", "nats://127.0.0.1:1"]),
      ctl(["journal", "tail"], { ...ctlEnv(), GATEWAY_NATS_PASSWORD: wrong }),
      ctl(["journal", "tail", "--nats", stack.nats.url.replace("nats://", `nats://gatewayctl:${wrong}@`)], { ...ctlEnv(), GATEWAY_NATS_USER: "", GATEWAY_NATS_PASSWORD: "" }),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since must be an ISO-8601 date/);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/cannot reach NATS at nats:\/\/127\.0\.0\.1:1/);
    expect(refused.stderr).toMatch(/NATS refused the credentials of user "gatewayctl" .*GATEWAY_NATS_USER and GATEWAY_NATS_PASSWORD/);
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toContain(wrong);
    expect(inUrl.code).toBe(1);
    expect(inUrl.stderr).not.toContain(wrong);
  });

  it("a reader that stops early (| head) ends the tail quietly at its next posting", async () => {
    const pipeline = spawn("bash", ["-c", `set -o pipefail; "${gatewayctl}" journal tail --from-start | head -n 1`], { env: ctlEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    pipeline.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    pipeline.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((res) => pipeline.on("exit", (code) => res(code)));
    // head has its line and is gone; the tail learns it when it next writes, like `tail -f | head`.
    await eventually(() => (stdout.includes("\n") ? true : undefined), 10_000, "the first posting");
    const org = await createOrg(stack);
    await stack.ledgerClient.TopUp({ org_id: org.orgId, amount_minor: 1, idempotency_key: `head-${org.orgId}` });
    expect(await exited).toBe(0);
    expect(jsonl(stdout)).toHaveLength(1);
    expect(stderr).not.toMatch(/EPIPE|Error/);
  });
});

describe("adjustments, the feed and statements (docs/billing.md)", () => {
  /** The feed after `after` through the ledger's RPC (gatewayctl usage feed prints the same, below), as its JSON lines. */
  async function feed(after: number): Promise<{ entries: Record<string, unknown>[]; resume: number }> {
    const entries: Record<string, unknown>[] = [];
    let resume = after;
    for await (const page of stack.ledgerClient.UsageFeed({ after_seq: after, max_entries: 0, follow: false })) {
      entries.push(
        ...page.entries.map((e) => ({
          ...e,
          usage: e.usage ? { ...e.usage, created_at: new Date(e.usage.created_at_ms).toISOString(), recorded_at: new Date(e.usage.recorded_at_ms).toISOString() } : null,
        })),
      );
      resume = page.resume_after_seq;
    }
    return { entries, resume };
  }
  const requestIds = (entries: Record<string, unknown>[], orgId: string) => entries.filter((e) => e.kind === "usage" && e.org_id === orgId).map((e) => (e.usage as { request_id: string }).request_id);
  const credits = (orgId: string) => stack.ledgerClient.GetCredits({ org_id: orgId });
  const parisMonth = (at: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit" }).format(at).slice(0, 7);

  let org: TestOrg;
  const answered: string[] = [];
  const spooled: string[] = [];
  let start: number;

  it("each adjustment is idempotent and journaled, in the feed and the export (a refund through gatewayctl)", async () => {
    ({ resume: start } = await feed(0));
    org = await createOrg(stack);
    const cli = async (args: string[]) => {
      const r = await ctl([...args, "--json"], { ...ctlEnv(), GATEWAY_ACTOR: "billing@example.com" });
      expect(r).toMatchObject({ code: 0, stderr: "" });
      return JSON.parse(r.stdout) as Record<string, unknown>;
    };
    // docs/billing.md's runnable blocks drive billing set, top-up with a payment, promo, credit-note and
    // limit through gatewayctl; here the refund is, and the rest goes straight to the ledger.
    const by = { operator: "billing@example.com" };
    await stack.ledgerClient.SetOrgBilling({ org_id: org.orgId, external_customer_id: `cus_${org.orgId}`, currency: "EUR", price_per_credit_micros: 1_200_000, time_zone: "Europe/Paris", ...by });
    await stack.ledgerClient.TopUp({
      org_id: org.orgId,
      amount_minor: 50_000_000,
      idempotency_key: `pay-${org.orgId}`,
      paid_amount_minor: 6_000,
      paid_currency: "EUR",
      payment_reference: "pi_3Nx",
      invoice_reference: "INV-7",
    });
    for (const content of ["first", "second [[fake:cached=3,reasoning=7]]", "third"]) answered.push((await chat(org, content)).request_id);

    const refund = await cli(["credits", "refund", org.name, "--request", answered[0]!, "--amount-minor", "1", "--reason", "answer cut off", "--idempotency-key", `ref-${org.orgId}`]);
    expect(refund).toMatchObject({ kind: "refund", amount_minor: 1, request_id: answered[0], made_by: "admin:billing@example.com", duplicate: false });
    // The same key again does nothing more.
    const again = { org_id: org.orgId, request_id: answered[0]!, amount_minor: 1, reason: "answer cut off", idempotency_key: `ref-${org.orgId}`, ...by };
    expect(await stack.ledgerClient.RefundUsage(again)).toMatchObject({ duplicate: true, adjustment: { adjustment_id: refund.id } });
    await stack.ledgerClient.IssueCreditNote({ org_id: org.orgId, amount_minor: 2_500, reason: "SLA credit", reference: "INV-7-CN", idempotency_key: `cn-${org.orgId}`, ...by });
    expect(await stack.ledgerClient.GrantPromoCredit({ org_id: org.orgId, amount_minor: 1_000_000, reason: "launch", idempotency_key: `promo-${org.orgId}`, ...by })).toMatchObject({
      adjustment: { kind: "promo_grant" },
      credits: { promo_minor: 1_000_000 },
    });
    await stack.ledgerClient.SetCreditLimit({ org_id: org.orgId, credit_limit_minor: 5_000_000, reason: "invoiced monthly", ...by });
    const c = await credits(org.orgId);
    expect(c).toMatchObject({ topped_up_minor: 50_000_000, adjusted_minor: 2_501, promo_minor: 1_000_000, credit_limit_minor: 5_000_000 });
    expect(c.balance_minor).toBe(50_000_000 + 2_501 + 1_000_000 - c.spent_minor);
    // (The bulk export above wrote records straight into the table, without their rollups: those are its own.)
    const violations = (await stack.ledgerClient.CheckBooks({})).violations;
    expect(violations.filter((v) => v.includes(org.orgId) || !/^(rollup|spent) /.test(v))).toEqual([]);

    // The export says what was refunded, and whose customer it is.
    const exported: UsageRecord[] = [];
    for await (const page of stack.ledgerClient.ExportUsage({ org_id: org.orgId, from_ms: Date.now() - 3_600_000, to_ms: Date.now() + 60_000 })) exported.push(...page.records);
    expect(exported.find((x) => x.request_id === answered[0])).toMatchObject({ refunded_minor: 1, external_customer_id: `cus_${org.orgId}`, feed_seq: expect.any(Number) });
  });

  it("the feed resumes exactly once across a late spool replay and a ledger restart", async () => {
    // A replica serves while NATS is away (its answers spooled), then is gone before it could replay.
    // (It gives up on NATS quickly, and at shutdown does not wait to replay its spool.)
    const replica = await stack.addDataPlane({ DATA_PLANE_PUBLISH_TIMEOUT_MS: "200", DATA_PLANE_SHUTDOWN_REPLAY_MS: "0" });
    await stack.stopNats();
    for (const content of ["spooled one", "spooled two"]) {
      const r = await post(`${replica.url}/v1`, org.secret, "/chat/completions", chatBody(content));
      expect(r.status).toBe(200);
      spooled.push(r.headers.get("x-request-id")!);
    }
    expect(replica.ctx.publisher.spooled).toBe(2);
    const spoolDir = replica.ctx.config.spoolDir;
    await replica.stop();
    await stack.startNats();
    answered.push((await chat(org, "after the outage")).request_id);
    const first = await eventually(
      async () => {
        const r = await feed(start);
        return requestIds(r.entries, org.orgId).length === answered.length ? r : undefined;
      },
      15_000,
      "the feed up to the outage",
    );
    expect(requestIds(first.entries, org.orgId).sort()).toEqual([...answered].sort());
    expect(first.entries.filter((e) => e.org_id === org.orgId).map((e) => e.kind)).toEqual(expect.arrayContaining(["top_up", "refund", "credit_note", "promo_grant", "credit_limit"]));
    expect(first.entries.find((e) => e.kind === "top_up" && e.org_id === org.orgId)).toMatchObject({
      amount_minor: 50_000_000,
      external_customer_id: `cus_${org.orgId}`,
      top_up: { paid_amount_minor: 6_000, paid_currency: "EUR", payment_reference: "pi_3Nx", invoice_reference: "INV-7" },
    });

    // The ledger restarts; a request made while it is down is applied once it is back.
    await stack.stopLedger();
    answered.push((await post(stack.baseUrl(), org.secret, "/chat/completions", chatBody("while the ledger is down"))).headers.get("x-request-id")!);
    await stack.startLedger();
    // The replica's spool, found and replayed by its successor long after the requests were received.
    await stack.addDataPlane({ DATA_PLANE_SPOOL_DIR: spoolDir });
    const second = await eventually(
      async () => {
        const r = await feed(first.resume);
        return requestIds(r.entries, org.orgId).length === 3 ? r : undefined;
      },
      20_000,
      "the feed after the restart and the replay",
    );
    expect(requestIds(second.entries, org.orgId).sort()).toEqual([answered.at(-1)!, ...spooled].sort());
    // Nothing twice, nothing skipped, in order.
    const seqs = [...first.entries, ...second.entries].map((e) => e.seq as number);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(second.entries.every((e) => (e.seq as number) > first.resume)).toBe(true);
    // A late record is later in the feed, and says the month it belongs to (when it was received, Paris time).
    for (const e of second.entries.filter((x) => spooled.includes((x.usage as { request_id?: string } | null)?.request_id ?? ""))) {
      const u = e.usage as { created_at: string; recorded_at: string };
      expect(Date.parse(u.recorded_at) - Date.parse(u.created_at)).toBeGreaterThan(1_000);
      expect(e.month).toBe(parisMonth(new Date(u.created_at)));
    }
    // gatewayctl prints the same entries from a cursor, then the cursor to resume from; from it, nothing new.
    const printed = jsonl((await ctl(["usage", "feed", "--after", String(first.resume)])).stdout);
    const cursor = printed.pop()!;
    expect(cursor).toMatchObject({ kind: "cursor", resume_after: second.resume });
    expect(printed.map((e) => e.seq)).toEqual(second.entries.map((e) => e.seq));
    expect(printed.find((e) => e.kind === "usage" && e.org_id === org.orgId)).toMatchObject({ external_customer_id: `cus_${org.orgId}`, usage: { org_id: org.orgId, feed_seq: expect.any(Number) } });
    expect(requestIds((await feed(second.resume)).entries, org.orgId)).toEqual([]);

    // --follow prints what comes while it runs, and on Ctrl-C the cursor to resume from.
    const child = spawn(gatewayctl, ["usage", "feed", "--after", String(second.resume), "--follow"], { env: ctlEnv(), stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const later = (await chat(org, "while a reader follows")).request_id;
    answered.push(later);
    let line: Record<string, unknown>;
    do line = JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
    while ((line.usage as { request_id?: string } | undefined)?.request_id !== later);
    child.kill("SIGINT");
    const rest: Record<string, unknown>[] = [];
    for (let next = await lines.next(); !next.done; next = await lines.next()) rest.push(JSON.parse(next.value as string) as Record<string, unknown>);
    expect(await exited).toBe(0);
    expect(rest.at(-1)).toMatchObject({ kind: "cursor" });
    expect(rest.at(-1)!.resume_after as number).toBeGreaterThanOrEqual(line.seq as number);
  });

  it("a month's statement ties to the ledger to the minor unit", async () => {
    const month = parisMonth(new Date());
    // The JSON and the CSV statement, side by side.
    const [r, csvOut] = await Promise.all([ctl(["usage", "statement", "--org", org.name, "--month", month, "--format", "json"]), ctl(["usage", "statement", "--org", org.orgId, "--month", month])]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const s = JSON.parse(r.stdout) as Record<string, unknown> & { lines: { item: string; quantity: number; amount_minor: number }[]; rows: Record<string, unknown>[] };
    const c = await credits(org.orgId);
    expect(s).toMatchObject({ month, time_zone: "Europe/Paris", external_customer_id: `cus_${org.orgId}`, currency: "EUR", opening_balance_minor: 0, check: { ties: true } });
    // The closing balance is the ledger's, the usage what it spent, the lines and the rounding add up to it.
    expect(s.closing_balance_minor).toBe(c.balance_minor);
    expect(s.usage_minor).toBe(c.spent_minor);
    expect(s.lines.reduce((n, l) => n + l.amount_minor, 0) + (s.rounding_minor as number)).toBe(s.usage_minor);
    expect(s.top_ups_minor).toBe(50_000_000);
    expect(s.adjustments_minor).toBe(1 + 2_500 + 1_000_000);
    expect(s.requests).toBe(answered.length + spooled.length);
    // Every token of every record is on a line of its class.
    const { rows } = await sql<Record<string, string>>`
      SELECT sum(input_tokens) AS input, sum(cached_input_tokens) AS cached, sum(output_tokens) AS output, sum(reasoning_tokens) AS reasoning
      FROM usage_records WHERE org_id = ${org.orgId}`.execute(stack.ledger().db);
    const line = (item: string) => s.lines.filter((l) => l.item === item).reduce((n, l) => n + l.quantity, 0);
    expect(line("cached_input_tokens")).toBe(Number(rows[0]!.cached));
    expect(line("reasoning_tokens")).toBe(Number(rows[0]!.reasoning));
    expect(line("input_tokens") + line("cached_input_tokens")).toBe(Number(rows[0]!.input));
    expect(line("output_tokens") + line("reasoning_tokens")).toBe(Number(rows[0]!.output));
    // The CSV: the same rows, RFC 4180, and the closing balance is the opening less every charge.
    const csv = csvRecords(csvOut.stdout);
    expect(csv.map((x) => x.section)).toEqual(s.rows.map((x) => x.section));
    const charges = csv.reduce((n, x) => n + Number(x.amount_minor || 0), 0);
    expect(Number(csv[0]!.balance_minor) - charges).toBe(Number(csv.at(-1)!.balance_minor));
    expect(csv.find((x) => x.section === "top_up")).toMatchObject({ amount_minor: "-50000000", amount_currency: "-60.00" });
    expect(csv.filter((x) => x.section === "adjustment").map((x) => x.item)).toEqual(["refund", "credit_note", "promo_grant", "credit_limit"]);
  });

  describe("meter connectors against local stand-ins (the billing systems cannot be reached from here)", () => {
    const KEY = "sk_test_meter_0123456789";
    const customer = () => `cus_${org.orgId}`;
    /** gatewayctl meters push from `state`, the org's entries only (the feed from where this describe began). */
    async function pushTo(destination: string, url: string, state: string, extra: string[] = []) {
      const first = existsSync(state) ? [] : ["--resume-after", String(start)];
      const r = await ctl(["meters", "push", "--destination", destination, "--url", url, "--state", state, ...first, ...extra, "--json"], { ...ctlEnv(), GATEWAY_METER_API_KEY: KEY });
      return { ...r, summary: r.code === 0 ? (JSON.parse(r.stdout) as Record<string, number>) : undefined };
    }
    const usageOfOrg = async () => requestIds((await feed(start)).entries, org.orgId);
    const costs = async () => {
      const r = await sql<{ request_id: string; cost_minor: string }>`SELECT request_id, cost_minor FROM usage_records WHERE org_id = ${org.orgId} AND cost_minor > 0`.execute(stack.ledger().db);
      return new Map(r.rows.map((x) => [x.request_id, Number(x.cost_minor)]));
    };
    const dir = mkdtempSync(join(tmpdir(), "meters-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("Stripe: a meter event per request (identifier = request id), credits through the customer's balance, nothing twice, a lost answer retried, never a page resent past the 24 h window", async () => {
      const stripe = await stripeStandIn({ key: KEY, eventName: "gateway_usage", customers: [customer()] });
      try {
        const state = join(dir, "stripe.json");
        const r = await pushTo("stripe", stripe.url, state);
        expect(r).toMatchObject({ code: 0 });
        const want = await costs();
        expect(new Map(stripe.events.map((e) => [e.identifier, e.value]))).toEqual(want);
        expect(stripe.events.every((e) => e.customer === customer())).toBe(true);
        // The promotional credit (1,000,000 minor units at 1.20 EUR a credit) is a 1.20 EUR credit on the
        // customer's balance; the refund (1 minor unit) and the credit note (2,500) are under half a cent: the operator's.
        expect(stripe.balance.get(customer())).toEqual([{ amount: -120, currency: "eur", key: expect.stringMatching(/^adj_/) }]);
        const manual = readFileSync(`${state}.manual.jsonl`, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { kind: string; reason: string });
        expect(manual.map((m) => m.kind).sort()).toEqual(["credit_note", "refund"]);
        expect(r.summary).toMatchObject({ sent: want.size + 1, manual: 2 });
        // Again: nothing new to send.
        expect((await pushTo("stripe", stripe.url, state)).summary).toMatchObject({ read: 0, sent: 0 });

        // A request whose meter event Stripe takes but whose answer is lost: sent again, dropped as a repeat, counted once.
        const lost = (await chat(org, "a meter event whose answer is lost")).request_id;
        answered.push(lost);
        stripe.loseAnswers(1);
        expect((await pushTo("stripe", stripe.url, state)).summary).toMatchObject({ sent: 0, duplicates: 1 });
        expect(stripe.events.filter((e) => e.identifier === lost)).toHaveLength(1);

        // A connector stopped with a page in flight for longer than Stripe's 24 h: it does not resend blindly.
        const later = (await chat(org, "sent, then the connector stopped")).request_id;
        answered.push(later);
        const saved = JSON.parse(readFileSync(state, "utf8")) as { after_seq: number };
        writeFileSync(state, JSON.stringify({ destination: "stripe", after_seq: saved.after_seq, inflight: { to_seq: saved.after_seq + 1_000, sent_at_ms: Date.now() - 25 * 3_600_000 } }));
        const refused = await pushTo("stripe", stripe.url, state);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(/longer ago than it drops repeats.*--resume-after/);
        // Past its window Stripe would indeed count the same identifier again: why the connector asks.
        stripe.advance(25 * 3_600_000);
        const again = await fetch(`${stripe.url}/v1/billing/meter_events`, {
          method: "POST",
          headers: { authorization: `Bearer ${KEY}`, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ event_name: "gateway_usage", identifier: lost, "payload[stripe_customer_id]": customer(), "payload[value]": "1" }).toString(),
        });
        expect(again.status).toBe(200);
        // The operator checked: the page had not arrived; resume before it.
        expect((await pushTo("stripe", stripe.url, state, ["--resume-after", String(saved.after_seq)])).summary).toMatchObject({ sent: 1 });
        expect(stripe.events.filter((e) => e.identifier === later)).toHaveLength(1);
      } finally {
        await stripe.close();
      }
    });

    it("Lago: one event per request and adjustment (transaction_id), the amount in precise_total_amount_cents, credits negative, a repeat dropped", async () => {
      const lago = await lagoStandIn({ key: KEY, code: "gateway_usage", subscriptions: [customer()] });
      try {
        const state = join(dir, "lago.json");
        const r = await pushTo("lago", lago.url, state);
        expect(r).toMatchObject({ code: 0 });
        const want = await costs();
        const usage = lago.events.filter((e) => e.properties.kind === "usage");
        expect(new Map(usage.map((e) => [e.transaction_id, e.properties.amount_minor]))).toEqual(want);
        // 1.20 EUR a credit: a request of N minor units is N × 0.00012 cents.
        for (const e of usage) expect(Number(e.precise_total_amount_cents)).toBeCloseTo((want.get(e.transaction_id)! * 1.2) / 10_000, 10);
        expect(lago.events.filter((e) => e.properties.kind !== "usage").map((e) => [e.properties.kind, e.properties.amount_minor])).toEqual(
          expect.arrayContaining([
            ["refund", -1],
            ["credit_note", -2_500],
            ["promo_grant", -1_000_000],
          ]),
        );
        expect(lago.events.every((e) => e.external_subscription_id === customer() && e.code === "gateway_usage")).toBe(true);
        const lost = (await chat(org, "a Lago event whose answer is lost")).request_id;
        answered.push(lost);
        lago.loseAnswers(1);
        expect((await pushTo("lago", lago.url, state)).summary).toMatchObject({ sent: 0, duplicates: 1 });
        expect(lago.events.filter((e) => e.transaction_id === lost)).toHaveLength(1);
      } finally {
        await lago.close();
      }
    });

    it("OpenMeter: CloudEvents with id + source, the customer as subject; a batch sent twice counted once", async () => {
      const om = await openmeterStandIn({ key: KEY, type: "gateway_usage" });
      try {
        const state = join(dir, "openmeter.json");
        expect(await pushTo("openmeter", om.url, state)).toMatchObject({ code: 0 });
        const want = await costs();
        const usage = om.events.filter((e) => e.data?.kind === "usage");
        expect(new Map(usage.map((e) => [e.id, e.data!.amount_minor]))).toEqual(want);
        expect(om.events.every((e) => e.source === "gateway" && e.subject === customer() && e.specversion === "1.0")).toBe(true);
        // The whole batch sent again from the start (a lost state file): OpenMeter keeps each (id, source) once.
        const before = om.events.length;
        expect(await pushTo("openmeter", om.url, join(dir, "openmeter-lost.json"))).toMatchObject({ code: 0 });
        expect(om.events).toHaveLength(before);
        expect(await usageOfOrg()).toEqual(expect.arrayContaining([...want.keys()]));
      } finally {
        await om.close();
      }
    });
  });
});
