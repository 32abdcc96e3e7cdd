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
