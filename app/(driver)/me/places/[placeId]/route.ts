import { withDriver, otherMethods, pathId } from "@/server/http/with-driver";
import { editDriverPlace, removeDriverPlace } from "@/server/surfaces/driver/places";

// PATCH /me/places/{id} — rename the place, or give it a new shape (drawn again on the map)
export const PATCH = withDriver(
  async ({ session, params, body }) => ({
    place: await editDriverPlace(session, pathId(params.placeId, "place"), await body()),
  }),
  { write: true },
);

// DELETE /me/places/{id} — delete the place
export const DELETE = withDriver(
  async ({ session, params }) => {
    await removeDriverPlace(session, pathId(params.placeId, "place"));
    return { result: "OK" };
  },
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { GET, POST, PUT, OPTIONS } = otherMethods({ PATCH, DELETE });
