import { startPostgres, type PostgresHandle } from "@gateway/testing";

/**
 * One throwaway PostgreSQL server for the whole run (each suite creates its own database on it);
 * each suite starts its own nats-server, so JetStream streams never cross suites.
 */
let pg: PostgresHandle | undefined;

export async function setup(): Promise<void> {
  pg = await startPostgres();
  process.env.TEST_PG_URL = pg.url;
}

export async function teardown(): Promise<void> {
  await pg?.stop();
}
