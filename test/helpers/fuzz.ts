import http from "node:http";
import fc from "fast-check";
import { inject } from "vitest";

// Building blocks of the fuzz suite (test/integration/shared/fuzz.test.ts, docs/testing.md#fuzz-suite):
// a raw HTTP sender that sends paths exactly as written (fetch would resolve dot segments and
// refuses TRACE), hostile values, and the judges of an answer.

export type Raw = { status: number; headers: http.IncomingHttpHeaders; text: string; body: unknown };
export type Sent = { method: string; path: string; headers: Record<string, string>; body?: string };

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function send(req: Sent, retried = false): Promise<Raw> {
  const base = new URL(inject("baseUrl"));
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: base.hostname, port: base.port, method: req.method, path: req.path, headers: req.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode!, headers: res.headers, text, body });
        });
      },
    );
    // A kept-alive socket the service closed (its keep-alive timeout) just as this request went out
    // on it: the request never reached the service, so it is sent again once, on a new socket (the
    // retry Node's documentation gives for `reusedSocket`).
    r.on("error", (error: NodeJS.ErrnoException) =>
      !retried && r.reusedSocket && error.code === "ECONNRESET" ? send(req, true).then(resolve, reject) : reject(error),
    );
    r.end(req.body);
  });
}

/** A request line and headers as a reader can paste into curl: what a failure reports. */
export const describeSent = (req: Sent) =>
  `${req.method} ${req.path}\n${Object.entries(req.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join(
      "\n",
    )}\n\n${req.body === undefined ? "" : req.body.length > 600 ? `${req.body.slice(0, 600)}… (${req.body.length} chars)` : req.body}`;

// JSON text that JSON.stringify cannot write (1e309 is Infinity once parsed, -0 loses its sign,
// 2^53 + 1 is not a double, nesting thousands deep overflows the stack) goes in as raw text through
// a placeholder.
const RAW = "\u0001raw:";
const rawTexts: string[] = [];
const raw = (text: string) => {
  const at = rawTexts.indexOf(text);
  return `${RAW}${at >= 0 ? at : rawTexts.push(text) - 1}`;
};
export const toJsonText = (value: unknown) =>
  (JSON.stringify(value) ?? "").replace(/"\\u0001raw:(\d+)"/g, (_, i: string) => rawTexts[Number(i)]!);

const LIMIT_NUMBERS = [
  2 ** 53,
  -(2 ** 53),
  raw("9007199254740993"),
  raw("-9007199254740993"),
  1e308,
  -1e308,
  raw("1e309"),
  raw("-1e309"),
  raw("-0"),
  raw("1e-400"),
  2 ** 31,
  -(2 ** 31) - 1,
  0,
  -1,
  0.5,
  Number.MIN_VALUE,
  raw("123456789012345678901234567890"),
];

/** A body over the API's 1 MiB limit, by name (expandBody makes it when sending), so a failure report prints it short. */
export const OVERSIZED = "<a JSON body of 1.1 MB>";
export const expandBody = (body: string | undefined) =>
  body === OVERSIZED ? `{"label":"${"x".repeat(1_100_000)}"}` : body;

const CONTROL = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));
const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0007\b\f\n\r\t\u001b",
  "\u2028\u2029",
  "\ud800",
  "\uffff",
  "é",
  "😀",
  "NaN",
  "Infinity",
  "-0",
  "null",
  "true",
  "0x10",
  "1e308",
  "9007199254740993",
  "../../etc/passwd",
  "%00",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "${7*7}",
  "__proto__",
  "constructor",
  // Bad DateTimes (the API's form is yyyyMMdd'T'HHmmss+0000).
  "20260230T000000+0000",
  "99999999T999999+9999",
  "00000000T000000+0000",
  "2026-11-25T00:00:00Z",
  "+275760-09-13T00:00:01Z",
  "-271821-04-20T00:00:00Z",
  "20261125T000000",
  "20261125T246060+0000",
  "T+0000",
];

