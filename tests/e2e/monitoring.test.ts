import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAIN_METRIC_FAMILIES } from "../../apps/data-plane/src/usage/drain.js";
import { parseManifests, render } from "../../scripts/lib/k8s-manifests.ts";
import { startStack, type Stack } from "../support/stack.ts";

/** The alert rules and the dashboard in deploy/monitoring watch metrics the services really export. */
const root = resolve(import.meta.dirname, "../..");
const alerts = readFileSync(resolve(root, "deploy/monitoring/alerts.yaml"), "utf8");
const dashboard = JSON.parse(readFileSync(resolve(root, "deploy/monitoring/dashboard.json"), "utf8")) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
const operations = readFileSync(resolve(root, "docs/operations.md"), "utf8");

let stack: Stack;
beforeAll(async () => {
  // /metrics on a port of its own, as the manifests run the data-plane (DATA_PLANE_METRICS_PORT).
  stack = await startStack("monitoring", { dataPlaneEnv: { DATA_PLANE_METRICS_PORT: "0" } });
});
afterAll(async () => {
  await stack?.stop();
});

/** Our metric names an expression uses (histogram series named by their family). */
function metricsIn(expr: string): string[] {
  return [...expr.matchAll(/\b((?:gateway|ledger|control)_[a-z0-9_]+)/g)].map((m) => m[1]!.replace(/_(bucket|sum|count)$/, ""));
}

/** Metric families a service exports on /metrics. */
async function families(url: string): Promise<string[]> {
  const text = await (await fetch(url)).text();
  return [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
}

describe("monitoring in deploy/", () => {
  it("uses only metrics the data-plane, control-plane and ledger export", async () => {
    const api = stack.baseUrl().replace(/\/v1$/, "");
    const metricsPort = stack.dataPlanes[0]!.metricsPort!;
    // The public port does not show them, and the metrics port shows nothing else.
    expect((await fetch(`${api}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/v1/models`)).status).toBe(404);
    const exported = new Set([
      ...(await families(`http://127.0.0.1:${metricsPort}/metrics`)),
      ...(await families(`http://127.0.0.1:${stack.control.opsPort}/metrics`)),
      ...(await families(`http://127.0.0.1:${stack.ledger().opsPort}/metrics`)),
      // What the spool drain pushes to a Pushgateway (tests/e2e/recovery.test.ts reads them there).
      ...DRAIN_METRIC_FAMILIES,
    ]);
    const exprs = [...alerts.matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]!);
    expect(exprs.length).toBeGreaterThanOrEqual(8);
    for (const p of dashboard.panels) for (const t of p.targets) exprs.push(t.expr);
    const used = new Set(exprs.flatMap(metricsIn));
    expect(used.size).toBeGreaterThan(8);
    expect([...used].filter((m) => !exported.has(m))).toEqual([]);
  });

  it("covers what the operators are paged for, each alert with a runbook that exists", () => {
    for (const metric of [
      "ledger_consumer_pending_events",
      "gateway_usage_spooled_events",
      "ledger_dead_letters_total",
      "gateway_http_requests_total",
      "gateway_circuit_breakers_open",
      "ledger_lease_refusals_total",
    ]) {
      expect(alerts).toContain(metric);
    }
    // As Kustomize renders them: each runbook_url absolute, the setting's address and the runbook's anchor.
    const rule = parseManifests(render("deploy/monitoring")).find((o) => o.kind === "PrometheusRule")! as unknown as {
      spec: { groups: Array<{ rules: Array<{ alert?: string; labels?: Record<string, string>; annotations?: { runbook_url?: string } }> }> };
    };
    const rendered = rule.spec.groups.flatMap((g) => g.rules).filter((r) => r.alert);
    const alertNames = rendered.map((r) => r.alert!);
    expect(alertNames).toEqual([...alerts.matchAll(/- alert: (\w+)/g)].map((m) => m[1]!));
    const base = /RUNBOOK_BASE_URL=(\S+)/.exec(readFileSync(resolve(root, "deploy/monitoring/kustomization.yaml"), "utf8"))![1]!;
    expect(base).toMatch(/^https:\/\//);
    const runbooks = rendered.map((r) => {
      const url = r.annotations?.runbook_url ?? "";
      expect(url.startsWith(`${base}#`), `${r.alert}: ${url}`).toBe(true);
      return url.slice(base.length + 1);
    });
    const anchors = new Set(
      [...operations.matchAll(/^#{2,3} (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, "")
          .replace(/ /g, "-"),
      ),
    );
    expect(runbooks.filter((r) => !anchors.has(r))).toEqual([]);
    for (const name of alertNames) expect(operations).toContain(`\`${name}\``);
    // Every component pages when it is down, and each objective has its budget alert.
    const components = new Set(rendered.map((r) => r.labels?.component).filter(Boolean));
    expect([...components].sort()).toEqual(["console", "control-plane", "data-plane", "ledger", "nats"]);
    expect(new Set(rendered.map((r) => r.labels?.slo).filter(Boolean))).toEqual(new Set(["availability", "latency", "billing-lag"]));
  });
});
