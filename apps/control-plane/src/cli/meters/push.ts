/**
 * A meter connector (docs/billing.md, "Pushing usage to a billing system"): reads the billing feed
 * from its own stored cursor, sends each entry to the destination under the entry's own idempotency
 * key, and moves the cursor only once the destination has taken the whole page. The state file is
 * written (atomically) before a page is sent, with the page and when it was sent ("in flight"), and
 * again after: a connector stopped in between sends that page again, which the destination drops as
 * repeats within its deduplication window. Past that window (Stripe keeps an identifier 24 hours) a
 * page is never resent blindly: the connector stops and asks the operator.
 */
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { FeedEntry, LedgerServiceMethods, OrgBilling, TypedClient } from "@gateway/proto";
import type { Destination, Manual, Outgoing, Verdict } from "./destinations.js";

/** What the connector keeps between runs. */
export interface MeterState {
  destination: string;
  /** Every entry up to this number is at the destination, or in the manual list. */
  after_seq: number;
  /** The page being sent: up to which number, and when it went out (Unix ms); null between pages. */
  inflight: { to_seq: number; sent_at_ms: number } | null;
}

export interface PushOptions {
  destination: Destination;
  /** The destination's base URL (the real service, or a stand-in). */
  url: string;
  apiKey: string;
  statePath: string;
  /** Where entries left to the operator go, one JSON line each. */
  manualPath: string;
  ledger: TypedClient<LedgerServiceMethods>;
  /** Keep following the feed until `signal` aborts. */
  follow: boolean;
  /** Start (again) after this number, whatever the state says: the operator's answer to a page in flight too long. */
  resumeAfter?: number;
  /** Stop after this many entries read (0: none). */
  maxEntries?: number;
  signal: AbortSignal;
  /** Progress and warnings (stderr). */
  log: (line: string) => void;
  now?: () => number;
  /** Entries per page (one feed read, one state write). */
  pageEntries?: number;
}

export interface PushResult {
  read: number;
  sent: number;
  duplicates: number;
  manual: number;
  after_seq: number;
}

/** The connector stopped on something an operator must decide. */
export class MeterStopError extends Error {}

const CONCURRENCY = 8;
const ATTEMPTS = 5;
const REQUEST_TIMEOUT_MS = 10_000;
/** A page sent this close to the end of the destination's window is not resent either: the trip and the clocks. */
const WINDOW_MARGIN_MS = 3_600_000;
const IDLE_MS = 1_000;

export function readState(path: string, destination: string): MeterState | undefined {
  if (!existsSync(path)) return undefined;
  const s = JSON.parse(readFileSync(path, "utf8")) as MeterState;
  if (s.destination !== destination) throw new MeterStopError(`${path} is the state of a connector to ${s.destination}, not ${destination}`);
  return s;
}