/** A string no one should have to accept: control characters, NUL, lone surrogates, sizes from 0 to 100,000, DateTimes that are not. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  {
    weight: 2,
    arbitrary: fc.string({ unit: fc.oneof(CONTROL, fc.string({ minLength: 1, maxLength: 1 })), maxLength: 40 }),
  },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom(300, 5_000).map((n) => "x".repeat(n)) },
  { weight: 1, arbitrary: fc.constant("9".repeat(256)) },
);

/** Strings of 100,000 and 900,000 characters and a 70,000-digit number, as placeholders (a failure report prints them short). */
const hugeValue: fc.Arbitrary<unknown> = fc.constantFrom(
  raw(JSON.stringify("x".repeat(100_000))),
  raw(JSON.stringify("é".repeat(450_000))),
  raw("9".repeat(70_000)),
);

const limitNumber: fc.Arbitrary<unknown> = fc.oneof(fc.constantFrom(...LIMIT_NUMBERS), fc.double(), fc.integer());

// Deep nesting around a NUL or a lone surrogate once answered 500 (the check that looks for them
// recursed past the stack) or held the process for half a minute.
const DEEP_LEAVES = ["1", '"\\u0000"', '"\\ud800"'];

/** Arrays or objects nested 2 to 100,000 deep around a number, a NUL or a lone surrogate; or 200 arrays 2,000 deep and a NUL (800 KB). */
const deepNesting: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .tuple(fc.constantFrom(2, 40, 64, 65, 1_000, 8_000, 100_000), fc.boolean(), fc.constantFrom(...DEEP_LEAVES))
      .map(([depth, arrays, leaf]) =>
        raw(
          arrays
            ? `${"[".repeat(depth)}${leaf}${"]".repeat(depth)}`
            : `${'{"a":'.repeat(depth)}${leaf}${"}".repeat(depth)}`,
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constant(
      raw(`[${Array.from({ length: 200 }, () => `${"[".repeat(2000)}${"]".repeat(2000)}`).join(",")},"\\u0000"]`),
    ),
  },
);

/** Any JSON value a hostile client might put where a field goes. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: limitNumber },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      [],
      {},
      [null],
      { "": "" },
      JSON.parse('{"__proto__":{"admin":true}}') as unknown,
      ["a", 1, null],
    ),
  },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: hugeValue },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
);

/** Paths of every node of a JSON value (member names and array indices). */
export function nodePaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = at.length > 0 ? [at] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => nodePaths(v, [...at, i]))];
  if (typeof value === "object" && value !== null)
    return [...here, ...Object.entries(value).flatMap(([k, v]) => nodePaths(v, [...at, k]))];
  return here;
}

/** A copy of `value` with the node at `path` replaced, or removed when replacement is undefined. */
export function replaced(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  if (replacement === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = replacement;
  return copy;
}

/** Text that is not the JSON it claims to be. */
export const malformedJson = fc.constantFrom(
  "",
  "{",
  "}",
  "[",
  '{"a":',
  "{'a':1}",
  '{"a":1,}',
  "[1,]",
  "NaN",
  "undefined",
  '{"a":1}{"b":2}',
  '"\\u00"',
  '"\\ud800"',
  "\u0000",
  "\ufeff{}",
  "nul",
  "1e309",
  "-",
  "{".repeat(100_000),
);

export const contentType = fc.constantFrom(
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/json; charset=latin1",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/merge-patch+json",
  "application/json\tx",
  "*/*",
  "",
);

/** A path segment in place of an id or a type: dot segments, encoded slashes, NUL, numbers at and past the limits, sizes. */
export const hostileSegment = fc.constantFrom(
  "",
  ".",
  "..",
  "%2e%2e",
  "%2E",
  ".%2e",
  "%2F",
  "a%2Fb",
  "..%2F..%2F",
  "%5C",
  "%00",
  "1%00",
  "%01",
  "%0A",
  "%ZZ",
  "%",
  "%C0%AE",
  "%ED%A0%80",
  "%E2%80%AE",
  "%F0%9F%98%80",
  "-1",
  "0",
  "-0",
  "1.5",
  "1e3",
  "0x1",
  "%201",
  "2147483648",
  "9007199254740992",
  "9007199254740993",
  "99999999999999999999999999",
  "NaN",
  "Infinity",
  "null",
  "undefined",
  "eventNotification",
  "eventSubscription",
  "TRIPSTART",
  "tripstart",
  "AUTHORIZATIONSTATUS",
  "x".repeat(2_000),
  "9".repeat(300),
);

/** Methods beyond those the routes know, and letter case Node passes as is. */
export const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("GET", "POST", "DELETE") },
  { weight: 2, arbitrary: fc.constantFrom("PUT", "PATCH", "HEAD", "OPTIONS") },
  {
    weight: 1,
    arbitrary: fc.constantFrom("TRACE", "PROPFIND", "MKCOL", "LINK", "PURGE", "CONNECTX", "SEARCH", "QUERY"),
  },
);

