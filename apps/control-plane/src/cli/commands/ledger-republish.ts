import { instantFlag } from "../args.js";
import { command, UsageError } from "../command.js";

/** The journal and top-up announcements since T published again, after the LEDGER stream was lost (RepublishJournal). */
export const ledgerRepublish = command({
  words: ["ledger", "republish"],
  help: [{ synopsis: "ledger republish --since T", summary: ["after the LEDGER stream was lost: publishes again the journal", "postings and top-up announcements made from T on"] }],
  flags: { since: { type: "string" } },
  async run(args, { clients, flags, out }) {
    if (args.length !== 0) throw new UsageError("ledger republish takes no argument besides --since");
    const since = instantFlag(flags.since, "--since");
    const r = await clients().ledger.RepublishJournal({ since_ms: since }, { timeoutMs: 10 * 60_000 });
    out.print({ ...r, since: new Date(since).toISOString() }, `${r.journal_transactions} journal transactions and ${r.top_ups} top-ups queued to be published again`);
  },
});
