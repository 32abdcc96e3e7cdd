import { instantFlag, intFlag } from "../args.js";
import { natsCredentials, natsTls } from "../nats-env.js";
import { command, UsageError } from "../command.js";
import { tailJournal } from "../journal-tail.js";
import { stdoutWriter } from "../output.js";

/** One JSON line per posting on stdout, not one object (--json changes nothing); needs NATS, not the gRPC clients. */
export const journalTail = command({
  words: ["journal", "tail"],
  help: [
    {
      synopsis: "journal tail [--from-start | --since T] [--count N] [--nats URL]",
      summary: ["follows the ledger's journal: one JSON line per posting, until", "Ctrl-C (or N postings); by default only postings made from now on"],
    },
  ],
  flags: { "from-start": { type: "boolean" }, since: { type: "string" }, count: { type: "string" }, nats: { type: "string" } },
  async run(args, { env, flags }) {
    if (args.length > 0) throw new UsageError("journal tail takes no positional arguments");
    if (flags["from-start"] && flags.since !== undefined) throw new UsageError("--from-start and --since exclude each other");
    const start = flags["from-start"] ? "all" : flags.since !== undefined ? instantFlag(flags.since, "--since") : "new";
    const limit = intFlag(flags.count, "--count", 0);
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
      const write = stdoutWriter(onSignal);
      await tailJournal({ servers: flags.nats ?? (env.GATEWAY_NATS_URL || "nats://127.0.0.1:4222"), credentials: natsCredentials(env), tls: natsTls(env), start, limit, write, signal: stop.signal });
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  },
});
