import { command, UsageError } from "../command.js";

/** Every invariant of the ledger's books (CheckBooks); exit 1 when one is broken. */
export const ledgerCheck = command({
  words: ["ledger", "check"],
  help: [{ synopsis: "ledger check", summary: ["every book invariant, read in one snapshot; exit 1 on a violation"] }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 0) throw new UsageError("ledger check takes no argument");
    // It sums every usage record: give it the time a large ledger needs.
    const r = await clients().ledger.CheckBooks({}, { timeoutMs: 30 * 60_000 });
    const at = new Date(r.checked_at_ms).toISOString();
    out.print(
      { ok: r.violations.length === 0, violations: r.violations, accounts: r.accounts, usage_records: r.usage_records, checked_at: at },
      r.violations.length === 0
        ? `the books hold: ${r.accounts} accounts, ${r.usage_records} usage records (${at})`
        : [...r.violations.map((v) => `violation\t${v}`), `${r.violations.length} violation(s) in ${r.accounts} accounts (${at})`].join("\n"),
    );
    if (r.violations.length > 0) throw new Error(`the books do not hold: ${r.violations.length} violation(s)`);
  },
});
