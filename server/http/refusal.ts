import { ApiError } from "@/common/http/errors";
import { logger } from "@/server/log";

// What a wrapper makes of whatever its handler threw. An error of the one type is a refusal,
// answered as it is; anything else is our fault: logged, with where it happened, and answered
// without its details.

/** A refusal that the console and the driver's form posts show as it is: the one type, below 500. */
export const isRefusal = (error: unknown): error is ApiError => error instanceof ApiError && error.status < 500;

/** What the API and the driver site answer for a thrown value: the error itself, or INTERNAL (logged). */
export function apiErrorOf(error: unknown, where: string): ApiError {
  if (error instanceof ApiError) return error;
  logger.error({ err: error }, `unexpected error in ${where}`);
  return new ApiError("INTERNAL", "An unexpected error occurred. It has been logged.");
}
