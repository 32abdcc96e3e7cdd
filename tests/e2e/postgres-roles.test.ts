import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { loadConfig as loadControlConfig, migrateControlSchema } from "@gateway/control-plane";
import { createDb, sql } from "@gateway/db";
import { loadConfig as loadLedgerConfig, migrateLedgerSchema } from "@gateway/ledger";
import { createDatabase, pgBin, startPostgres, type PostgresHandle } from "@gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * deploy/postgres/roles.sql: a role per service owning its schema, settings that stand in for the
 * startup options (so a transaction-mode PgBouncer can sit in front), and the billing team's
 * read-only role. Run with psql as the walk in docs/operations.md runs it, twice (it is idempotent).
 */
const root = resolve(import.meta.dirname, "../..");
const TOKEN = "postgres-roles-admin-token-0123456789";
let pg: PostgresHandle;
let db: string;

/** The database's URL as another role (the test server trusts local connections: no password checked). */
const as = (role: string) => {
  const u = new URL(db);
  u.username = role;
  return u.toString();
};

beforeAll(async () => {
  pg = await startPostgres();
  db = await createDatabase(pg.url, "roles");
});
afterAll(async () => {
  await pg?.stop();
});

describe("deploy/postgres/roles.sql", () => {
  it("gives each service its own role and schema, the search_path and statement timeout as role settings, and billing a read-only view", async () => {
    const run = () =>
      execFileSync(
        pgBin("psql"),
        [db, "-v", "ON_ERROR_STOP=1", "-q", "-v", "control_password=c-pw", "-v", "ledger_password=l-pw", "-v", "billing_password=b-pw", "-f", resolve(root, "deploy/postgres/roles.sql")],
        {
          stdio: ["ignore", "ignore", "pipe"],
        },
      );
    run();
    run();

    // The migrate Jobs connect as the service's role, directly (startup options on: a session).
    await migrateControlSchema(loadControlConfig({ CONTROL_PLANE_DATABASE_URL: as("gateway_control"), CONTROL_PLANE_ADMIN_TOKEN: TOKEN, CONTROL_PLANE_LOG_LEVEL: "silent" }));
    await migrateLedgerSchema(loadLedgerConfig({ LEDGER_DATABASE_URL: as("gateway_ledger"), LEDGER_ADMIN_TOKEN: TOKEN, LEDGER_LOG_LEVEL: "silent" }));

    // The services, as the production overlay runs them: no startup options, the role's settings.
    const control = loadControlConfig({ CONTROL_PLANE_DATABASE_URL: as("gateway_control"), CONTROL_PLANE_ADMIN_TOKEN: TOKEN, CONTROL_PLANE_DB_STARTUP_OPTIONS: "false" });
    const ledger = loadLedgerConfig({ LEDGER_DATABASE_URL: as("gateway_ledger"), LEDGER_ADMIN_TOKEN: TOKEN, LEDGER_DB_STARTUP_OPTIONS: "false" });
    expect([control.dbStartupOptions, ledger.dbStartupOptions]).toEqual([false, false]);
    expect(loadLedgerConfig({ LEDGER_DATABASE_URL: db, LEDGER_ADMIN_TOKEN: TOKEN }).dbStartupOptions).toBe(true);
    const pools = {
      control: createDb<unknown>({ url: control.databaseUrl, schema: control.dbSchema, poolMax: 1, startupOptions: control.dbStartupOptions }),
      ledger: createDb<unknown>({ url: ledger.databaseUrl, schema: ledger.dbSchema, poolMax: 1, startupOptions: ledger.dbStartupOptions }),
      billing: createDb<unknown>({ url: as("gateway_billing"), schema: "ledger", poolMax: 1, startupOptions: false }),
    };
    try {
      const settings = async (d: (typeof pools)["control"]) =>
        (await sql<{ p: string; t: string }>`SELECT current_setting('search_path') AS p, current_setting('statement_timeout') AS t`.execute(d)).rows[0];
      expect(await settings(pools.control)).toEqual({ p: "control", t: "10s" });
      expect(await settings(pools.ledger)).toEqual({ p: "ledger", t: "10s" });
      // Unqualified names resolve in the service's own schema, as the services write them.
      await sql`SELECT count(*) FROM kysely_migration`.execute(pools.control);
      await sql`INSERT INTO accounts (org_id) VALUES ('org_roles')`.execute(pools.ledger);

      // Billing reads the ledger's tables and nothing else, and writes nothing.
      expect((await sql<{ org_id: string }>`SELECT org_id FROM accounts`.execute(pools.billing)).rows).toEqual([{ org_id: "org_roles" }]);
      await expect(sql`DELETE FROM accounts`.execute(pools.billing)).rejects.toThrow(/read-only transaction|permission denied/);
      await expect(sql`SELECT 1 FROM control.kysely_migration`.execute(pools.billing)).rejects.toThrow(/permission denied for schema control/);
      // Neither service reaches the other's schema.
      await expect(sql`SELECT 1 FROM ledger.accounts`.execute(pools.control)).rejects.toThrow(/permission denied for schema ledger/);
      await expect(sql`CREATE TABLE public.stray (x int)`.execute(pools.ledger)).rejects.toThrow(/permission denied for schema public/);
    } finally {
      await Promise.all(Object.values(pools).map((p) => p.destroy()));
    }
  });
});
