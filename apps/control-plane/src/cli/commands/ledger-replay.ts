import { instantFlag } from "../args.js";
import { command, UsageError } from "../command.js";

/** Usage applied again from the USAGE stream after a point-in-time restore (ReplayUsage); each event at most once. */
export const ledgerReplay = command({
  words: ["ledger", "replay"],
  help: [{ synopsis: "ledger replay --since T", summary: ["after Postgres was restored to T: applies again the usage", "the stream holds from T on (each event once)"] }],
  flags: { since: { type: "string" } },
  async run(args, { clients, flags, out }) {
    if (args.length !== 0) throw new UsageError("ledger replay takes no argument besides --since");
    const since = instantFlag(flags.since, "--since");
    const r = await clients().ledger.ReplayUsage({ since_ms: since }, { timeoutMs: 6 * 3_600_000 });
    const gap = r.first_available_ms > since ? r.first_available_ms : undefined;
    out.print(
      { ...r, since: new Date(since).toISOString(), ...(gap ? { first_available: new Date(gap).toISOString() } : {}) },
      [
        `${r.events} events read: ${r.applied} applied, ${r.duplicates} already applied, ${r.set_aside} set aside (dead_letters)`,
        ...(gap ? [`warning: the stream's oldest event is from ${new Date(gap).toISOString()}: usage between --since and then is no longer in it`] : []),
      ].join("\n"),
    );
  },
});
