import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { chatBody, post } from "../support/orgs.ts";
import type { AnyBody, TrialPolicyBody } from "../support/api.ts";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
let stack: Stack;

beforeAll(async () => {
  stack = await startStack("gatewayctl");
});
afterAll(async () => {
  await stack?.stop();
});

/** gatewayctl's human output (standard output) for this stack. */
async function ctlText(...args: string[]): Promise<string> {
  const r = await run(join(root, "bin/gatewayctl"), args, {
    env: {
      ...process.env,
      GATEWAY_ADMIN_TOKEN: stack.adminToken,
      GATEWAY_CONTROL_PLANE_ADDR: `127.0.0.1:${stack.control.grpcPort}`,
      GATEWAY_LEDGER_ADDR: `127.0.0.1:${stack.ledger().grpcPort}`,
    },
  });
  return r.stdout;
}

async function ctl(...args: string[]): Promise<AnyBody> {
  return JSON.parse(await ctlText(...args, "--json"));
}

it("runs an organization's whole admin lifecycle, as a runbook would", async () => {
  const org = await ctl("org", "create", "--name", "runbook-org");
  await ctl("models", "enable", "runbook-org", "gw-chat-mini");

  const top = await ctl("credits", "top-up", "runbook-org", "--amount-minor", "6000000", "--idempotency-key", "rb-1");
  expect(top).toMatchObject({ org_id: org.id, duplicate: false, balance_minor: 6_000_000 });
  expect(top.added_minor).toBe(6_000_000);
  expect(await ctl("credits", "top-up", "runbook-org", "--amount-minor", "6000000", "--idempotency-key", "rb-1")).toMatchObject({
    duplicate: true,
    added_minor: 0,
    balance_minor: 6_000_000,
  });
  // A reused key adds nothing, and the human output says so rather than looking like a top-up.
  expect(await ctlText("credits", "top-up", "runbook-org", "--amount-minor", "6000000", "--idempotency-key", "rb-1")).toMatch(
    /^already applied; nothing added: --idempotency-key rb-1 is top-up \S+; balance 6000000 minor units/,
  );

  const key = await ctl("key", "create", "--org", "runbook-org", "--rpm", "2", "--tpm", "1000");
  expect(key).toMatchObject({ rpm_limit: 2, tpm_limit: 1000 });
  expect((await post(stack.baseUrl(), key.secret, "/chat/completions", chatBody("one"))).status).toBe(200);
  expect((await post(stack.baseUrl(), key.secret, "/chat/completions", chatBody("two"))).status).toBe(200);
  expect((await post(stack.baseUrl(), key.secret, "/chat/completions", chatBody("three"))).status).toBe(429);

  const holds = await ctl("holds", "list", "runbook-org");
  expect(holds.holds.length).toBeGreaterThan(0);
  expect(holds.holds[0]).toMatchObject({ org_id: org.id, status: "open" });

  const credits = await ctl("credits", "show", org.id);
  expect(credits.spent_minor).toBeGreaterThan(0);
  expect(credits.balance_minor).toBe(6_000_000 - credits.spent_minor);

  const budget = await ctl("org", "set-budget", "runbook-org", "--monthly-minor", "1");
  expect(budget.monthly_budget_minor).toBe(1);
  expect((await ctl("org", "trial", "runbook-org", "on")).in_trial).toBe(true);
  expect((await ctl("org", "trial", "runbook-org", "off")).in_trial).toBe(false);

  const dir = mkdtempSync(join(tmpdir(), "gwctl-trial-"));
  writeFileSync(join(dir, "trial.yaml"), "allowed_models: [gw-chat-mini]\nunlock_topup_minor: 2500000\n");
  const policy = await ctl("trial-policy", "set", "-f", join(dir, "trial.yaml"));
  expect(policy).toMatchObject({ allowed_models: ["gw-chat-mini"], unlock_topup_minor: 2_500_000 });
  const served = await eventually(
    async () => {
      const p = (await (await fetch(`${stack.baseUrl()}/trial-policy`)).json()) as TrialPolicyBody;
      return p.version === policy.version ? p : undefined;
    },
    15_000,
    "new trial policy served",
  );
  expect(served).toMatchObject({ allowed_models: ["gw-chat-mini"], unlock_topup_minor: 2_500_000, policy_hash: policy.policy_hash });
});

