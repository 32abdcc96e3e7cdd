import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";

/** int8 (bigint) as a JS number: every amount we store stays far below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => (oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text"))) as typeof pg.types.getTypeParser,
};

export interface DbOptions {
  url: string;
  /** The service's own schema; it is the connection's search_path. */
  schema: string;
  poolMax: number;
  /** Statement timeout, ms: no query may hang a request forever. */
  statementTimeoutMs?: number;
  /**
   * Send the search_path and the statement timeout as the connection's startup `options` (the
   * default). False: send none and rely on the role's own settings (`ALTER ROLE … SET search_path`,
   * `… SET statement_timeout`; deploy/postgres/roles.sql), because a transaction-mode pooler such
   * as PgBouncer refuses a connection that carries startup options.
   */
  startupOptions?: boolean;
  /**
   * Told about a pooled connection that broke outside a query (Postgres restarted under it). Such
   * an error never ends the process: the pool drops that connection and opens a new one when asked.
   */
  onConnectionError?: (err: Error) => void;
}

/** A kysely instance whose connections live in the service's schema. */
export function createDb<T>(o: DbOptions): Kysely<T> {
  const pool = new pg.Pool({
    connectionString: o.url,
    max: o.poolMax,
    types,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    ...(o.startupOptions === false ? {} : { options: `-c search_path=${o.schema} -c statement_timeout=${o.statementTimeoutMs ?? 10_000}` }),
  });
  // pg emits 'error' on a connection whose server went away, and on the pool too while it is idle;
  // an 'error' event nobody listens to ends the process. A checked-out connection has no pool
  // listener at all, so every connection gets one of its own for its whole life. Queries on it
  // fail by themselves and the pool discards it on release.
  pool.on("connect", (client) => client.on("error", (err) => o.onConnectionError?.(err)));
  pool.on("error", () => undefined); // already reported by the connection's own listener
  return new Kysely<T>({ dialect: new PostgresDialect({ pool }) });
}
