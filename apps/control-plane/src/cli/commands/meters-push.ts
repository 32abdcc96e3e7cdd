import { intFlag, need } from "../args.js";
import { command, UsageError } from "../command.js";
import { lago, openmeter, stripe, type Destination } from "../meters/destinations.js";
import { MeterStopError, push } from "../meters/push.js";

const DESTINATIONS: Record<string, { make: typeof stripe; url: string }> = {
  stripe: { make: stripe, url: "https://api.stripe.com" },
  lago: { make: lago, url: "https://api.getlago.com" },
  openmeter: { make: openmeter, url: "https://openmeter.cloud" },
};

/** Progress on stderr; with --json, one summary object on stdout. */
export const metersPush = command({
  words: ["meters", "push"],
  help: [
    {
      synopsis: "meters push --destination stripe|lago|openmeter --state FILE [--url URL] [--event NAME] [--source URI] [--follow] [--resume-after SEQ] [--count N]",
      summary: [
        "sends the billing feed to a billing system from the cursor kept in FILE,",
        "each entry under its own idempotency key (GATEWAY_METER_API_KEY: the",
        "destination's key); entries it cannot send go to FILE.manual.jsonl",
      ],
    },
  ],
  flags: {
    destination: { type: "string" },
    state: { type: "string" },
    url: { type: "string" },
    event: { type: "string" },
    source: { type: "string" },
    follow: { type: "boolean" },
    "resume-after": { type: "string" },
    count: { type: "string" },
  },
  async run(args, { clients, out, flags, env }) {
    if (args.length > 0) throw new UsageError("meters push takes no positional arguments");
    const name = need(flags.destination, "--destination");
    const known = DESTINATIONS[name];
    if (!known) throw new UsageError(`--destination must be stripe, lago or openmeter, got '${name}'`);
    const statePath = need(flags.state, "--state");
    const apiKey = env.GATEWAY_METER_API_KEY;
    if (!apiKey) throw new UsageError("GATEWAY_METER_API_KEY is not set (the destination's API key)");
    const destination: Destination = known.make({ event: flags.event ?? "gateway_usage", source: flags.source ?? "gateway" });
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
      const r = await push({
        destination,
        url: flags.url ?? known.url,
        apiKey,
        statePath,
        manualPath: `${statePath}.manual.jsonl`,
        ledger: clients().ledger,
        follow: flags.follow === true,
        ...(flags["resume-after"] !== undefined ? { resumeAfter: intFlag(flags["resume-after"], "--resume-after", 0) } : {}),
        maxEntries: intFlag(flags.count, "--count", 0),
        signal: stop.signal,
        log: (line) => process.stderr.write(`meters push: ${line}\n`),
      });
      out.print({ destination: name, ...r }, `${name}: read ${r.read}, sent ${r.sent}, already there ${r.duplicates}, left to the operator ${r.manual}; resume after ${r.after_seq}`);
    } catch (err) {
      if (err instanceof MeterStopError && stop.signal.aborted) return;
      throw err;
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  },
});
