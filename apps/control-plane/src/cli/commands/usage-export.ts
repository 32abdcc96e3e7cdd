import { intFlag, need, timeWindow } from "../args.js";
import { existingOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";
import { stdoutWriter } from "../output.js";
import { CSV_HEADER, formatRecord, type UsageFormat } from "../usage-export.js";

/** Default deadline of a whole export, seconds: a million records take well under a minute. */
const EXPORT_TIMEOUT_S = 3_600;

/** The records on stdout as CSV or JSON lines, not one object (--json changes nothing). */
export const usageExport = command({
  words: ["usage", "export"],
  help: [
    {
      synopsis: "usage export --org ORG --from T --to T [--format csv|jsonl] [--timeout-s N]",
      summary: [
        "usage records received in [from, to) with their line items, oldest",
        "first, streamed to stdout (docs/billing.md: columns and units);",
        "T is ISO-8601: 2026-11-01 (UTC) or 2026-11-01T09:30:00Z / +01:00",
      ],
    },
  ],
  flags: { org: { type: "string" }, from: { type: "string" }, to: { type: "string" }, format: { type: "string" }, "timeout-s": { type: "string" } },
  async run(args, { clients, flags }) {
    if (args.length > 0) throw new UsageError("usage export takes --org, --from and --to, no positional arguments");
    const org = need(flags.org, "--org");
    const { fromMs, toMs } = timeWindow(flags.from, flags.to);
    const format = (flags.format ?? "csv") as UsageFormat;
    if (format !== "csv" && format !== "jsonl") throw new UsageError(`--format must be csv or jsonl, got '${flags.format}'`);
    const timeoutS = intFlag(flags["timeout-s"], "--timeout-s", EXPORT_TIMEOUT_S);
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
  },
});
