import { ApiError, UNAVAILABLE_RETRY_SECONDS } from "@/common/http/errors";
import { databaseUnavailable } from "@/db/unavailable";
import { logger } from "@/server/platform/log";

// What a wrapper makes of whatever its handler threw. An error of the one type is a refusal,
// answered as it is; the database out of reach (stopped, restarting) is an outage: the contract's
// 500 INTERNAL (its table is closed), with a time to retry after and one warn line instead of a
// stack (docs/operations.md#a-database-restart); anything else is our fault: logged, with where it
// happened, and answered without its details.

/** A refusal that the console and the driver's form posts show as it is: the one type, below 500. */
export const isRefusal = (error: unknown): error is ApiError => error instanceof ApiError && error.status < 500;

/** What the API and the driver site answer for a thrown value: the error itself, or INTERNAL (an outage with Retry-After; anything else logged). */
export function apiErrorOf(error: unknown, where: string): ApiError {
  if (error instanceof ApiError) return error;
  const outage = databaseUnavailable(error);
  if (outage) {
    // One line, not a stack: during an outage every request says the same.
    logger.warn({ cause: outage }, `database unavailable in ${where}`);
    return new ApiError("INTERNAL", "The service cannot reach its database right now. Retry in a moment.", [], {
      "Retry-After": String(UNAVAILABLE_RETRY_SECONDS),
    });
  }
  logger.error({ err: error }, `unexpected error in ${where}`);
  return new ApiError("INTERNAL", "An unexpected error occurred. It has been logged.");
}
