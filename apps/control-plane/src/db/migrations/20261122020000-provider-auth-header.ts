import { sql, type Kysely, type Migration } from "@gateway/db";

/** Header an openai-compatible provider takes its credential in ('' = Authorization: Bearer). */
export const providerAuthHeader: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE providers ADD COLUMN auth_header text NOT NULL DEFAULT ''`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE providers DROP COLUMN auth_header`.execute(db);
  },
};
