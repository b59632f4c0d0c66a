import Link from "next/link";
import type { VehicleRefView } from "@/server/surfaces/console/vehicle-names";

// A vehicle as the console mentions it: its label (or name), its id beside it, linked to the vehicle
// on the connected-accounts page. A vehicle deleted since keeps its id.
export function VehicleRef({
  appId,
  environment,
  id,
  vehicle,
}: {
  appId: number;
  environment: string;
  id: number | null;
  vehicle: VehicleRefView | undefined;
}) {
  if (id === null) return <>—</>;
  if (!vehicle) return <span>vehicle {id} (deleted)</span>;
  const title = vehicle.label || vehicle.name || `Vehicle ${id}`;
  return (
    <Link
      className="inline-block min-h-11 content-center text-blue-700 underline"
      href={`/console/apps/${appId}/accounts?env=${environment}#vehicle-${id}`}
    >
      {title}
      {vehicle.label && vehicle.name ? <span className="text-slate-700"> · {vehicle.name}</span> : null}{" "}
      <span className="font-mono text-slate-700">#{id}</span>
    </Link>
  );
}
