import { sql, type Kysely, type Migration } from "@gateway/db";

/** Per-provider upstream connection limit (0 = the data-plane's default) and HTTP/2 by ALPN. */
export const providerConnections: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE providers ADD COLUMN max_connections integer NOT NULL DEFAULT 0 CHECK (max_connections >= 0);
      ALTER TABLE providers ADD COLUMN http2 boolean NOT NULL DEFAULT false;
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE providers DROP COLUMN max_connections, DROP COLUMN http2`.execute(db);
  },
};
