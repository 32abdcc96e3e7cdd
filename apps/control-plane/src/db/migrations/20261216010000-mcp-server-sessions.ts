import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * How the data-plane keeps upstream MCP sessions for a server (docs/mcp.md, "Upstream sessions"):
 * one per organization (`org`, the default) or per API key (`key`, a server that keeps per-user
 * state); a header that tells the upstream who calls; and a credential per organization (org id →
 * credential ref; the others use `credential_ref`). Columns with defaults: nothing is rewritten.
 */
export const mcpServerSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE mcp_servers ADD COLUMN session_scope text NOT NULL DEFAULT 'org' CHECK (session_scope IN ('org', 'key'));
      ALTER TABLE mcp_servers ADD COLUMN identity_header text NOT NULL DEFAULT '';
      ALTER TABLE mcp_servers ADD COLUMN org_credential_refs jsonb NOT NULL DEFAULT '{}';
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE mcp_servers DROP COLUMN session_scope, DROP COLUMN identity_header, DROP COLUMN org_credential_refs`.execute(db);
  },
};
