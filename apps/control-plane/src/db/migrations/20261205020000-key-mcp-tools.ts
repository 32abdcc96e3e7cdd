import { sql, type Kysely, type Migration } from "@gateway/db";

/** A key's MCP tool allowlist (docs/mcp.md): `server/tool` or `server/*` entries; empty = every tool its organization may use. */
export const keyMcpTools: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE api_keys ADD COLUMN mcp_tools text[] NOT NULL DEFAULT '{}'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE api_keys DROP COLUMN mcp_tools`.execute(db);
  },
};
