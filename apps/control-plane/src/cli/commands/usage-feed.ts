import { intFlag } from "../args.js";
import { command, UsageError } from "../command.js";
import { stdoutWriter } from "../output.js";
import { feedLine } from "../feed.js";

/** A feed that follows has no deadline of its own: it runs until Ctrl-C. */
const FOLLOW_TIMEOUT_S = 365 * 86_400;
const READ_TIMEOUT_S = 3_600;

/** JSON lines on stdout, not one object (--json changes nothing). */
export const usageFeed = command({
  words: ["usage", "feed"],
  help: [
    {
      synopsis: "usage feed [--after SEQ] [--count N] [--follow] [--timeout-s N]",
      summary: [
        "every usage record, top-up and adjustment of every organization after",
        "SEQ, in the ledger's order, one JSON line each, then a cursor line",
        '{"kind":"cursor","resume_after":N}: resume with --after N (docs/billing.md)',
      ],
    },
  ],
  flags: { after: { type: "string" }, count: { type: "string" }, follow: { type: "boolean" }, "timeout-s": { type: "string" } },
  async run(args, { clients, flags }) {
    if (args.length > 0) throw new UsageError("usage feed takes no positional arguments");
    const after = intFlag(flags.after, "--after", 0);
    const max = intFlag(flags.count, "--count", 0);
    const timeoutS = intFlag(flags["timeout-s"], "--timeout-s", flags.follow ? FOLLOW_TIMEOUT_S : READ_TIMEOUT_S);
    const stop = new AbortController();
    const stopped = new Promise<"stopped">((resolve) => stop.signal.addEventListener("abort", () => resolve("stopped"), { once: true }));
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    const write = stdoutWriter(onSignal);
    let resume = after;
    let through = 0;
    const pages = clients()
      .ledger.UsageFeed({ after_seq: after, max_entries: max, follow: flags.follow === true }, { timeoutMs: timeoutS * 1_000, signal: stop.signal })
      [Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = pages.next();
        // A read left pending when the reader stops fails as its call is cancelled: nobody waits for it.
        next.catch(() => undefined);
        const got = await Promise.race([next, stopped]);
        if (got === "stopped" || got.done) break;
        const page = got.value;
        if (page.entries.length > 0) await write(page.entries.map((e) => `${JSON.stringify(feedLine(e))}\n`).join(""));
        resume = page.resume_after_seq;
        through = page.visible_through_seq;
      }
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
    // Where to resume: every entry up to it was printed above (or never will exist).
    await write(`${JSON.stringify({ kind: "cursor", resume_after: resume, visible_through: through })}\n`);
  },
});
