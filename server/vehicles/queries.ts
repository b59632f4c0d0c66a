import { and, asc, eq, getTableColumns, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { devices, vehicles, type Environment } from "@/db/schema";
import { grantedAccountIds, type AccountScope } from "@/server/accounts/queries";

// Only what the API shows or the rules read: every list row maps each selected column, and the
// vehicle list is the hottest read there is.
const {
  environment: _environment,
  createdAt: _createdAt,
  lastDataAt: _lastDataAt,
  ...shownColumns
} = getTableColumns(vehicles);
const vehicleColumns = { ...shownColumns, deviceSerial: devices.serial };
export type VehicleRow = Omit<typeof vehicles.$inferSelect, "environment" | "createdAt" | "lastDataAt"> & {
  deviceSerial: string | null;
};
type NewVehicle = typeof vehicles.$inferInsert;

function scopeWhere(scope: AccountScope): SQL {
  return and(
    eq(vehicles.environment, scope.environment),
    scope.accountId !== undefined
      ? eq(vehicles.accountId, scope.accountId)
      : inArray(vehicles.accountId, grantedAccountIds(scope.appId)),
  )!;
}

const withDevice = (db: Executor) =>
  db.select(vehicleColumns).from(vehicles).leftJoin(devices, eq(devices.vehicleId, vehicles.id));

/** The vehicleId a path reference can be (it may also be a device serial), or null. */
export const vehicleIdOf = (ref: string): number | null =>
  /^\d{1,10}$/.test(ref) && Number(ref) <= 2_147_483_647 ? Number(ref) : null;

/** By numeric vehicleId or device serial; a numeric text that is both prefers the vehicleId. */
export async function findVehicle(
  db: Executor,
  { scope, ref, forUpdate = false }: { scope: AccountScope; ref: string; forUpdate?: boolean },
) {
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

export async function insertDevice(
  db: Executor,
  values: { environment: Environment; serial: string; vehicleId: number },
) {
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
