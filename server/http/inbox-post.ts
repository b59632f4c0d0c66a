import { ApiError } from "@/common/http/errors";
import { isTokenShape } from "@/server/inbox/address";
import { INBOX_MAX_BODY_BYTES, receiveInboxRequest } from "@/server/inbox/receive";
import { CLIENT_ADDRESS_HEADER } from "@/server/platform/request/client-address";
import { readBodyText } from "./body";
import { withApiErrors } from "./with-api-errors";

// The inbox's HTTP side (app/sandbox/inbox/[token]/route.ts): any body up to 256 KiB, as text,
// counted as it streams; the answer is whatever the inbox is set to answer.

async function readBody(request: Request): Promise<string> {
  if (Number(request.headers.get("content-length") ?? "0") > INBOX_MAX_BODY_BYTES) throw tooLarge();
  // PostgreSQL text cannot hold U+0000; the inbox shows what arrived, so it keeps a visible mark instead.
  return (await readBodyText(request, INBOX_MAX_BODY_BYTES, tooLarge)).replaceAll("\0", "\uFFFD");
}

const tooLarge = (headers: Record<string, string> = {}) =>
  new ApiError("TOO_LARGE", `The sandbox inbox keeps bodies of at most ${INBOX_MAX_BODY_BYTES} bytes.`, [], headers);

export const inboxPost = withApiErrors<{ token: string }>(async (request, { token }) => {
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
