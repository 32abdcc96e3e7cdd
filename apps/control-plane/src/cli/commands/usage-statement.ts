import { need } from "../args.js";
import { existingOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";
import { stdoutWriter } from "../output.js";
import { statementCsv, statementRows, statementTies } from "../statement.js";

/** A statement on stdout as CSV (default) or one JSON object; exit 1 if it does not tie (it always should). */
export const usageStatement = command({
  words: ["usage", "statement"],
  help: [
    {
      synopsis: "usage statement --org ORG --month YYYY-MM [--format csv|json] [--time-zone TZ]",
      summary: [
        "the month as the ledger recorded it: opening balance, top-ups, usage",
        "per model and token class, the rounding, adjustments, closing balance;",
        "the organization's time zone unless --time-zone (docs/billing.md)",
      ],
    },
  ],
  flags: { org: { type: "string" }, month: { type: "string" }, format: { type: "string" }, "time-zone": { type: "string" } },
  async run(args, { clients, flags }) {
    if (args.length > 0) throw new UsageError("usage statement takes --org and --month, no positional arguments");
    const org = need(flags.org, "--org");
    const month = need(flags.month, "--month");
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new UsageError(`--month must be YYYY-MM, got '${month}'`);
    const format = flags.format ?? "csv";
    if (format !== "csv" && format !== "json") throw new UsageError(`--format must be csv or json, got '${format}'`);
    const c = clients();
    const orgId = await existingOrgId(c, org);
    const s = await c.ledger.UsageStatement({ org_id: orgId, month, time_zone: flags["time-zone"] ?? "" }, { timeoutMs: 600_000 });
    const rows = statementRows(s);
    const check = statementTies(s, rows);
    const write = stdoutWriter();
    await write(format === "csv" ? statementCsv(rows) : `${JSON.stringify({ ...s, rows, check: { charges_minor: check.charges, ties: check.ties } })}\n`);
    if (!check.ties) throw new Error(`the statement does not tie: ${s.opening_balance_minor} − ${check.charges} ≠ ${s.closing_balance_minor}`);
  },
});
