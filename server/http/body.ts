import { ApiError } from "@/common/http/errors";
import { refuseNul, refuseUnpairedSurrogate } from "@/common/http/nul";
import { MAX_JSON_NESTING, nestsDeeperThan } from "./json-nesting";

export const MAX_BODY_BYTES = 1024 * 1024;

const isJsonType = (contentType: string | null) => {
  const mime = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return mime === "application/json" || /^application\/[\w.+-]+\+json$/.test(mime);
};

// Reads a JSON body: 415 for another content type, 413 past 1 MiB (counted as it streams, so a
// lying Content-Length cannot get more through), 400 for arrays and objects nested deeper than
// 64 levels, 400 for malformed JSON, and 400 naming the first string (member name or value)
// holding U+0000, which PostgreSQL cannot store.
export async function readJsonBody(request: Request): Promise<unknown> {
  if (!isJsonType(request.headers.get("content-type"))) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON (Content-Type: application/json).");
  }
  const length = request.headers.get("content-length");
  const declared = Number(length ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  // Node's parser delivers exactly Content-Length bytes, so a declared body within the limit is
  // read whole; only a chunked one is counted as it streams.
  if (length !== null) return parseJson(await request.text());

  return parseJson(await readBodyText(request, MAX_BODY_BYTES, tooLarge));
}

/**
 * A body as text, counted as it streams: past `maxBytes` the read stops and `tooLarge` is thrown
 * with `Connection: close`. The cancelled rest of the body stays unread on the connection, and a
 * kept-alive next request would hang behind it: the client must close it. (A body refused by its
 * Content-Length before reading is drained by Node, so that connection stays usable.)
 */
export async function readBodyText(
  request: Request,
  maxBytes: number,
  tooLarge: (headers: Record<string, string>) => Error,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge({ Connection: "close" });
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string): unknown {
  // Measured on the raw text before anything parses or walks it (docs/api.md#request-bodies).
  if (nestsDeeperThan(text, MAX_JSON_NESTING)) throw tooDeep();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("VALIDATION", "The request body is not valid JSON.", [
      { fieldName: "body", errorCode: "INVALID", errorDisplay: "The request body is not valid JSON." },
    ]);
  }
  // JSON can carry U+0000 only as the escape \u0000: a text without it needs no walk (ingest's
  // batches of 500 data sets pass here).
  if (text.includes("\\u0000")) refuseNul(parsed, "request body");
  // Likewise an unpaired surrogate only as an escape (\ud800 to \udfff); a text without one needs no walk.
  if (/\\u[dD][89a-fA-F]/.test(text)) refuseUnpairedSurrogate(parsed, "request body");
  return parsed;
}

const tooDeep = () => {
  const display = `The request body nests arrays and objects deeper than ${MAX_JSON_NESTING} levels.`;
  return new ApiError("VALIDATION", display, [{ fieldName: "body", errorCode: "INVALID", errorDisplay: display }]);
};

const tooLarge = (headers: Record<string, string> = {}) =>
  new ApiError("TOO_LARGE", `The request body is larger than ${MAX_BODY_BYTES} bytes.`, [], headers);
