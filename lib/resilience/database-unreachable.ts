/**
 * Codes of a database that cannot be reached or went away, as opposed to a
 * statement that failed: node's socket errors, postgres.js's connection
 * errors, and PostgreSQL's own (class 08, connection exception, is matched
 * by its prefix). A request that meets one is answered 503 and retried, a
 * worker waits it out; anything else is a bug or a bad request.
 */
const UNREACHABLE_CODES = new Set([
  // node: the socket
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  // postgres.js: the connection
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  // PostgreSQL: the server
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or shutting down
  "57P04", // database_dropped
  "57P05", // idle_session_timeout
  "53300", // too_many_connections
  "3D000", // invalid_catalog_name: the database does not exist (yet)
]);

/** Past this depth a chain of causes is a loop or not a driver's error. */
const MAX_CAUSES = 8;

/**
 * The error itself, or the first of its causes, that carries a string `code`:
 * drizzle wraps the driver's error (DrizzleQueryError) with it in `cause`.
 */
export function codedError(error: unknown): { code: string } | undefined {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSES && typeof current === "object" && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "string") return current as { code: string };
    if (cause === current) break;
    current = cause;
  }
  return undefined;
}

/** Whether `error` says the database is unreachable (down, restarting, refusing connections), not the query wrong. */
export function isDatabaseUnreachable(error: unknown): boolean {
  const code = codedError(error)?.code;
  return code !== undefined && (UNREACHABLE_CODES.has(code) || code.startsWith("08"));
}
