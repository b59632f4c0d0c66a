import { and, eq, inArray } from "drizzle-orm";
import { db } from "@/db/client";
import { vehicles } from "@/db/schema";
import { UNIDENTIFIED, vehicleName } from "@/server/vehicles/serialize";

// How the console names the vehicles it mentions (notifications, subscriptions): label and name,
// as the partner gave or the VIN decoded them, instead of a bare id. Only vehicles of the app's own
// rows are asked for (callers pass ids from those rows); a vehicle deleted since is missing from the map.

/** name: year, make and model, null when the VIN told nothing. */
export type VehicleRefView = { id: number; label: string | null; name: string | null };

export async function vehicleNames({
  environment,
  ids,
}: {
  environment: "sandbox" | "production";
  ids: (number | null)[];
}): Promise<Map<number, VehicleRefView>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db()
    .select({ id: vehicles.id, label: vehicles.label, year: vehicles.year, make: vehicles.make, model: vehicles.model })
    .from(vehicles)
    .where(and(inArray(vehicles.id, wanted), eq(vehicles.environment, environment)));
  return new Map(
    rows.map((r) => [
      r.id,
      { id: r.id, label: r.label, name: vehicleName(r) === UNIDENTIFIED ? null : vehicleName(r) },
    ]),
  );
}
