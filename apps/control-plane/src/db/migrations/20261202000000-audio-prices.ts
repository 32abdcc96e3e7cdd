import { sql, type Kysely, type Migration } from "@gateway/db";

/** Audio token prices per model (NULL = no audio: a request with audio input or output is a 400). */
export const audioPrices: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE models ADD COLUMN audio_input_price_minor_per_mtok bigint CHECK (audio_input_price_minor_per_mtok >= 0);
      ALTER TABLE models ADD COLUMN audio_output_price_minor_per_mtok bigint CHECK (audio_output_price_minor_per_mtok >= 0);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE models DROP COLUMN audio_input_price_minor_per_mtok, DROP COLUMN audio_output_price_minor_per_mtok`.execute(db);
  },
};
