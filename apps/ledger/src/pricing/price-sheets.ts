import { JetStreamApiCodes, JetStreamApiError, jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { sql, type Kysely } from "@gateway/db";
import { CATALOG_STREAM, catalogPricesSubject } from "@gateway/events";
import type { PriceSheet } from "@gateway/pricing";
import type { LedgerDb } from "../db/schema.js";

/** Sheets kept in memory (a catalog changes a few times a day; events name the last few versions). */
const CACHED_SHEETS = 64;
/** Deadline of one read of the CATALOG stream, ms: past it the batch is redelivered. */
const READ_TIMEOUT_MS = 5_000;
/**
 * How long a version found missing is not asked for again, ms: events naming a version that was
 * never published (forged, or from before sheets) cost one read of NATS per version, not per event.
 */
const MISSING_TTL_MS = 10_000;

/**
 * The catalog's price sheets by version, for recomputing each usage event's cost: from memory, then
 * the ledger's own `catalog_prices` (a version read once is kept for good, so an event is checked
 * against the same prices however late it comes), then the control-plane's CATALOG stream on NATS.
 * `undefined`: no sheet was ever published for that version. Throws when NATS or Postgres cannot
 * answer (the batch is redelivered).
 */
export class PriceSheets {
  private readonly cache = new Map<number, PriceSheet>();
  /** Versions found missing, until when (bounded like the cache). */
  private readonly missing = new Map<number, number>();

  constructor(
    private readonly db: Kysely<LedgerDb>,
    private readonly nc: NatsConnection,
  ) {}

  /** The sheet if it is in memory. */
  cached(version: number): PriceSheet | undefined {
    return this.cache.get(version);
  }

  async get(version: number): Promise<PriceSheet | undefined> {
    const cached = this.cache.get(version);
    if (cached) return cached;
    if ((this.missing.get(version) ?? 0) > Date.now()) return undefined;
    const kept = await sql<{ sheet: PriceSheet }>`SELECT sheet FROM catalog_prices WHERE version = ${version}`.execute(this.db);
    const sheet = kept.rows[0]?.sheet ?? (await this.fetch(version));
    if (sheet) this.remember(version, sheet);
    else {
      if (this.missing.size >= CACHED_SHEETS) this.missing.delete(this.missing.keys().next().value!);
      this.missing.set(version, Date.now() + MISSING_TTL_MS);
    }
    return sheet;
  }

  private async fetch(version: number): Promise<PriceSheet | undefined> {
    const jsm = await jetstreamManager(this.nc, { timeout: READ_TIMEOUT_MS });
    const msg = await jsm.streams.getMessage(CATALOG_STREAM, { last_by_subj: catalogPricesSubject(version) }).catch((err: unknown) => {
      // No such stream: nothing was ever published (a control-plane before price sheets).
      if (err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound) return null;
      throw err;
    });
    if (!msg) return undefined;
    const sheet = msg.json<PriceSheet>();
    if (sheet?.version !== version || typeof sheet.models !== "object" || typeof sheet.tools !== "object") return undefined;
    await sql`INSERT INTO catalog_prices (version, sheet) VALUES (${version}, ${JSON.stringify(sheet)}::jsonb) ON CONFLICT (version) DO NOTHING`.execute(this.db);
    return sheet;
  }

  private remember(version: number, sheet: PriceSheet): void {
    if (this.cache.size >= CACHED_SHEETS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(version, sheet);
  }
}
