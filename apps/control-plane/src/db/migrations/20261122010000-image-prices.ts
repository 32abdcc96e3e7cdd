import { sql, type Kysely, type Migration } from "@gateway/db";

/** Per-image prices of image models: [{size, quality, price_minor}], minor credit units. */
export const imagePrices: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE models ADD COLUMN image_prices jsonb NOT NULL DEFAULT '[]'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE models DROP COLUMN image_prices`.execute(db);
  },
};
