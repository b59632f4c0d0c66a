import type { DriverSession } from "@/server/surfaces/driver/session";
import { parseOrThrow } from "@/common/http/zod-errors";
import { placesToGeoJson } from "@/server/places/geojson";
import { placesToKml } from "@/server/places/kml";
import { exportFormat, type PlaceOut } from "@/server/places/schemas";
import { createPlace, deletePlace, importPlaces, listPlaces, updatePlace } from "@/server/places/service";

// The driver site's places (docs/driver-site.md#places): the signed-in account's, nobody else's.

export const driverPlaces = (session: DriverSession) => listPlaces(session.accountId);
export const addDriverPlace = (session: DriverSession, body: unknown) => createPlace(session.accountId, body);
export const editDriverPlace = (session: DriverSession, id: number, body: unknown) =>
  updatePlace(session.accountId, id, body);
export const removeDriverPlace = (session: DriverSession, id: number) => deletePlace(session.accountId, id);
export const importDriverPlaces = (session: DriverSession, body: unknown) => importPlaces(session.accountId, body);

const formats = {
  geojson: { extension: "geojson", contentType: "application/geo+json", write: placesToGeoJson },
  kml: { extension: "kml", contentType: "application/vnd.google-earth.kml+xml", write: placesToKml },
} satisfies Record<string, { extension: string; contentType: string; write: (p: PlaceOut[]) => string }>;

/** The account's places as a file: `?format=geojson` (the default) or `kml`. */
export async function exportDriverPlaces(session: DriverSession, url: URL) {
  const format = parseOrThrow(exportFormat, url.searchParams.get("format") ?? "geojson", "format");
  const chosen = formats[format];
  return {
    filename: `wayline-places.${chosen.extension}`,
    contentType: chosen.contentType,
    body: chosen.write(await driverPlaces(session)),
  };
}
