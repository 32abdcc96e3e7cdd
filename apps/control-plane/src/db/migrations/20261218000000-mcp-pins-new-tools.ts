import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Trust on first use, once per MCP server (docs/mcp.md, "Pinned definitions"). A server's first
 * report of its tools is its baseline: the names of every tool it listed then. A tool without an
 * approved definition is pinned on first use only when the server listed it in its baseline (an
 * operator offering a tool the server always had); any other tool new since — a rename, a removal
 * followed by another tool — waits for an operator's approval with no approved definition, so a
 * pin row may hold only a pending definition. Servers pinned before this have their pinned tools
 * as their baseline. Pins made before covered five fields (title, description, schemas,
 * annotations) while the gateway relayed every field: for 14 days (`five_fields_until`) such a pin,
 * served with those five unchanged and other fields beside them, is re-pinned with every field
 * without an approval (the other fields were relayed unpinned until now); after that, as any change.
 */
export const mcpPinsNewTools: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE mcp_tool_pins
        ALTER COLUMN definition DROP NOT NULL,
        ALTER COLUMN digest DROP NOT NULL,
        ALTER COLUMN approved_at DROP NOT NULL,
        ALTER COLUMN approved_by DROP NOT NULL,
        ADD CONSTRAINT mcp_tool_pins_approved_or_pending CHECK (
          (definition IS NULL) = (digest IS NULL) AND (digest IS NOT NULL OR pending_digest IS NOT NULL)
        ),
        ADD COLUMN five_fields_until timestamptz;
      UPDATE mcp_tool_pins SET five_fields_until = now() + interval '14 days';
      CREATE TABLE mcp_server_baselines (
        server text PRIMARY KEY REFERENCES mcp_servers (name) ON DELETE CASCADE,
        tools text[] NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      );
      INSERT INTO mcp_server_baselines (server, tools) SELECT server, array_agg(tool ORDER BY tool) FROM mcp_tool_pins GROUP BY server;
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`
      DROP TABLE mcp_server_baselines;
      DELETE FROM mcp_tool_pins WHERE digest IS NULL;
      ALTER TABLE mcp_tool_pins
        DROP CONSTRAINT mcp_tool_pins_approved_or_pending,
        DROP COLUMN five_fields_until,
        ALTER COLUMN definition SET NOT NULL,
        ALTER COLUMN digest SET NOT NULL,
        ALTER COLUMN approved_at SET NOT NULL,
        ALTER COLUMN approved_by SET NOT NULL;
    `.execute(db);
  },
};
