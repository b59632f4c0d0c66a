import type { TrackRow } from "@/server/surfaces/driver/track-queries";

// The export's trip formats: GPX 1.1 (one <trk> per trip) and GeoJSON (one LineString Feature per
// trip, coordinates as [longitude, latitude]), each written a trip at a time. Pure.

export type ExportTrip = {
  id: number;
  vehicleId: number;
  vehicleName: string;
  startTime: Date;
  endTime: Date | null;
  mileage: number | null;
};

const xml = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** "lat,lon" as stored (validated on ingest); null if it is not a position. */
function position(waypoint: string): [number, number] | null {
  const [lat, lon] = waypoint.split(",").map(Number);
  return Number.isFinite(lat) && Number.isFinite(lon) ? [lat!, lon!] : null;
}

export const GPX_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Wayline" xmlns="http://www.topografix.com/GPX/1/1">\n';
export const GPX_TAIL = "</gpx>\n";

export function gpxTrack(trip: ExportTrip, track: TrackRow[]): string {
  const points = track
    .map((p) => {
      const at = position(p.waypoint);
      return at
        ? `      <trkpt lat="${at[0]}" lon="${at[1]}"><time>${new Date(Number(p.t)).toISOString()}</time></trkpt>\n`
        : "";
    })
    .join("");
  const desc =
    `vehicle ${trip.vehicleId}; started ${trip.startTime.toISOString()}` +
    (trip.endTime ? `; ended ${trip.endTime.toISOString()}` : "") +
    (trip.mileage !== null ? `; ${trip.mileage} miles` : "");
  return (
    `  <trk>\n    <name>${xml(`Trip ${trip.id}, ${trip.vehicleName}`)}</name>\n` +
    `    <desc>${xml(desc)}</desc>\n` +
    `    <trkseg>\n${points}    </trkseg>\n  </trk>\n`
  );
}

export const GEOJSON_HEAD = '{"type":"FeatureCollection","features":[\n';
export const GEOJSON_TAIL = "\n]}\n";

export function geojsonFeature(trip: ExportTrip, track: TrackRow[]): string {
  const coordinates: [number, number][] = [];
  const times: string[] = [];
  for (const p of track) {
    const at = position(p.waypoint);
    if (!at) continue;
    coordinates.push([at[1], at[0]]);
    times.push(new Date(Number(p.t)).toISOString());
  }
  return JSON.stringify({
    type: "Feature",
    // RFC 7946: a LineString has two positions at least; a trip with one is a Point, with none null.
    geometry:
      coordinates.length >= 2
        ? { type: "LineString", coordinates }
        : coordinates.length === 1
          ? { type: "Point", coordinates: coordinates[0] }
          : null,
    properties: {
      tripId: trip.id,
      vehicleId: trip.vehicleId,
      vehicleName: trip.vehicleName,
      startTime: trip.startTime.toISOString(),
      endTime: trip.endTime?.toISOString() ?? null,
      mileage: trip.mileage,
      times,
    },
  });
}
