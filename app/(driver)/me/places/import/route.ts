import { withDriver, otherMethods } from "@/server/http/with-driver";
import { importDriverPlaces } from "@/server/surfaces/driver/places";

// POST /me/places/import — add the places of a GeoJSON or KML file ({"content"}), all or none
export const POST = withDriver(
  async ({ session, body }) => ({ places: await importDriverPlaces(session, await body()) }),
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
