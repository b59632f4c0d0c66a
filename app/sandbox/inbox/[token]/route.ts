import { ApiError } from "@/common/http/errors";
import { readBodyText } from "@/server/http/body";
import { notAllowedExcept } from "@/server/http/method-not-allowed";
import { withApiErrors } from "@/server/http/with-api-errors";
import { isTokenShape } from "@/server/inbox/address";
import { INBOX_MAX_BODY_BYTES, receiveInboxRequest } from "@/server/inbox/receive";
import { CLIENT_ADDRESS_HEADER } from "@/server/platform/request/client-address";

// POST /sandbox/inbox/{token} — an app's sandbox inbox: stores the request (the last 100 are kept) and
// answers 200, or the 500 / 401 the partner chose in the console. Any body up to 256 KiB, as text,
// counted as it streams; the answer is whatever the inbox is set to answer.

async function readBody(request: Request): Promise<string> {
  if (Number(request.headers.get("content-length") ?? "0") > INBOX_MAX_BODY_BYTES) throw tooLarge();
  // PostgreSQL text cannot hold U+0000; the inbox shows what arrived, so it keeps a visible mark instead.
  return (await readBodyText(request, INBOX_MAX_BODY_BYTES, tooLarge)).replaceAll("\0", "\uFFFD");
}

const tooLarge = (headers: Record<string, string> = {}) =>
  new ApiError("TOO_LARGE", `The sandbox inbox keeps bodies of at most ${INBOX_MAX_BODY_BYTES} bytes.`, [], headers);

export const POST = withApiErrors<{ token: string }>(async (request, { token }) => {
  if (!isTokenShape(token)) throw new ApiError("NOT_FOUND", "No such sandbox inbox.");
  const body = await readBody(request);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    const key = name.toLowerCase();
    // Our own plumbing (the client address npm start stamps) is not what the sender sent; a
    // browser's cookies for this site are never kept.
    if (key === CLIENT_ADDRESS_HEADER) return;
    headers[key] = key === "cookie" ? "(not stored)" : value.replaceAll("\0", "\uFFFD");
  });
  const answer = await receiveInboxRequest({ token, method: request.method, headers, body });
  if (answer.status === 404) throw new ApiError("NOT_FOUND", "No such sandbox inbox.");
  return new Response(answer.body, {
    status: answer.status,
    headers: { ...answer.headers, "cache-control": "no-store" },
  });
});

export const GET = notAllowedExcept("POST");
export const PUT = notAllowedExcept("POST");
export const PATCH = notAllowedExcept("POST");
export const DELETE = notAllowedExcept("POST");
