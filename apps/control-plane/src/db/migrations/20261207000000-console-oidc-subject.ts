import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * A console member's OpenID Connect account: the issuer and subject of the first sign-in by single
 * sign-on, which later sign-ins must match (OpenID Connect Core 5.7: the email address is not a
 * stable identifier; an issuer may give an address to someone else). Empty until that first sign-in.
 */
export const consoleOidcSubject: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE console_members ADD COLUMN oidc_issuer text, ADD COLUMN oidc_subject text`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE console_members DROP COLUMN oidc_issuer, DROP COLUMN oidc_subject`.execute(db);
  },
};
