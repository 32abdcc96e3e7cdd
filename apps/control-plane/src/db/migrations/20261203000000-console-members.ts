import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * The console's people (docs/console.md): members of an organization with a role (admin, billing,
 * viewer), and one-time sign-in links minted for them — stored as the SHA-256 of the token, used at
 * most once, 15 minutes at most — and the sessions a redeemed link starts (server-side: the browser
 * holds only the token, the control-plane its SHA-256, an absolute expiry and the last time it was
 * used, for the idle expiry). A removed member keeps its row (removed_at) so what it did stays
 * attributable; its sessions end with it.
 */
export const consoleMembers: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE console_members (
        id text PRIMARY KEY,
        org_id text NOT NULL REFERENCES organizations (id),
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('admin', 'billing', 'viewer')),
        created_at timestamptz NOT NULL DEFAULT now(),
        removed_at timestamptz
      );
      CREATE UNIQUE INDEX console_members_org_email ON console_members (org_id, lower(email));
      CREATE TABLE console_signin_links (
        token_hash text PRIMARY KEY,
        member_id text NOT NULL REFERENCES console_members (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE TABLE console_sessions (
        token_hash text PRIMARY KEY,
        member_id text NOT NULL REFERENCES console_members (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        ended_at timestamptz
      );
      CREATE INDEX console_sessions_member ON console_sessions (member_id);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE console_sessions, console_signin_links, console_members`.execute(db);
  },
};
