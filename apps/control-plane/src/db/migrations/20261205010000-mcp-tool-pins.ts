import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Pinned MCP tool definitions (docs/mcp.md, "Pinned definitions"): the definition (description,
 * schemas, annotations) of each offered tool as first approved — the first one the gateway saw
 * (trust on first use), or one an operator approved since — and a changed definition an upstream
 * now serves, pending until an operator approves it (`gatewayctl mcp approve`). Callers keep
 * getting the approved definition, and calls are refused while a change is pending.
 */
export const mcpToolPins: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE mcp_tool_pins (
        server text NOT NULL REFERENCES mcp_servers (name) ON DELETE CASCADE,
        tool text NOT NULL,
        definition jsonb NOT NULL,
        digest text NOT NULL,
        approved_at timestamptz NOT NULL DEFAULT now(),
        approved_by text NOT NULL,
        pending_definition jsonb,
        pending_digest text,
        pending_since timestamptz,
        PRIMARY KEY (server, tool)
      );
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE mcp_tool_pins`.execute(db);
  },
};
