/** JSON-RPC pieces the MCP gateway's endpoint and its tool calls share. */

/** JSON-RPC error codes: the standard ones, and the gateway's (data.code names the gateway error). */
export const RPC = { invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, gateway: -32010 } as const;

export interface RpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}
export type RpcAnswer = { jsonrpc: "2.0"; id: unknown; result: unknown } | { jsonrpc: "2.0"; id: unknown; error: { code: number; message: string; data?: unknown } };

/** A JSON-RPC error the gateway answers (data.code names the gateway error). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
