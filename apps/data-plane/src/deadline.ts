/**
 * Rejects with `what` timed out after `ms` unless `p` settles first (the KeyValue buckets' calls:
 * responses/store.ts, routing/session-pins.ts). The timer is cleared either way.
 */
export async function deadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
