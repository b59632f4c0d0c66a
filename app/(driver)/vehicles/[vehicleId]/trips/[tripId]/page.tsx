import type { Metadata } from "next";
import Link from "next/link";
import { formatDuration, formatMiles, formatMph, formatTripEnds, formatWhen, zoneOf } from "@/components/driver/format";
import { TripReplay } from "@/components/driver/trip-replay";
import { SiteHeader } from "@/components/site/site-header";
import { Card } from "@/components/ui/card";
import { getDriverAccount } from "@/server/surfaces/driver/account";
import { tileConfig } from "@/server/surfaces/driver/map-config";
import { getTripReplay } from "@/server/surfaces/driver/trips";
import { vehicleTitle } from "@/server/surfaces/driver/views";
import { getDriverVehicle } from "@/server/surfaces/driver/vehicles";
import { idOrNotFound, orNotFound, requireDriver } from "../../../../_lib/driver-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Trip replay" };

type Props = { params: Promise<{ vehicleId: string; tripId: string }> };

// /vehicles/{id}/trips/{tripId} — a trip's track and totals, replayed on the map.
export default async function TripPage({ params }: Props) {
  const raw = await params;
  const session = await requireDriver(
    `/vehicles/${encodeURIComponent(raw.vehicleId)}/trips/${encodeURIComponent(raw.tripId)}`,
  );
  const vehicleId = idOrNotFound(raw.vehicleId);
  const tripId = idOrNotFound(raw.tripId);
  const [vehicle, trip, account] = await Promise.all([
    orNotFound(getDriverVehicle(session, vehicleId)),
    orNotFound(getTripReplay(session, vehicleId, tripId)),
    getDriverAccount(session),
  ]);
  const zone = zoneOf(account.timeZone);
  const { totals } = trip;
  const figures: [string, string][] = [
    ["Distance", formatMiles(totals.distanceMiles)],
    ["Duration", formatDuration(totals.durationMs)],
    ["Moving", formatDuration(totals.movingMs)],
    ["Stopped", formatDuration(totals.stoppedMs)],
    ["Top speed", formatMph(totals.maxSpeedMph)],
    ["Average speed (moving)", formatMph(totals.averageSpeedMph)],
  ];

  return (
    <>
      <SiteHeader session={session} current="map" />
      <main className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-6">
        <div>
          <Link
            href={`/vehicles/${vehicle.vehicleId}`}
            className="inline-block min-h-11 content-center text-sm font-semibold text-blue-700 underline-offset-2 hover:underline"
          >
            ← {vehicleTitle(vehicle)}
          </Link>
          <h1 className="text-2xl font-bold tracking-tight">Trip of {formatWhen(trip.startTime, zone)}</h1>
          {trip.ends ? (
            <p className="font-semibold text-slate-800" data-testid="trip-ends">
              {formatTripEnds(trip.ends, trip.endTime === null)}
            </p>
          ) : null}
          <p className="text-sm text-slate-700">
            {trip.endTime ? `Ended ${formatWhen(trip.endTime, zone)}` : "In progress"}
            {trip.mileage !== null ? ` · ${formatMiles(trip.mileage)} reported by the device` : ""}
          </p>
        </div>
        <Card className="!p-4">
          <h2 className="sr-only">Totals</h2>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Trip totals">
            {figures.map(([term, value]) => (
              <div key={term}>
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{term}</dt>
                <dd className="text-lg font-semibold" data-total={term}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        </Card>
        {trip.track.t.length === 0 ? (
          <Card>
            <p className="text-slate-700">This trip has no positions to show: its device reported none.</p>
          </Card>
        ) : (
          <TripReplay track={trip.track} tiles={tileConfig()} timeZone={zone} />
        )}
      </main>
    </>
  );
}
