import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * How the console shows money (docs/console.md, "Money"): one row, set by an operator, read with
 * every console session. Two decimals and "credits" until an operator says otherwise.
 */
export const consoleMoneyFormat: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE console_settings (
        id int PRIMARY KEY CHECK (id = 1),
        money_decimals int NOT NULL DEFAULT 2 CHECK (money_decimals BETWEEN 0 AND 6),
        money_unit text NOT NULL DEFAULT 'credits' CHECK (length(money_unit) BETWEEN 1 AND 16),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      INSERT INTO console_settings (id) VALUES (1)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE console_settings`.execute(db);
  },
};
