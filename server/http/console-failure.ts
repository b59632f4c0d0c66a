import type { FieldError } from "@/common/http/errors";
import { isRefusal } from "./refusal";

// The one translation of the error type to what the console's forms and pages read: the status,
// a message for the form (`error`), and the fields to mark (`fieldErrors`, read by fieldName and
// errorDisplay). The console has no code table of its own: a refusal keeps its status (400 bad
// fields, 401 no session, 403 a cross-site or expired form, 404 not yours, 409 a state that
// forbids it, 415 not form data); anything else is our fault, said without its details (the
// wrapper logs it).

export type ConsoleFailure = { status: number; body: { error: string; fieldErrors: FieldError[] } };

export const somethingWentWrong = "Something went wrong on our side. Try again.";

export function consoleFailure(error: unknown): ConsoleFailure {
  if (isRefusal(error)) return { status: error.status, body: { error: error.detail, fieldErrors: error.fieldErrors } };
  return { status: 500, body: { error: somethingWentWrong, fieldErrors: [] } };
}
