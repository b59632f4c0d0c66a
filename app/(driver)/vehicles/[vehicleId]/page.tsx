import type { Metadata } from "next";
import Link from "next/link";
import { ConnectDevice } from "@/components/devices/connect-device";
import { DeleteVehicle } from "@/components/driver/delete-vehicle";
import { LocationPause } from "@/components/driver/location-pause";
import { formatMiles, formatTripEnds, formatWhen, zoneOf } from "@/components/driver/format";
import { LivePosition } from "@/components/driver/live-position";
import { ShareLinks } from "@/components/driver/share-links";
import { VehicleEditForm } from "@/components/driver/vehicle-edit-form";
import { SiteHeader } from "@/components/site/site-header";
import { Card } from "@/components/ui/card";
import { getDriverAccount } from "@/server/surfaces/driver/account";
import { driverDevice } from "@/server/surfaces/driver/device";
import { tileConfig } from "@/server/surfaces/driver/map-config";
import { listDriverShares } from "@/server/surfaces/driver/shares";
import { vehicleTitle } from "@/server/surfaces/driver/views";
import { getDriverVehicle, recentTrips } from "@/server/surfaces/driver/vehicles";
import { idOrNotFound, orNotFound, requireDriver } from "../../_lib/driver-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Vehicle" };

type Props = { params: Promise<{ vehicleId: string }> };

// /vehicles/{id} — one of the driver's vehicles: details, its last position on a small map (live),
// sharing its live location, recent trips, connecting a device (what to type into it, what the gateway saw of it), edit, delete.
export default async function VehiclePage({ params }: Props) {
  const { vehicleId: raw } = await params;
  const session = await requireDriver(`/vehicles/${encodeURIComponent(raw)}`);
  const vehicleId = idOrNotFound(raw);
  const [vehicle, { trips, total }, account, device, shares] = await Promise.all([
    orNotFound(getDriverVehicle(session, vehicleId)),
    orNotFound(recentTrips(session, vehicleId)),
    getDriverAccount(session),
    orNotFound(driverDevice(session, vehicleId)),
    orNotFound(listDriverShares(session, vehicleId)),
  ]);
  const zone = zoneOf(account.timeZone);
  const time = (at: Date) => <time dateTime={at.toISOString()}>{formatWhen(at.toISOString(), zone)}</time>;
  const title = vehicleTitle(vehicle);
  const details: [string, string][] = [
    ["Type", vehicle.name],
    ["VIN", vehicle.vin ?? "Not known"],
    ["Label", vehicle.label ?? "None"],
    ["Device", vehicle.deviceId ?? "No device"],
    ["Mileage", formatMiles(vehicle.mileage)],
    ["State", vehicle.running ? "Running" : "Parked"],
    ["Last running", formatWhen(vehicle.lastRunningAt, zone)],
  ];
  const position = vehicle.lastWaypoint;

  return (
    <>
      <SiteHeader session={session} current="map" />
      <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6">
        <div>
          <Link
            href="/map"
            className="inline-block min-h-11 content-center text-sm font-semibold text-blue-700 underline-offset-2 hover:underline"
          >
            ← All vehicles
          </Link>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
            {position ? (
              <Link
                href={`/map?vehicle=${vehicle.vehicleId}`}
                className="inline-flex min-h-11 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold hover:bg-slate-50"
              >
                Show on the map
              </Link>
            ) : null}
          </div>
        </div>
        <div className="grid gap-6 lg:grid-cols-2">
          <Card>
            <h2 className="text-lg font-semibold">Details</h2>
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
              {details.map(([term, value]) => (
                <div key={term} className="contents">
                  <dt className="font-medium text-slate-600">{term}</dt>
                  <dd className="break-words text-slate-900" data-field={term}>
                    {value}
                  </dd>
                </div>
              ))}
            </dl>
          </Card>
          <Card>
            <h2 className="text-lg font-semibold">Last position</h2>
            <LocationPause vehicleId={vehicle.vehicleId} paused={vehicle.locationPaused} />
            <LivePosition vehicle={vehicle} title={title} tiles={tileConfig()} timeZone={zone} />
          </Card>
          <Card id="share">
            <h2 className="text-lg font-semibold">Share live location</h2>
            <ShareLinks vehicleId={vehicle.vehicleId} shares={shares} timeZone={zone} />
          </Card>
          <Card>
            <h2 className="text-lg font-semibold">Recent trips</h2>
            {trips.length === 0 ? (
              <p className="mt-3 text-slate-700">
                No trips yet. A trip starts when the vehicle&apos;s device reports the ignition on.
              </p>
            ) : (
              <>
                <ul className="mt-3 divide-y divide-slate-200" aria-label="Recent trips">
                  {trips.map((t) => (
                    <li key={t.id}>
                      <Link
                        href={`/vehicles/${vehicle.vehicleId}/trips/${t.id}`}
                        className="flex min-h-11 flex-wrap items-center justify-between gap-2 py-2 text-sm hover:bg-slate-50"
                      >
                        <span className="font-semibold text-blue-800">{formatWhen(t.startTime, zone)}</span>
                        {t.ends ? (
                          <span className="text-slate-800" data-testid="trip-ends">
                            {formatTripEnds(t.ends, t.endTime === null)}
                          </span>
                        ) : null}
                        <span className="text-slate-700">{t.endTime ? formatMiles(t.mileage) : "in progress"}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
                {total > trips.length ? (
                  <p className="mt-2 text-xs text-slate-600">
                    The {trips.length} most recent of {total} trips.
                  </p>
                ) : null}
              </>
            )}
          </Card>
          <Card>
            <h2 className="mb-4 text-lg font-semibold">Connect a device</h2>
            <ConnectDevice
              status={device.status}
              endpoints={device.endpoints}
              environment={session.environment}
              time={time}
              noIdentifier="Enter it as the device serial number under Edit, and save."
            />
          </Card>
          <Card>
            <h2 className="mb-4 text-lg font-semibold">Edit</h2>
            <VehicleEditForm vehicle={vehicle} />
          </Card>
          <Card>
            <h2 className="text-lg font-semibold">Delete</h2>
            <p className="mb-4 mt-2 text-sm text-slate-700">Removes the vehicle and all its data for good.</p>
            <DeleteVehicle vehicleId={vehicle.vehicleId} title={title} tripCount={total} />
          </Card>
        </div>
      </main>
    </>
  );
}