/** Percent-encoding of the UTF-8 bytes of `s` (a lone surrogate becomes U+FFFD; encodeURIComponent would throw). */
export const percentEncode = (s: string) =>
  [...Buffer.from(s, "utf8")]
    .map((b) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");

/** Printable text for a header value (Node refuses control characters in headers before sending). */
export const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]+/g, (c) => percentEncode(c)).slice(0, 8_000);

/** A query value: hostile text, percent-encoded so it arrives as written (NUL included). */
export const queryValue = fc.oneof(
  hostileString.map((s) => percentEncode(s.slice(0, 3_000))),
  fc.constantFrom(
    "%00",
    "%",
    "%ZZ",
    "%ED%A0%80",
    "%C0%AE",
    "-1",
    "0",
    "1e308",
    "9007199254740993",
    "true",
    "yes",
    "asc",
    "DESC",
    "",
    "a&b",
    "%26",
  ),
);

const ERROR_CODES = new Set([
  "VALIDATION",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "CANNOTPERSIST",
  "CURSOR_EXPIRED",
  "TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "RATE_LIMITED",
  "INTERNAL",
]);
const FIELD_CODES = new Set(["REQUIRED", "INVALID", "TOO_LONG", "UNIQUE"]);

/** What is wrong with an answer in the API's error shape (docs/api.md#errors), or null. */
export function apiErrorProblem(res: Raw): string | null {
  const body = res.body as { error?: Record<string, unknown> } | undefined;
  if (!body || typeof body !== "object" || Object.keys(body).join() !== "error") return "the body is not {error: …}";
  const e = body.error!;
  if (Object.keys(e).sort().join() !== "detail,errorCode,errorDisplay,fieldErrors,httpStatus")
    return `error members ${Object.keys(e).join()}`;
  if (e.httpStatus !== res.status) return `httpStatus ${String(e.httpStatus)} ≠ status ${res.status}`;
  if (!ERROR_CODES.has(e.errorCode as string)) return `unknown errorCode ${String(e.errorCode)}`;
  if (typeof e.detail !== "string" || !e.detail || typeof e.errorDisplay !== "string" || !e.errorDisplay)
    return "detail or errorDisplay not a non-empty string";
  if (!Array.isArray(e.fieldErrors)) return "fieldErrors is not an array";
  for (const f of e.fieldErrors as Record<string, unknown>[]) {
    if (
      Object.keys(f).sort().join() !== "errorCode,errorDisplay,fieldName" ||
      !FIELD_CODES.has(f.errorCode as string) ||
      typeof f.fieldName !== "string"
    )
      return `bad field error ${JSON.stringify(f)}`;
  }
  return null;
}

/** What is wrong with an API answer (success envelope or error body), or null. */
export function apiAnswerProblem(method: string, res: Raw): string | null {
  if (res.status >= 500) return `status ${res.status}`;
  if (method === "OPTIONS" && res.status === 204) return null;
  if (method === "HEAD") return res.text === "" ? null : "HEAD answered a body";
  if (!/^application\/json\b/.test(String(res.headers["content-type"])))
    return `content-type ${String(res.headers["content-type"])}`;
  if (res.status >= 400) return apiErrorProblem(res);
  const body = res.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== "object" || !Array.isArray(body.actions) || !("totalRecords" in body))
    return "a success without the envelope (totalRecords, actions)";
  return null;
}
