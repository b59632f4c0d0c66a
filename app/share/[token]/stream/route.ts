import { otherMethods } from "@/server/http/with-driver";
import { liveEventsResponse, liveHolders } from "@/server/http/live-events";
import { withApiErrors } from "@/server/http/with-api-errors";
import { openShareStream } from "@/server/sharing/live-feed";
import { resolveShare } from "@/server/sharing/service";

export const dynamic = "force-dynamic";

// GET /share/{token}/stream — a shared location as Server-Sent Events (`event: share`), sent again
// whenever the vehicle moves or pauses, and `{"state":"ended"}` when the link ends; 404 for an
// unknown token, 410 once the link ended
export const GET = withApiErrors<{ token: string }>(async (request, { token }) => {
  const share = await resolveShare(token);
  return liveEventsResponse(request, liveHolders.share(share.linkId), (out) => openShareStream(share, out));
});

// Any other method: 405 in the API's error body, with Allow naming the method above
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
