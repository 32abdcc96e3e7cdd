import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * The catalog's price sheets the ledger has read (one per catalog version, as the control-plane
 * published it), kept so that an event is checked against the same prices years later; and the
 * reasons a usage event is set aside or capped for its cost (docs/security.md, "Usage events").
 */
export const catalogPrices: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE catalog_prices (
        version bigint PRIMARY KEY,
        sheet jsonb NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      );
      ALTER TABLE dead_letters DROP CONSTRAINT dead_letters_reason_check;
      ALTER TABLE dead_letters ADD CONSTRAINT dead_letters_reason_check CHECK (reason IN ('invalid', 'rejected', 'unsigned', 'forged', 'mispriced', 'unpriced', 'capped'));
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`
      DROP TABLE catalog_prices;
      DELETE FROM dead_letters WHERE reason IN ('mispriced', 'unpriced', 'capped');
      ALTER TABLE dead_letters DROP CONSTRAINT dead_letters_reason_check;
      ALTER TABLE dead_letters ADD CONSTRAINT dead_letters_reason_check CHECK (reason IN ('invalid', 'rejected', 'unsigned', 'forged'));
    `.execute(db);
  },
};
