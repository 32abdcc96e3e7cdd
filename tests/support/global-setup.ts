import { resolve } from "node:path";
import { startPostgres, type PostgresHandle } from "@gateway/testing";
import { staleBuilds } from "./fresh-build.ts";

/**
 * One throwaway PostgreSQL server for the whole run (each suite creates its own database on it);
 * each suite starts its own nats-server, so JetStream streams never cross suites.
 */
let pg: PostgresHandle | undefined;

export async function setup(): Promise<void> {
  // The end-to-end suites run the services from dist: a build older than its sources tests old code.
  // ALLOW_STALE_BUILD=1: for a run of unit tests alone, which import the sources, not dist.
  const stale = process.env.ALLOW_STALE_BUILD === "1" ? [] : staleBuilds(resolve(import.meta.dirname, "../.."));
  if (stale.length) {
    throw new Error(`Stale build: ${stale.join(", ")} changed since the last build. Run 'make build' first ('make test' builds before testing; ALLOW_STALE_BUILD=1 for unit tests alone).`);
  }
  pg = await startPostgres();
  process.env.TEST_PG_URL = pg.url;
}

export async function teardown(): Promise<void> {
  await pg?.stop();
}
