import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, migrate, sql, type Kysely, type Migration } from "@gateway/db";
import { createDatabase, testPgUrl } from "@gateway/testing";

/**
 * During a rolling upgrade or a rollback, a replica of the older release starts against a schema the
 * newer one already migrated: it must start (migrations are additive), not refuse the schema.
 */
let db: Kysely<unknown>;

const table = (name: string): Migration => ({
  up: async (d) => void (await sql`CREATE TABLE ${sql.id("mig", name)} (id int)`.execute(d)),
});
const release1 = { "0001-a": table("a") };
const release2 = { ...release1, "0002-b": table("b") };

beforeAll(async () => {
  db = createDb({ url: await createDatabase(testPgUrl(), "migrations_compat"), schema: "mig", poolMax: 2 }) as Kysely<unknown>;
});
afterAll(async () => {
  await db?.destroy();
});

describe("migrations across releases", () => {
  it("lets the older release start on the newer schema, migrates an older schema forward, and refuses a schema that lacks its own", async () => {
    await migrate(db, "mig", release1);
    await migrate(db, "mig", release2);
    // The previous release again (a rollback, or an old pod restarting mid-upgrade): starts as is.
    await expect(migrate(db, "mig", release1)).resolves.toBeUndefined();
    const names = (await sql<{ name: string }>`SELECT name FROM mig.kysely_migration ORDER BY name`.execute(db)).rows.map((r) => r.name);
    expect(names).toEqual(["0001-a", "0002-b"]);
    // A schema from another lineage (one of ours never ran) is not guessed at.
    await expect(migrate(db, "mig", { "0001-x": table("x") })).rejects.toThrow(/lacks some of its own/);
  });
});
