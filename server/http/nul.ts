import { validationError } from "./errors";

/**
 * The path of the first string in a parsed input (JSON body, query, path params, form fields)
 * that holds U+0000, key or value, or undefined. PostgreSQL stores no 0x00 in text or jsonb, so
 * such a value can never be saved or looked up: it is refused as INVALID before anything reads it.
 */
function nulPath(value: unknown, at: (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? at : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], [...at, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      if (key.includes("\u0000")) return [...at, key];
      const found = nulPath(member, [...at, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** The name of the first field that holds U+0000, as an error names it (a NUL in a name shown as \u0000), or undefined. */
export function nulField(value: unknown): string | undefined {
  const path = nulPath(value);
  return path && (path.map((p) => String(p).replaceAll("\u0000", "\\u0000")).join(".") || "body");
}

/** 400 VALIDATION naming the first field that holds U+0000 (docs/api.md#errors), if any. */
export function refuseNul(value: unknown, what: string): void {
  const fieldName = nulField(value);
  if (!fieldName) return;
  throw validationError([{ fieldName, errorCode: "INVALID", errorDisplay: `${fieldName} must not contain the NUL character (U+0000).` }], `The ${what} has invalid fields.`);
}
