import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "@/common/http/errors";
import { JSON_PATH, OAUTH_ENDPOINT } from "./before-next";
import { errorBody } from "./error-body";

// A request names one host (RFC 9110 §7.2; RFC 9112 §3.2: a request with more than one Host
// field line gets 400). Node.js keeps the first of several and hands the request on, so a proxy
// in front that reads the last one and this service would each see another host. Refused before
// anything else, in the body the path's callers read: the API's error body on the API and the
// driver site's JSON routes, RFC 6749's at the token and revocation endpoints, text elsewhere.

const DETAIL = "The request has more than one Host header.";

/** Answers 400 to a request with more than one Host header; false when it has at most one. */
export function answerDuplicateHost(req: IncomingMessage, res: ServerResponse): boolean {
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === "host") hosts++;
  if (hosts <= 1) return false;
  const path = (req.url ?? "/").split("?")[0]!;
  const headers = { "Cache-Control": "no-store", Connection: "close" };
  if (OAUTH_ENDPOINT.test(path)) {
    res.writeHead(400, { ...headers, "Content-Type": "application/json", Pragma: "no-cache" });
    res.end(JSON.stringify({ error: "invalid_request", error_description: DETAIL }));
  } else if (JSON_PATH.test(path)) {
    res.writeHead(400, { ...headers, "Content-Type": "application/json" });
    res.end(
      JSON.stringify(
        errorBody(
          new ApiError("VALIDATION", DETAIL, [{ fieldName: "Host", errorCode: "INVALID", errorDisplay: DETAIL }]),
        ),
      ),
    );
  } else {
    res.writeHead(400, { ...headers, "Content-Type": "text/plain; charset=utf-8" });
    res.end(DETAIL);
  }
  return true;
}
