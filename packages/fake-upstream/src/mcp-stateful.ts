import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** Sessions kept at most; the oldest is forgotten beyond (a fake: bounded all the same). */
const MAX_SESSIONS = 1_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  /** What `remember` stored in this session. */
  notes: string[];
}

/**
 * A stateful fake MCP server at `/mcp-stateful` (official SDK, Streamable HTTP with session ids), for
 * what a server that keeps state per session does: `remember` stores a note in the caller's
 * session, `recall` answers the session's notes. A gateway that shared one upstream session between
 * organizations would let one recall another's notes (docs/mcp.md, "Upstream sessions"). DELETE ends
 * a session; `GET /_fake/mcp-stateful/sessions` lists the live session ids.
 */
export class StatefulMcp {
  private readonly sessions = new Map<string, Session>();

  async handle(req: IncomingMessage, res: ServerResponse, path: string, body: unknown): Promise<boolean> {
    if (path === "/_fake/mcp-stateful/sessions") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([...this.sessions.keys()]));
      return true;
    }
    if (path !== "/mcp-stateful") return false;
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? this.sessions.get(id) : undefined;
    if (known) {
      await known.transport.handleRequest(req, res, body);
      if (req.method === "DELETE") this.sessions.delete(id as string);
      return true;
    }
    if (req.method !== "POST" || typeof id === "string" || !isInitializeRequest(body)) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}');
      return true;
    }
    const session: Session = {
      notes: [],
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
          this.sessions.set(sid, session);
        },
      }),
    };
    const mcp = new McpServer({ name: "fake-mcp-stateful", version: "1.0.0" });
    mcp.registerTool("remember", { description: "Stores a note in this session.", inputSchema: { note: z.string() } }, async ({ note }) => {
      session.notes.push(note);
      return { content: [{ type: "text", text: `remembered ${session.notes.length}` }] };
    });
    mcp.registerTool("recall", { description: "Answers the notes stored in this session.", inputSchema: {} }, async () => ({
      content: [{ type: "text", text: JSON.stringify(session.notes) }],
    }));
    await mcp.connect(session.transport);
    await session.transport.handleRequest(req, res, body);
    return true;
  }
}
