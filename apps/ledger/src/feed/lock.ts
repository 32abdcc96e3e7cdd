/**
 * The shared advisory lock (two-key form: this class, `hashtext(current_schema())`) every transaction
 * that draws a feed number holds from before it draws until it ends: apply_usage_batch, and the
 * trigger numbering top-ups and adjustments. The watermark (watermark.ts) reads its holders in
 * `pg_locks` and never takes it, so it costs the writers nothing but the lock table entry.
 */
export const FEED_LOCK = {
  /** "FEED" in ASCII. */
  classid: 0x46454544,
} as const;

/**
 * The sequence hands out blocks (`INCREMENT BY FEED_BLOCK`): a usage batch draws one and numbers its
 * records from its start (one nextval per batch, not per record), a top-up or an adjustment one for
 * itself. A block is never shared, so every number drawn is at most the last value + FEED_BLOCK − 1.
 * Gaps are normal. apply_usage_batch refuses a batch of more records than a block holds (54000: the
 * consumer splits it).
 */
export const FEED_BLOCK = 1_000_000;