/** Written to a new file, flushed, then renamed over the old one: a crash leaves one or the other, whole. */
export function writeState(path: string, s: MeterState): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, `${JSON.stringify(s)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

export async function push(o: PushOptions): Promise<PushResult> {
  const now = o.now ?? Date.now;
  const d = o.destination;
  let state = readState(o.statePath, d.name) ?? { destination: d.name, after_seq: 0, inflight: null };
  if (o.resumeAfter !== undefined) state = { destination: d.name, after_seq: o.resumeAfter, inflight: null };
  if (state.inflight && now() - state.inflight.sent_at_ms > d.dedupWindowMs - WINDOW_MARGIN_MS) {
    const { to_seq, sent_at_ms } = state.inflight;
    throw new MeterStopError(
      `the entries after ${state.after_seq} up to ${to_seq} were being sent to ${d.name} at ${new Date(sent_at_ms).toISOString()}, longer ago than it drops repeats: ` +
        `sending them again could count them twice. Check them at ${d.name}, then run again with --resume-after ${to_seq} (they arrived) or --resume-after ${state.after_seq} (they did not).`,
    );
  }
  writeState(o.statePath, state);
  const result: PushResult = { read: 0, sent: 0, duplicates: 0, manual: 0, after_seq: state.after_seq };
  const billings = new Map<string, OrgBilling>();
  const pageEntries = o.pageEntries ?? 500;
  while (!o.signal.aborted) {
    const want = o.maxEntries ? Math.min(pageEntries, o.maxEntries - result.read) : pageEntries;
    if (want <= 0) break;
    const entries: FeedEntry[] = [];
    let resume = state.after_seq;
    for await (const page of o.ledger.UsageFeed({ after_seq: state.after_seq, max_entries: want, follow: false }, { timeoutMs: 60_000, signal: o.signal })) {
      entries.push(...page.entries);
      resume = page.resume_after_seq;
    }
    result.read += entries.length;
    if (entries.length > 0) {
      // The organizations' currency and price (refunds and credits in money), once each.
      for (const org of new Set(entries.filter((e) => e.kind !== "usage").map((e) => e.org_id))) {
        if (!billings.has(org)) billings.set(org, await o.ledger.GetOrgBilling({ org_id: org }));
      }
      const { out, manual } = d.requests(entries, (org) => billings.get(org), now());
      if (out.length > 0) {
        state = { ...state, inflight: { to_seq: resume, sent_at_ms: now() } };
        writeState(o.statePath, state);
        const refused = await sendAll(o, out, new Map(entries.map((e) => [e.seq, e])), result);
        manual.push(...refused);
      }
      if (manual.length > 0) {
        appendFileSync(o.manualPath, manual.map((m) => `${JSON.stringify({ destination: d.name, ...m })}\n`).join(""));
        result.manual += manual.length;
        o.log(`${manual.length} entr${manual.length === 1 ? "y" : "ies"} left to the operator in ${o.manualPath}`);
      }
    }
    if (resume !== state.after_seq || state.inflight) {
      state = { destination: d.name, after_seq: resume, inflight: null };
      writeState(o.statePath, state);
    }
    result.after_seq = state.after_seq;
    if (entries.length < want) {
      if (!o.follow) break;
      await sleep(IDLE_MS, undefined, { signal: o.signal }).catch(() => undefined);
    }
  }
  return result;
}

/** Sends a page's requests, CONCURRENCY at once, each retried on a passing failure; the entries the destination refused for good. */
async function sendAll(o: PushOptions, out: Outgoing[], bySeq: Map<number, FeedEntry>, result: PushResult): Promise<Manual[]> {
  const refused: Manual[] = [];
  let next = 0;
  const worker = async () => {
    while (next < out.length) {
      const req = out[next++]!;
      const v = await sendOne(o, req);
      if (v === "sent") result.sent += req.seqs.length;
      else if (v === "duplicate") result.duplicates += req.seqs.length;
      else
        for (const seq of req.seqs) {
          const e = bySeq.get(seq);
          refused.push({ seq, kind: e?.kind ?? "", org_id: e?.org_id ?? "", amount_minor: e?.amount_minor ?? 0, reason: `${o.destination.name} refused it: ${v.refused}` });
        }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, out.length) }, worker));
  return refused;
}

async function sendOne(o: PushOptions, req: Outgoing): Promise<Exclude<Verdict, "retry">> {
  let last = "";
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (o.signal.aborted) throw new MeterStopError("stopped");
    try {
      const r = await fetch(`${o.url.replace(/\/+$/, "")}${req.path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${o.apiKey}`, "content-type": req.contentType, ...req.headers },
        body: req.body,
        signal: AbortSignal.any([o.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      });
      const v = o.destination.verdict(r.status, await r.text());
      if (v !== "retry") return v;
      last = `HTTP ${r.status}`;
    } catch (err) {
      if (o.signal.aborted) throw new MeterStopError("stopped");
      last = err instanceof Error ? err.message : String(err);
    }
    if (attempt < ATTEMPTS) await sleep(250 * 2 ** attempt, undefined, { signal: o.signal }).catch(() => undefined);
  }
  // Still failing: stop with the page in flight; the next run sends it again (repeats are dropped).
  throw new MeterStopError(`${o.destination.name} did not take ${req.path} after ${ATTEMPTS} attempts (${last}); the page stays in flight, run again`);
}
