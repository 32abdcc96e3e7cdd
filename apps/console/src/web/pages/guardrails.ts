/** The organization's guardrail rules (/guardrails) and how often each fired in the last 7 days, by outcome. */
import { getJson } from "../api.js";
import { $, count, fillTable, row } from "../dom.js";
import { startPage } from "../shell.js";

interface Guardrails {
  rules: Array<{ name?: string; plugin: string; action?: string; stage?: string }>;
  counts: Array<{ plugin: string; name: string; outcome: string; count: number }>;
}

void startPage(async () => {
  const g = await getJson<Guardrails>("/api/guardrails");
  const rows = g.rules.map((r) => {
    const fired = (outcome: string) => count(g.counts.filter((c) => c.plugin === r.plugin && c.name === (r.name ?? "") && c.outcome === outcome).reduce((n, c) => n + c.count, 0));
    return row([r.name ?? "(unnamed)", r.plugin, r.action ?? "deny", r.stage ?? "input", fired("masked"), fired("denied"), fired("logged"), fired("error"), fired("pass")]);
  });
  fillTable($("guardrails"), rows, "No guardrail rules: ask the gateway's operator to set some (docs/guardrails.md).");
});
