import { withDriver, otherMethods } from "@/server/http/with-driver";
import { addDriverPlace, driverPlaces } from "@/server/surfaces/driver/places";

// GET /me/places — the signed-in driver's places
export const GET = withDriver(async ({ session }) => ({ places: await driverPlaces(session) }), { write: false });

// POST /me/places — add a place ({"name", "shape": circle or polygon}; field errors when it is not one)
export const POST = withDriver(async ({ session, body }) => ({ place: await addDriverPlace(session, await body()) }), {
  write: true,
});

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
