import type { FieldError } from "@/common/http/errors";
import { toFieldErrors } from "@/common/http/zod-errors";
import { createPlaceBody, type NewPlace } from "./schemas";

// What a file's reader hands on: for each feature (GeoJSON) or placemark (KML), in file order,
// either the place it describes (still to be validated as any place is) or why it is none.

export type Candidate = { label: string; place: unknown } | { label: string; problem: string };

export type ParsedFile = { places: NewPlace[]; errors: FieldError[] };

/** A feature's label in messages: its name when it has one, else its number from 1. */
export const labelOf = (index: number, name: unknown) =>
  typeof name === "string" && name.trim() !== ""
    ? `Feature ${index + 1} (“${name.trim().slice(0, 60)}”)`
    : `Feature ${index + 1}`;

/** Each candidate validated like a place drawn on the map; errors named `features.<n>[.field]`. */
export function validateCandidates(candidates: Candidate[]): ParsedFile {
  const places: NewPlace[] = [];
  const errors: FieldError[] = [];
  candidates.forEach((c, i) => {
    const fieldName = `features.${i}`;
    if ("problem" in c) {
      errors.push({ fieldName, errorCode: "INVALID", errorDisplay: `${c.label}: ${c.problem}` });
      return;
    }
    const parsed = createPlaceBody.safeParse(c.place, { reportInput: true });
    if (parsed.success) places.push(parsed.data);
    else
      for (const e of toFieldErrors(parsed.error, ["features", i]))
        errors.push({
          ...e,
          errorDisplay: `${c.label}: ${e.fieldName.slice(fieldName.length + 1)}: ${e.errorDisplay}`,
        });
  });
  return { places, errors };
}

export const fileError = (display: string): ParsedFile => ({
  places: [],
  errors: [{ fieldName: "content", errorCode: "INVALID", errorDisplay: display }],
});
