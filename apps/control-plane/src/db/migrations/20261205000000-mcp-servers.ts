import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * MCP servers in the catalog (docs/mcp.md), beside providers and models: the upstream's URL, a
 * credential reference, and the tools it exposes through the gateway with an optional price per
 * call (`tools`: [{name, price_minor}]); enabled per organization like models.
 */
export const mcpServers: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE mcp_servers (
        name text PRIMARY KEY,
        url text NOT NULL,
        credential_ref text NOT NULL DEFAULT '',
        auth_header text NOT NULL DEFAULT '',
        tools jsonb NOT NULL DEFAULT '[]',
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE org_mcp_servers (
        org_id text NOT NULL REFERENCES organizations (id),
        server text NOT NULL REFERENCES mcp_servers (name) ON DELETE CASCADE,
        PRIMARY KEY (org_id, server)
      );
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE org_mcp_servers, mcp_servers`.execute(db);
  },
};
