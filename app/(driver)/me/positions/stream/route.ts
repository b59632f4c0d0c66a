import { liveEventsResponse, liveHolders } from "@/server/http/live-events";
import { withDriver, otherMethods } from "@/server/http/with-driver";
import { openPositionStream } from "@/server/surfaces/driver/position-stream";

export const dynamic = "force-dynamic";

// GET /me/positions/stream — the signed-in driver's vehicles as Server-Sent Events, sent again
// whenever one moves (the map listens; /me/positions is its fallback)
export const GET = withDriver(
  ({ session, request }) =>
    liveEventsResponse(request, liveHolders.driver(session.accountId), (out) => openPositionStream(session, out)),
  { write: false },
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
