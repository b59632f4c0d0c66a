import type { Metadata } from "next";
import { AddVehicleForm } from "@/components/driver/add-vehicle-form";
import { zoneOf } from "@/components/driver/format";
import { LiveVehicles } from "@/components/driver/live-vehicles";
import { SiteHeader } from "@/components/site/site-header";
import { Card } from "@/components/ui/card";
import { getDriverAccount } from "@/server/surfaces/driver/account";
import { tileConfig } from "@/server/surfaces/driver/map-config";
import { driverPlaces } from "@/server/surfaces/driver/places";
import { listDriverVehicles } from "@/server/surfaces/driver/vehicles";
import { requireDriver } from "../_lib/driver-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your vehicles" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// /map — the driver site's home: every vehicle on a live map and in a list.
export default async function MapPage({ searchParams }: Props) {
  const session = await requireDriver("/map");
  const { deleted, vehicle } = await searchParams;
  const focus = typeof vehicle === "string" && /^\d{1,10}$/.test(vehicle) ? Number(vehicle) : null;
  const [vehicles, account, places] = await Promise.all([
    listDriverVehicles(session),
    getDriverAccount(session),
    driverPlaces(session),
  ]);

  return (
    <>
      <SiteHeader session={session} current="map" />
      <main className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-6">
        <h1 className="text-2xl font-bold tracking-tight">Your vehicles</h1>
        {typeof deleted === "string" && deleted.length <= 120 ? (
          <p role="status" className="rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
            {deleted} has been deleted, with all its data.
          </p>
        ) : null}
        {vehicles.length === 0 ? (
          <div className="grid gap-4 md:grid-cols-2">
            <Card>
              <h2 className="text-lg font-semibold">No vehicles yet</h2>
              <p className="mt-2 text-slate-700">
                Add your vehicle here with the serial number of its Wayline device, or let an app you use add it for
                you. It appears on the map as soon as its device reports a position.
              </p>
              {session.environment === "sandbox" ? (
                <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
                  This is a sandbox account: no real device reports here. Once you have added a vehicle, drive it with
                  the traffic simulator in the partner console, or through the API:{" "}
                  <code className="break-all rounded bg-amber-100 px-1">
                    POST /sandbox/api/vehicle/{"{id}"}/simulation/
                  </code>
                  .
                </p>
              ) : null}
            </Card>
            <Card>
              <h2 className="mb-4 text-lg font-semibold">Add a vehicle</h2>
              <AddVehicleForm />
            </Card>
          </div>
        ) : (
          <LiveVehicles
            initial={vehicles}
            tiles={tileConfig()}
            timeZone={zoneOf(account.timeZone)}
            focus={vehicles.some((v) => v.vehicleId === focus) ? focus : null}
            initialPlaces={places}
          />
        )}
      </main>
    </>
  );
}
