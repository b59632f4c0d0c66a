import type { FieldError } from "@/common/http/errors";

// What a console action refuses: bad input per field (shown inline, 400), or something the
// partner may not see (404, never saying whether it exists), or a state that forbids it (409).
export class ConsoleError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
  }
}

export const notOwned = (what = "app") => new ConsoleError(404, `No such ${what} in your console.`);
export const fieldError = (fieldName: string, errorDisplay: string) => new ConsoleError(400, "Check the highlighted fields.", [{ fieldName, errorCode: "INVALID", errorDisplay }]);
