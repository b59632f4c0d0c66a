/**
 * How deep a request body's arrays and objects may nest (docs/api.md#request-bodies). No body of
 * the API needs more than a handful of levels; the limit keeps everything that walks a parsed
 * body (the NUL and surrogate checks, zod, the domain) far from the call stack's end.
 */
export const MAX_JSON_NESTING = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }

/**
 * Whether JSON text opens more than `max` arrays or objects inside one another, decided by one
 * pass over the raw text (brackets inside strings do not count), before anything parses or walks
 * it: linear in the text's length, no recursion, whatever the text holds. Malformed text is
 * measured the same way; JSON.parse judges it afterwards.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (OPEN.has(c)) {
      if (++depth > max) return true;
    } else if (CLOSE.has(c)) depth--;
  }
  return false;
}
