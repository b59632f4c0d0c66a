import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "@/common/http/errors";
import { resolveShare } from "@/server/sharing/service";
import { plainPage } from "./plain-page";

// A shared location's page (/share/{token}) answers 410 once its link ended or expired, and 404 for
// a token no link has (docs/driver-site.md#share-a-live-location). A Next.js page can answer 200 or
// 404 but not 410, so npm start's server answers those two itself, before Next.js, as plain pages
// with no position (docs/decisions/0146-shared-page-gone-before-next.md); an active link's page is
// Next.js's, which counts the view.

const SHARE_PAGE = /^\/share\/([^/?]*)\/?$/;

const headers = {
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "no-referrer",
};

const GONE_HTML =
  "<p>This shared location has ended. The link no longer shows where the vehicle is.</p>" +
  "<p>Ask the driver for a new link if you still need one.</p>";
const UNKNOWN_HTML = "<p>There is no shared location at this address. Check that the link was copied whole.</p>";

/** A page answer for a link that ended or never was; null when the link is active (Next.js answers). */
async function sharePageRefusal(path: string): Promise<Response | null> {
  const match = SHARE_PAGE.exec(path);
  if (!match) return null;
  try {
    // A token is base64url: a segment that needs decoding is no token (resolveShare's 404).
    await resolveShare(match[1]!);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "GONE") return plainPage(410, "This shared location has ended", GONE_HTML, headers);
    if (error.code === "NOT_FOUND") return plainPage(404, "No such shared location", UNKNOWN_HTML, headers);
    throw error;
  }
}

/**
 * Answers GET or HEAD /share/{token} when its link is not active (true), else leaves it to Next.js
 * (false); any other request is false at once, with no database read and no wait.
 */
export function answerSharePage(req: IncomingMessage, res: ServerResponse): Promise<boolean> | false {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const path = (req.url ?? "/").split("?")[0]!;
  if (!SHARE_PAGE.test(path)) return false;
  return sharePageRefusal(path).then(async (answer) => {
    if (!answer) return false;
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(req.method === "HEAD" ? undefined : await answer.text());
    return true;
  });
}
