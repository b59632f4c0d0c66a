import { validationError } from "./errors";

/**
 * The path of the first string in a parsed input (JSON body, query, path params, form fields)
 * that is `bad`, key or value, or undefined. PostgreSQL stores no 0x00 in text or jsonb, and jsonb
 * refuses an unpaired surrogate escape (\ud800), so such a value can never be saved or looked up:
 * it is refused as INVALID before anything reads it.
 */
function pathWhere(value: unknown, bad: (s: string) => boolean, at: (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value === "string") return bad(value) ? at : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = pathWhere(value[i], bad, [...at, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      if (bad(key)) return [...at, key];
      const found = pathWhere(member, bad, [...at, key]);
      if (found) return found;
    }
  }
  return undefined;
}

const nulPath = (value: unknown) => pathWhere(value, (s) => s.includes("\u0000"));

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** 400 VALIDATION naming the first field that holds an unpaired UTF-16 surrogate (only a JSON escape can carry one), if any. */
export function refuseUnpairedSurrogate(value: unknown, what: string): void {
  const path = pathWhere(value, (s) => UNPAIRED_SURROGATE.test(s));
  if (!path) return;
  const fieldName = path.map((p) => String(p).replace(new RegExp(UNPAIRED_SURROGATE, "g"), "\uFFFD")).join(".") || "body";
  throw validationError([{ fieldName, errorCode: "INVALID", errorDisplay: `${fieldName} must not contain an unpaired surrogate (\\uD800–\\uDFFF), which is no character.` }], `The ${what} has invalid fields.`);
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
