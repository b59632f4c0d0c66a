import { withDriver, otherMethods, pathId } from "@/server/http/with-driver";
import { endDriverShare } from "@/server/surfaces/driver/shares";

// DELETE /me/vehicles/{id}/shares/{shareId} — end the link now: its page answers 410, open pages show it ended
export const DELETE = withDriver(
  async ({ session, params }) => {
    await endDriverShare(session, pathId(params.vehicleId, "vehicle"), pathId(params.shareId, "shared link"));
    return { ended: true };
  },
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the method above
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
