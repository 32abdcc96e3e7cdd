import type { AnyBody } from "./api.ts";
import type { Stack } from "./stack.ts";

export interface TestOrg {
  orgId: string;
  name: string;
  keyId: string;
  secret: string;
}

let n = 0;

/** A fresh organization out of trial, with the demo models enabled, a balance and one key. */
export async function createOrg(
  stack: Stack,
  opts: { balanceMinor?: number; inTrial?: boolean; models?: string[]; keyRoutes?: string[]; keyModels?: string[]; rpm?: number; tpm?: number; budgetMinor?: number } = {},
): Promise<TestOrg> {
  const org = await stack.admin.CreateOrg({ name: `org-${process.pid}-${Date.now()}-${n++}` });
  await stack.admin.EnableModels({ org: org.id, models: opts.models ?? ["gw-chat-mini", "gw-chat-large"] });
  if (!opts.inTrial) await stack.admin.SetOrgTrial({ org: org.id, in_trial: false });
  if (opts.budgetMinor) await stack.admin.SetOrgBudget({ org: org.id, monthly_budget_minor: opts.budgetMinor });
  if (opts.balanceMinor) await stack.ledgerClient.TopUp({ org_id: org.id, amount_minor: opts.balanceMinor, idempotency_key: `t-${org.id}` });
  const key = await stack.admin.CreateKey({
    org: org.id,
    routes: opts.keyRoutes ?? [],
    models: opts.keyModels ?? [],
    name: "test",
    rpm_limit: opts.rpm ?? 0,
    tpm_limit: opts.tpm ?? 0,
  });
  return { orgId: org.id, name: org.name, keyId: key.key!.id, secret: key.secret };
}

export function chatBody(content: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content }], ...extra });
}

export async function post(baseUrl: string, secret: string, path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: AnyBody; headers: Headers }> {
  const r = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", ...headers }, body });
  const text = await r.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // streams and non-JSON stay text
  }
  return { status: r.status, body: parsed, headers: r.headers };
}
