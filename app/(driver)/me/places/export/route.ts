import { otherMethods } from "@/server/http/with-driver";
import { withDriverDownload } from "@/server/http/with-driver-download";
import { exportDriverPlaces } from "@/server/surfaces/driver/places";

// GET /me/places/export?format=geojson|kml — the driver's places as a GeoJSON or KML file
export const GET = withDriverDownload(async ({ session, request }) =>
  exportDriverPlaces(session, new URL(request.url)),
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
