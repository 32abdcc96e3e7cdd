import { DiscardPolicy, RetentionPolicy, StorageType, jetstream, jetstreamManager } from "@nats-io/jetstream";
import { GatewayError } from "@gateway/errors";
import { sql, type Kysely } from "@gateway/db";
import { CATALOG_STREAM, CATALOG_STREAM_SUBJECTS, catalogPricesSubject } from "@gateway/events";
import { priceSheet } from "@gateway/pricing";
import type { ControlContext } from "../context.js";
import type { ControlDb } from "../db/schema.js";
import { readCatalog } from "../rpc/get-catalog.js";

/** Deadline of a price sheet's publish (and of ensuring the stream), ms. */
const PUBLISH_TIMEOUT_MS = 5_000;
/** The stream's bound: sheets are a few KB (a catalog of 1,000 models is ~400 KB); old versions go first. */
const CATALOG_STREAM_MAX_BYTES = 1024 * 1024 * 1024;

/** Creates the CATALOG stream unless it exists (one subject per version, each version's last sheet kept). */
export async function ensureCatalogStream(ctx: ControlContext): Promise<void> {
  const nc = ctx.nats;
  if (!nc) throw new Error("NATS is not connected");
  const jsm = await jetstreamManager(nc, { timeout: PUBLISH_TIMEOUT_MS });
  await jsm.streams.info(CATALOG_STREAM).catch(() =>
    jsm.streams
      .add({
        name: CATALOG_STREAM,
        subjects: CATALOG_STREAM_SUBJECTS,
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        max_msgs_per_subject: 1,
        max_bytes: CATALOG_STREAM_MAX_BYTES,
        num_replicas: ctx.config.catalogStreamReplicas,
      })
      // Another replica created it meanwhile.
      .catch(() => jsm.streams.info(CATALOG_STREAM)),
  );
}

/** Publishes the price sheet of the catalog `trx` sees as `version`; resolves once JetStream stored it. */
export async function publishPriceSheet(ctx: ControlContext, trx: Kysely<ControlDb>, version: number): Promise<void> {
  const catalog = await readCatalog(trx, version);
  const body = JSON.stringify(priceSheet(version, catalog.models, catalog.mcp_servers ?? []));
  const nc = ctx.nats;
  if (!nc || !ctx.natsConnected) throw new GatewayError("service_unavailable", "NATS is unreachable: the catalog's prices cannot be published, so nothing was changed. Retry shortly.");
  const publish = () => jetstream(nc, { timeout: PUBLISH_TIMEOUT_MS }).publish(catalogPricesSubject(version), body);
  try {
    await publish().catch(async () => {
      // The stream was deleted or never made (NATS's store lost): make it, then once more.
      await ensureCatalogStream(ctx);
      return publish();
    });
  } catch (err) {
    ctx.log.error({ err, catalog_version: version }, "price sheet not published");
    throw new GatewayError("service_unavailable", "The catalog's prices could not be published to NATS, so nothing was changed. Retry shortly.");
  }
}

/**
 * Moves the catalog to its next version inside `trx` and publishes the new version's price sheet
 * before the transaction commits: no data-plane can price a request with a version whose sheet
 * the ledger cannot read. A change whose sheet cannot be published is not made.
 */
export async function nextCatalogVersion(ctx: ControlContext, trx: Kysely<ControlDb>): Promise<number> {
  const r = await sql<{ version: number }>`UPDATE catalog_state SET version = version + 1 WHERE id = 1 RETURNING version`.execute(trx);
  const version = Number(r.rows[0]!.version);
  await publishPriceSheet(ctx, trx, version);
  return version;
}

/** At start: the current version's sheet (a catalog changed by a release before sheets, or NATS's store lost). */
export async function publishCurrentPriceSheet(ctx: ControlContext): Promise<void> {
  await ensureCatalogStream(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    const { version } = await trx.selectFrom("catalog_state").select("version").where("id", "=", 1).executeTakeFirstOrThrow();
    await publishPriceSheet(ctx, trx, Number(version));
  });
}
