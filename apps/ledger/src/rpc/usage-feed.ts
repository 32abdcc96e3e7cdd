import { setTimeout as sleep } from "node:timers/promises";
import { GatewayError } from "@gateway/errors";
import type { FeedPage, UsageFeedRequest } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { readFeed } from "../feed/read.js";

/** How long a look at the watermark waits for the transactions open at it to end, ms. */
const WATERMARK_WAIT_MS = 1_000;
/** The pause between looks of a follower that has caught up, ms. */
const FOLLOW_POLL_MS = 200;

/**
 * UsageFeed (gatewayctl usage feed; docs/billing.md, "The feed"): every entry numbered after
 * `after_seq`, in number order across every organization, up to the watermark, in pages of
 * LEDGER_EXPORT_PAGE_ROWS. Each page says where to resume (`resume_after_seq`): its last entry's
 * number, or the watermark itself once caught up (nothing below it can still commit). Caught up, it
 * ends, or with `follow` looks again until the caller cancels or the ledger stops. Each page is its
 * own short read: no transaction or snapshot is held across pages.
 */
export function usageFeed(ctx: LedgerContext) {
  return async function* (req: UsageFeedRequest, call: { cancelled: boolean }): AsyncGenerator<FeedPage> {
    if (!Number.isSafeInteger(req.after_seq) || req.after_seq < 0) throw new GatewayError("invalid_request", "after_seq must be a non-negative integer");
    if (!Number.isSafeInteger(req.max_entries) || req.max_entries < 0) throw new GatewayError("invalid_request", "max_entries must be a non-negative integer (0: no limit)");
    let after = req.after_seq;
    let left = req.max_entries === 0 ? Number.POSITIVE_INFINITY : req.max_entries;
    const stopping = ctx.closing.signal;
    let sent = 0;
    const started = Date.now();
    // A page that came full leaves more below the watermark it was read under; otherwise the watermark
    // is moved first, so a read sees everything committed before it (but what an open transaction holds back).
    let through = 0;
    let full = false;
    try {
      for (;;) {
        if (!full) through = await ctx.feedWatermark.advance(WATERMARK_WAIT_MS);
        const n = Math.min(ctx.config.exportPageRows, left);
        const entries = await readFeed(ctx.db, after, through, n);
        full = entries.length === n;
        const resume = full ? entries.at(-1)!.seq : Math.max(after, through);
        if (entries.length > 0 || !req.follow) yield { entries, resume_after_seq: resume, visible_through_seq: through };
        sent += entries.length;
        left -= entries.length;
        after = resume;
        if (left <= 0 || call.cancelled || stopping.aborted) return;
        if (full) continue;
        if (!req.follow) return;
        await sleep(FOLLOW_POLL_MS, undefined, { signal: stopping }).catch(() => undefined);
        if (call.cancelled || stopping.aborted) return;
      }
    } finally {
      ctx.log.info({ after_seq: req.after_seq, resume_after_seq: after, entries: sent, follow: req.follow, duration_ms: Date.now() - started }, "usage feed read");
    }
  };
}
