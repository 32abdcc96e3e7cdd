/** Provider health over the last hour (/operator/health), from every replica's attempts in the ledger. */
import { getJson } from "../api.js";
import { $, count, fillTable, row } from "../dom.js";
import { startPage } from "../shell.js";

interface Health {
  provider: string;
  upstream_model: string;
  attempts: number;
  failures: number;
  timeouts: number;
  error_rate: number;
  p50_ms: number;
  p95_ms: number;
  last_failure_ms: number;
  breaker_open: boolean;
}

void startPage(async () => {
  const { data } = await getJson<{ data: Health[] }>("/api/operator/health?minutes=60");
  const rows = data.map((d) =>
    row([
      d.provider,
      d.upstream_model,
      count(d.attempts),
      count(d.failures),
      `${(d.error_rate * 100).toFixed(1)} %`,
      count(d.timeouts),
      `${count(d.p50_ms)} / ${count(d.p95_ms)} ms`,
      d.last_failure_ms ? new Date(d.last_failure_ms).toLocaleString() : "—",
      d.breaker_open ? "likely open" : "closed",
    ]),
  );
  fillTable($("health"), rows, "No upstream attempts in the last hour.");
});
