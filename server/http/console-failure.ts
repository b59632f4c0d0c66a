import type { FieldError } from "@/common/http/errors";
import { apiErrorOf } from "./refusal";

// The one translation of the error type to what the console's forms and pages read: the status,
// a message for the form (`error`), and the fields to mark (`fieldErrors`, read by fieldName and
// errorDisplay). The console has no code table of its own: a refusal keeps its status (400 bad
// fields, 401 no session, 403 a cross-site or expired form, 404 not yours, 409 a state that
// forbids it, 415 not form data); anything else is our fault, said without its details, and
// logged once by apiErrorOf, as every wrapper logs (a database outage as one warn line, answered
// with Retry-After).

export type ConsoleFailure = {
  status: number;
  body: { error: string; fieldErrors: FieldError[] };
  headers: Record<string, string>;
};

export const somethingWentWrong = "Something went wrong on our side. Try again.";

/** `where` names the wrapper in the log line of an unexpected error. */
export function consoleFailure(error: unknown, where: string): ConsoleFailure {
  const answered = apiErrorOf(error, where);
  if (answered.status < 500)
    return {
      status: answered.status,
      body: { error: answered.detail, fieldErrors: answered.fieldErrors },
      headers: answered.headers,
    };
  return { status: 500, body: { error: somethingWentWrong, fieldErrors: [] }, headers: answered.headers };
}
