import { rawSql } from "@/db/client";
import type { AccountScope } from "@/server/accounts/queries";
import type { Page } from "@/common/http/paging";
import type { VehicleRow } from "./queries";

// GET /vehicle/ is the hottest read there is, and drizzle's per-row, per-column mapping was its
// largest cost of our own (profiled under load): the list goes straight through postgres.js, with
// timestamps as epoch milliseconds, and is mapped here once. Prepared on PostgreSQL like the rest.
type ListRow = {
  id: number;
  account_id: number;
  vin: string | null;
  label: string | null;
  auto_assign_device: boolean;
  /** numeric, as text. */
  mileage: string;
  year: string | null;
  make: string | null;
  model: string | null;
  running: boolean;
  last_running_at: number | null;
  last_waypoint_at: number | null;
  last_latitude: number | null;
  last_longitude: number | null;
  device_serial: string | null;
  location_paused: boolean;
};

const at = (ms: number | null) => (ms === null ? null : new Date(ms));

export async function listVehicles({ scope, page, order }: { scope: AccountScope; page: Page; order: "asc" | "desc" }) {
  const sql = rawSql();
  const owner =
    scope.accountId !== undefined
      ? sql`v.account_id = ${scope.accountId}`
      : sql`v.account_id in (select account_id from account_grants where app_id = ${scope.appId} and revoked_at is null)`;
  const [rows, [total]] = await Promise.all([
    sql<ListRow[]>`
      select v.id, v.account_id, v.vin, v.label, v.auto_assign_device, v.mileage, v.year, v.make, v.model, v.running,
             (extract(epoch from v.last_running_at) * 1000)::float8 as last_running_at,
             (extract(epoch from v.last_waypoint_at) * 1000)::float8 as last_waypoint_at,
             v.last_latitude, v.last_longitude, v.location_paused, d.serial as device_serial
        from vehicles v left join devices d on d.vehicle_id = v.id
       where v.environment = ${scope.environment} and ${owner}
       order by v.id ${order === "asc" ? sql`asc` : sql`desc`} limit ${page.limit} offset ${page.offset}`,
    sql<
      { n: number }[]
    >`select count(*)::int as n from vehicles v where v.environment = ${scope.environment} and ${owner}`,
  ]);
  const vehiclesOut: VehicleRow[] = rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    vin: r.vin,
    label: r.label,
    autoAssignDevice: r.auto_assign_device,
    mileage: Number(r.mileage),
    year: r.year,
    make: r.make,
    model: r.model,
    running: r.running,
    lastRunningAt: at(r.last_running_at),
    lastWaypointAt: at(r.last_waypoint_at),
    lastLatitude: r.last_latitude,
    lastLongitude: r.last_longitude,
    deviceSerial: r.device_serial,
    locationPaused: r.location_paused,
  }));
  return { rows: vehiclesOut, total: total?.n ?? 0 };
}
