// Whether a thrown value says that the database cannot be reached now (stopped, restarting,
// crashed, out of connection slots, or this process's pool closing) rather than that a statement
// failed. The API answers those 500 INTERNAL with Retry-After, and readiness reports
// "unavailable" (docs/operations.md#a-database-restart). drizzle wraps the driver's error in
// `cause`, so the chain is followed.

/** Errors of the connection itself: the socket's (Node) and postgres.js's own. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
]);

/**
 * SQLSTATEs of a server going away or not taking connections: admin_shutdown (57P01, a stop or
 * pg_terminate_backend), crash_shutdown (57P02), cannot_connect_now (57P03, starting up or in
 * recovery), too_many_connections (53300); and class 08, connection exceptions.
 */
const SERVER_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);

/** The code that makes `error` a database outage, or null when it is something else. */
export function databaseUnavailable(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === "string" &&
      (CONNECTION_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
    )
      return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
