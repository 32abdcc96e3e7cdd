import { DeliverPolicy, JetStreamApiError, jetstream, jetstreamManager, type OrderedConsumerOptions } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { GatewayError } from "@gateway/errors";
import { INBOX_PREFIX, LEDGER_JOURNAL_SUBJECT, LEDGER_STREAM, LedgerJournalV1 } from "@gateway/events";
import { natsAuthProblem, natsTlsOptions, redactNatsUrl, type NatsCredentials, type NatsTls } from "@gateway/nats";

export interface JournalTailOptions {
  /** Comma-separated NATS servers. */
  servers: string;
  /** The read-only `gatewayctl` NATS user, when the server requires credentials. */
  credentials?: NatsCredentials | undefined;
  /** TLS to NATS (GATEWAY_NATS_TLS_*); plaintext when undefined. */
  tls?: NatsTls | undefined;
  /** `new`: postings made from now on; `all`: the stream from its start; a number: from that Unix ms. */
  start: "new" | "all" | number;
  /** Stop after this many postings; 0 follows until stopped. */
  limit: number;
  write(text: string): Promise<void>;
  /** Aborting (SIGINT, SIGTERM) ends the follow after the posting being written. */
  signal: AbortSignal;
}

/** How long the server keeps the consumer after this process vanished without deleting it (SIGKILL), ms. */
const INACTIVE_MS = 30_000;
/** Deadline of each JetStream API request (consumer create, delete), ms. */
const API_TIMEOUT_MS = 5_000;
const STREAM_NOT_FOUND = 10059;

/**
 * Follows the ledger's journal (`ledger.v1.journal` on stream LEDGER) with an ordered consumer:
 * ephemeral, unacknowledged, recreated by the client from the last sequence it saw when NATS
 * restarts, and deleted when the tail ends, so nothing durable is left on the stream. One JSON line
 * per posting: the event's fields and `stream_seq` (to resume with --since or to spot a gap).
 * Returns the number of postings written.
 */
export async function tailJournal(o: JournalTailOptions): Promise<number> {
  const where = redactNatsUrl(o.servers);
  const nc = await connect({
    servers: o.servers.split(",").map((s) => s.trim()),
    name: "gatewayctl-journal-tail",
    ...o.credentials,
    ...natsTlsOptions(o.tls),
    inboxPrefix: INBOX_PREFIX.gatewayctl,
    timeout: 5_000,
    maxReconnectAttempts: -1,
  }).catch((err: unknown) => {
    const refused = natsAuthProblem(err, o.credentials);
    if (refused) throw new GatewayError("service_unavailable", `${refused} at ${where}: set GATEWAY_NATS_USER and GATEWAY_NATS_PASSWORD (the gatewayctl user)`);
    throw new GatewayError("service_unavailable", `cannot reach NATS at ${where}: ${(err as Error).message}`);
  });
  try {
    const jsm = await jetstreamManager(nc, { timeout: API_TIMEOUT_MS });
    const stream = await jsm.streams.info(LEDGER_STREAM).catch((err: unknown) => {
      if (err instanceof JetStreamApiError && err.code === STREAM_NOT_FOUND) {
        throw new GatewayError("not_found", `NATS at ${where} has no ${LEDGER_STREAM} stream (the ledger creates it when it starts)`);
      }
      throw err;
    });
    // One subject as a string: it becomes `filter_subject`, which servers before 2.10 understand too.
    const opts: Partial<OrderedConsumerOptions> = { filter_subjects: LEDGER_JOURNAL_SUBJECT, inactive_threshold: INACTIVE_MS };
    if (o.start === "all") opts.deliver_policy = DeliverPolicy.All;
    // "From now on" as a sequence, not DeliverPolicy.New: an ordered consumer recreated (after a NATS
    // restart) before its first message restarts from its start sequence, and New has none.
    else if (o.start === "new") Object.assign(opts, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: stream.state.last_seq + 1 });
    else Object.assign(opts, { deliver_policy: DeliverPolicy.StartTime, opt_start_time: new Date(o.start).toISOString() });
    const consumer = await jetstream(nc, { timeout: API_TIMEOUT_MS }).consumers.get(LEDGER_STREAM, opts);
    const messages = await consumer.consume({ max_messages: 256 });
    // On stderr, so stdout stays one posting per line: from here on nothing published is missed.
    const from = o.start === "new" ? "new postings" : o.start === "all" ? "the start of the stream" : new Date(o.start).toISOString();
    process.stderr.write(`gatewayctl: following ${LEDGER_JOURNAL_SUBJECT} from ${from}${o.limit > 0 ? ` for ${o.limit} posting(s)` : ""}; Ctrl-C stops\n`);
    const stop = () => messages.stop();
    o.signal.addEventListener("abort", stop, { once: true });
    if (o.signal.aborted) stop();
    let written = 0;
    try {
      for await (const m of messages) {
        let posting: LedgerJournalV1;
        try {
          posting = LedgerJournalV1.parse(m.json());
        } catch {
          process.stderr.write(`gatewayctl: skipped message ${m.seq}: not a ledger.v1.journal v1 posting\n`);
          continue;
        }
        await o.write(`${JSON.stringify({ stream_seq: m.seq, ...posting })}\n`);
        written++;
        if (o.limit > 0 && written >= o.limit) break;
      }
    } finally {
      o.signal.removeEventListener("abort", stop);
      messages.stop();
      await consumer.delete().catch(() => undefined);
    }
    return written;
  } finally {
    await nc.close();
  }
}
