import { sql, type Kysely, type Migration } from "@gateway/db";

/** What each usage record's cost is made of: [{item, quantity, unit_price_minor, per, attributes?}]. */
export const lineItems: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE usage_records ADD COLUMN line_items jsonb NOT NULL DEFAULT '[]'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE usage_records DROP COLUMN line_items`.execute(db);
  },
};
