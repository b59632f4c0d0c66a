import type { z } from "zod";
import { validationError, type ApiError, type FieldError } from "./errors";

/**
 * Whether an issue is about a field that was not sent (docs/api.md#errors: REQUIRED). Whatever
 * the field's schema (a plain type: invalid_type; an enum or literal: invalid_value; a union such
 * as `numberish`: invalid_union), zod reports the value it found at the path, and a missing field
 * has none. A discriminated union is the exception: it reports its missing discriminator with the
 * whole object as the value. Needs the issues parsed with `reportInput` (parseOrThrow does so);
 * without the value nothing counts as missing.
 */
function isMissing(issue: z.core.$ZodIssue): boolean {
  if (!("input" in issue)) return false;
  if (issue.code === "invalid_union" && "discriminator" in issue && typeof issue.discriminator === "string") {
    const object = issue.input;
    return (
      typeof object === "object" &&
      object !== null &&
      (object as Record<string, unknown>)[issue.discriminator] === undefined
    );
  }
  return issue.input === undefined;
}

// zod issues → the API's fieldErrors (REQUIRED, INVALID, TOO_LONG).
export function toFieldErrors(error: z.ZodError, prefix: (string | number)[] = []): FieldError[] {
  return error.issues.map((issue) => {
    const fieldName = [...prefix, ...issue.path].map(String).join(".") || "body";
    if (isMissing(issue)) return { fieldName, errorCode: "REQUIRED", errorDisplay: `${fieldName} is required.` };
    if (issue.code === "too_big" && issue.origin === "string")
      return { fieldName, errorCode: "TOO_LONG", errorDisplay: issue.message };
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