it("sets guardrails from a YAML file, and names the line of a mistake", async () => {
  const org = await ctl("org", "create", "--name", "guarded-org");
  const dir = mkdtempSync(join(tmpdir(), "gw-rules-"));
  const good = join(dir, "rules.yaml");
  writeFileSync(good, "rules:\n  - plugin: pii\n    action: mask\n  - plugin: keywords\n    config: { words: [forbidden] }\n");
  const set = await ctl("guardrails", "set", "guarded-org", "-f", good);
  expect(set).toMatchObject({ org_id: org.id, version: 1 });
  expect(set.rules.map((r: { plugin: string }) => r.plugin)).toEqual(["pii", "keywords"]);
  expect((await ctl("guardrails", "show", "guarded-org")).document).toContain("forbidden");

  const bad = join(dir, "bad.yaml");
  writeFileSync(bad, "rules:\n  - plugin: pii\n  - plugin: regex\n    action: deny\n    config:\n      patterns: ['(unclosed']\n");
  const err = await run(join(root, "bin/gatewayctl"), ["guardrails", "set", "guarded-org", "-f", bad, "--json"], {
    env: { ...process.env, GATEWAY_ADMIN_TOKEN: stack.adminToken, GATEWAY_CONTROL_PLANE_ADDR: `127.0.0.1:${stack.control.grpcPort}` },
  }).then(
    () => undefined,
    (e: { code: number; stderr: string }) => e,
  );
  expect(err?.code).toBe(1);
  expect(JSON.parse(err!.stderr).error.message).toMatch(/line 6: rules\[1\]\.config\.patterns\[0\]: invalid pattern/);
  // The refused document changed nothing.
  expect((await ctl("guardrails", "show", "guarded-org")).version).toBe(1);
  expect((await ctl("guardrails", "clear", "guarded-org")).rules).toEqual([]);
});

it("mints a one-time console sign-in link for an organization's member", async () => {
  const org = await ctl("org", "create", "--name", "console-link-org");
  const link = await ctl("console", "link", "--org", "console-link-org", "--email", "ops@example.com", "--role", "billing");
  expect(link).toMatchObject({ member: { org_id: org.id, email: "ops@example.com", role: "billing" } });
  expect(link.token).toMatch(/^gwl_/);
  // Redeemed once by the console (here: the admin client), then refused.
  await expect(stack.admin.RedeemSignInLink({ token: link.token })).resolves.toMatchObject({ member: { email: "ops@example.com" } });
  await expect(stack.admin.RedeemSignInLink({ token: link.token })).rejects.toMatchObject({ code: "not_found" });
  await expect(ctl("console", "link", "--org", "console-link-org", "--email", "ops@example.com", "--role", "owner")).rejects.toThrow(/--role must be/);
});

it("prints the catalog as the document catalog apply takes, and applying it back changes nothing", async () => {
  const [shown, shownJson] = await Promise.all([ctlText("catalog", "show"), ctl("catalog", "show")]);
  const doc = JSON.parse(shown) as { providers: { code: string }[]; models: { id: string; input_price_minor_per_mtok: number }[] };
  expect(doc.providers.map((p) => p.code)).toContain("fake");
  expect(doc.models.find((m) => m.id === "gw-chat-mini")).toMatchObject({ input_price_minor_per_mtok: 150_000 });
  // --json prints the same document on one line.
  expect(shownJson).toEqual(doc);

  const file = join(mkdtempSync(join(tmpdir(), "gwctl-catalog-")), "catalog.json");
  writeFileSync(file, shown);
  const applied = await ctl("catalog", "apply", "-f", file);
  expect(applied).toMatchObject({ providers: doc.providers.length, models: doc.models.length });
  expect(await ctl("catalog", "show")).toEqual(doc);
});
