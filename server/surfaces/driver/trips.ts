import type { DriverSession } from "@/server/surfaces/driver/session";
import { notFound } from "@/common/http/errors";
import { tripEnds, type TripEnds } from "@/server/places/match";
import { listPlaces } from "@/server/places/service";
import { findTrip } from "@/server/telemetry/queries";
import { getVisibleVehicle } from "@/server/vehicles/service";
import { driverPrincipal } from "./principal";
import { readTrack } from "./track-queries";
import { tripTotals, type Track, type TripTotals } from "@/common/driver/trip-stats";

export type TripReplay = {
  id: number;
  vehicleId: number;
  startTime: string;
  endTime: string | null;
  mileage: number | null;
  track: Track;
  totals: TripTotals;
  /** The driver's places it starts and ends in ("Home → Work"), or null. */
  ends: TripEnds | null;
};

const waypoint = (latitude: number | null, longitude: number | null) =>
  latitude === null || longitude === null ? null : { latitude, longitude };

// One trip of one of the driver's vehicles, ready to replay: the vehicle is looked up through
// the vehicle service first (another account's vehicle is a 404), then the trip within it.
export async function getTripReplay(session: DriverSession, vehicleId: number, tripId: number): Promise<TripReplay> {
  const vehicle = await getVisibleVehicle(driverPrincipal(session), String(vehicleId));
  const trip = await findTrip({ vehicleId: vehicle.id, tripId });
  if (!trip) throw notFound("trip");
  const [rows, places] = await Promise.all([
    readTrack({ vehicleId: vehicle.id, tripId: trip.id }),
    listPlaces(session.accountId),
  ]);
  const track: Track = { t: [], lat: [], lon: [], speed: [] };
  for (const row of rows) {
    const [lat, lon] = row.waypoint.split(",").map(Number) as [number, number];
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    const speed = row.speed === null ? -1 : Number(row.speed);
    track.t.push(row.t);
    track.lat.push(lat);
    track.lon.push(lon);
    track.speed.push(Number.isFinite(speed) && speed >= 0 ? speed : -1);
  }
  return {
    id: trip.id,
    vehicleId: vehicle.id,
    startTime: trip.startTime.toISOString(),
    endTime: trip.endTime?.toISOString() ?? null,
    mileage: trip.mileage,
    track,
    totals: tripTotals(track, { startMs: trip.startTime.getTime(), endMs: trip.endTime?.getTime() ?? null }),
    ends: tripEnds(
      places,
      waypoint(trip.startLatitude, trip.startLongitude),
      waypoint(trip.endLatitude, trip.endLongitude),
    ),
  };
}
