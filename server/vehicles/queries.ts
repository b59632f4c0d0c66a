import { and, asc, eq, getTableColumns, inArray, or, sql, type SQL } from "drizzle-orm";
import { rawSql, type Executor } from "@/db/client";
import { devices, vehicles, type Environment } from "@/db/schema";
import { grantedAccountIds, type AccountScope } from "@/server/accounts/queries";
import type { Page } from "@/common/http/paging";

// Only what the API shows or the rules read: every list row maps each selected column, and the
// vehicle list is the hottest read there is.
const { environment: _environment, createdAt: _createdAt, lastDataAt: _lastDataAt, ...shownColumns } = getTableColumns(vehicles);
const vehicleColumns = { ...shownColumns, deviceSerial: devices.serial };
export type VehicleRow = Omit<typeof vehicles.$inferSelect, "environment" | "createdAt" | "lastDataAt"> & { deviceSerial: string | null };
type NewVehicle = typeof vehicles.$inferInsert;

function scopeWhere(scope: AccountScope): SQL {
  return and(
    eq(vehicles.environment, scope.environment),
    scope.accountId !== undefined ? eq(vehicles.accountId, scope.accountId) : inArray(vehicles.accountId, grantedAccountIds(scope.appId)),
  )!;
}

const withDevice = (db: Executor) => db.select(vehicleColumns).from(vehicles).leftJoin(devices, eq(devices.vehicleId, vehicles.id));

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
             v.last_latitude, v.last_longitude, d.serial as device_serial
        from vehicles v left join devices d on d.vehicle_id = v.id
       where v.environment = ${scope.environment} and ${owner}
       order by v.id ${order === "asc" ? sql`asc` : sql`desc`} limit ${page.limit} offset ${page.offset}`,
    sql<{ n: number }[]>`select count(*)::int as n from vehicles v where v.environment = ${scope.environment} and ${owner}`,
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
  }));
  return { rows: vehiclesOut, total: total?.n ?? 0 };
}

/** The vehicleId a path reference can be (it may also be a device serial), or null. */
export const vehicleIdOf = (ref: string): number | null => (/^\d{1,10}$/.test(ref) && Number(ref) <= 2_147_483_647 ? Number(ref) : null);

/** By numeric vehicleId or device serial; a numeric text that is both prefers the vehicleId. */
export async function findVehicle(db: Executor, { scope, ref, forUpdate = false }: { scope: AccountScope; ref: string; forUpdate?: boolean }) {
  const id = vehicleIdOf(ref);
  const match = id === null ? eq(devices.serial, ref) : or(eq(vehicles.id, id), eq(devices.serial, ref));
  const query = withDevice(db)
    .where(and(scopeWhere(scope), match))
    .orderBy(id === null ? asc(vehicles.id) : sql`(${vehicles.id} = ${id}) desc`)
    .limit(1);
  const [row] = forUpdate ? await query.for("update", { of: vehicles }) : await query;
  return (row as VehicleRow | undefined) ?? null;
}

export async function findVehicleById(db: Executor, { id }: { id: number }) {
  const [row] = await withDevice(db).where(eq(vehicles.id, id)).limit(1);
  return (row as VehicleRow | undefined) ?? null;
}

export async function insertVehicle(db: Executor, values: NewVehicle) {
  const [row] = await db.insert(vehicles).values(values).returning({ id: vehicles.id });
  return row!.id;
}

export async function updateVehicleRow(db: Executor, { id, values }: { id: number; values: Partial<NewVehicle> }) {
  await db.update(vehicles).set(values).where(eq(vehicles.id, id));
}

export async function deleteVehicleRow(db: Executor, { id }: { id: number }) {
  const deleted = await db.delete(vehicles).where(eq(vehicles.id, id)).returning({ id: vehicles.id });
  return deleted.length > 0;
}

export async function lockDevice(db: Executor, { environment, serial }: { environment: Environment; serial: string }) {
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.environment, environment), eq(devices.serial, serial)))
    .for("update");
  return row ?? null;
}

export async function lockVehicle(db: Executor, { id }: { id: number }) {
  const [row] = await db.select().from(vehicles).where(eq(vehicles.id, id)).for("update");
  return row ?? null;
}

export async function unassignDevicesOf(db: Executor, { vehicleId }: { vehicleId: number }) {
  await db.update(devices).set({ vehicleId: null }).where(eq(devices.vehicleId, vehicleId));
}

export async function assignDeviceRow(db: Executor, { deviceId, vehicleId }: { deviceId: number; vehicleId: number }) {
  await db.update(devices).set({ vehicleId }).where(eq(devices.id, deviceId));
}

export async function insertDevice(db: Executor, values: { environment: Environment; serial: string; vehicleId: number }) {
  await db.insert(devices).values(values);
}

export async function isVehicleInScope(db: Executor, { scope, id }: { scope: AccountScope; id: number }) {
  const [row] = await db
    .select({ id: vehicles.id })
    .from(vehicles)
    .where(and(eq(vehicles.id, id), scopeWhere(scope)))
    .limit(1);
  return Boolean(row);
}
