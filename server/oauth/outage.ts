import { UNAVAILABLE_RETRY_SECONDS } from "@/common/http/errors";
import { databaseUnavailable } from "@/db/unavailable";
import { logger } from "@/server/platform/log";

// The token and revocation endpoints' answer while the database is out of reach (stopped,
// restarting): 503 with RFC 6749's temporarily_unavailable and a time to retry after, as the API
// answers 500 INTERNAL with Retry-After (docs/operations.md#a-database-restart). Null for any other error.
export function outageAnswer(error: unknown): Response | null {
  const outage = databaseUnavailable(error);
  if (!outage) return null;
  logger.warn({ cause: outage }, "database unavailable at an OAuth endpoint");
  return Response.json(
    { error: "temporarily_unavailable", error_description: "The service cannot reach its database right now. Retry in a moment." },
    { status: 503, headers: { "Cache-Control": "no-store", Pragma: "no-cache", "Retry-After": String(UNAVAILABLE_RETRY_SECONDS) } },
  );
}
