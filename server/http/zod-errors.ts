import type { z } from "zod";
import { validationError, type ApiError, type FieldError } from "./errors";

// zod issues → the API's fieldErrors (REQUIRED, INVALID, TOO_LONG).
export function toFieldErrors(error: z.ZodError, prefix: (string | number)[] = []): FieldError[] {
  return error.issues.map((issue) => {
    const fieldName = [...prefix, ...issue.path].map(String).join(".") || "body";
    const missing = issue.code === "invalid_type" && (issue as { input?: unknown }).input === undefined;
    if (missing) return { fieldName, errorCode: "REQUIRED", errorDisplay: `${fieldName} is required.` };
    if (issue.code === "too_big" && issue.origin === "string") return { fieldName, errorCode: "TOO_LONG", errorDisplay: issue.message };
    return { fieldName, errorCode: "INVALID", errorDisplay: issue.message };
  });
}

export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, what: string): z.output<T> {
  // zod 4 leaves the offending value out of its issues unless asked; toFieldErrors needs it to
  // tell a missing field (REQUIRED) from one of the wrong type (INVALID), e.g. "firstName": 5.
  const parsed = schema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw invalidInput(parsed.error, what);
  return parsed.data;
}

function invalidInput(error: z.ZodError, what: string): ApiError {
  return validationError(toFieldErrors(error), `The ${what} has invalid fields.`);
}
