import { validationError } from "./errors";

type Node = { value: unknown; key: string | number; parent: Node | null; named: boolean };

/**
 * The path of the first string in a parsed input (JSON body, query, path params, form fields)
 * that is `bad`, key or value, or undefined. PostgreSQL stores no 0x00 in text or jsonb, and jsonb
 * refuses an unpaired surrogate escape (\ud800), so such a value can never be saved or looked up:
 * it is refused as INVALID before anything reads it.
 *
 * A walk with a stack of its own, in document order, each node visited once and the path built
 * only for the node found: linear in the input's size and safe at any depth (a recursive walk
 * that copied the path at every level took half a minute over a 1 MiB body nested 2,000 deep).
 */
function pathWhere(value: unknown, bad: (s: string) => boolean): (string | number)[] | undefined {
  const stack: Node[] = [{ value, key: "", parent: null, named: false }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if ((node.named && bad(node.key as string)) || (typeof node.value === "string" && bad(node.value)))
      return pathOf(node);
    if (Array.isArray(node.value)) {
      for (let i = node.value.length - 1; i >= 0; i--)
        stack.push({ value: node.value[i], key: i, parent: node, named: false });
    } else if (typeof node.value === "object" && node.value !== null) {
      const entries = Object.entries(node.value);
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ value: entries[i]![1], key: entries[i]![0], parent: node, named: true });
    }
  }
  return undefined;
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Node | null = node; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

const nulPath = (value: unknown) => pathWhere(value, (s) => s.includes("\u0000"));

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** 400 VALIDATION naming the first field that holds an unpaired UTF-16 surrogate (only a JSON escape can carry one), if any. */
export function refuseUnpairedSurrogate(value: unknown, what: string): void {
  const path = pathWhere(value, (s) => UNPAIRED_SURROGATE.test(s));
  if (!path) return;
  const fieldName =
    path.map((p) => String(p).replace(new RegExp(UNPAIRED_SURROGATE, "g"), "\uFFFD")).join(".") || "body";
  throw validationError(
    [
      {
        fieldName,
        errorCode: "INVALID",
        errorDisplay: `${fieldName} must not contain an unpaired surrogate (\\uD800–\\uDFFF), which is no character.`,
      },
    ],
    `The ${what} has invalid fields.`,
  );
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
  throw validationError(
    [{ fieldName, errorCode: "INVALID", errorDisplay: `${fieldName} must not contain the NUL character (U+0000).` }],
    `The ${what} has invalid fields.`,
  );
}
