import { epochMs as ms, type Sql } from "@/db/fragments";
import type { Environment } from "@/db/schema";
import type { TripState } from "../ignition";

// The batch's first statement: the vehicles the batch's device ids name in its environment, row
// locked in id order (so two batches, or two gateway processes, wait for each other instead of
// deadlocking), with what the ignition rules start from (ignition.ts): the vehicle's running state
// and newest data set, and the device's last ignition and motion. A device id no vehicle names is
// not among them: it is refused.

type Target = { deviceId: string; vehicleId: number; accountId: number; state: TripState };

type Row = {
  device_id: string;
  vehicle_id: number;
  account_id: number;
  running: boolean;
  last_data_at: number | null;
  last_running_at: number | null;
  ignition: boolean | null;
  motion_at: number | null;
  in_order: boolean;
};

/**
 * The targets, or null when a vehicle's last writer is newer than this transaction: the lock drew
 * the transaction's id before it waited, and the event feed orders a vehicle's events by
 * transaction id (server/telemetry/ingest/read.ts lockVehicle), so the caller begins again.
 */
export async function lockTargets(tx: Sql, environment: Environment, deviceIds: string[]): Promise<Target[] | null> {
  const rows = await tx<Row[]>`
    select d.serial as device_id, v.id as vehicle_id, v.account_id, v.running,
           ${ms(tx, tx`v.last_data_at`)} as last_data_at, ${ms(tx, tx`v.last_running_at`)} as last_running_at,
           c.ignition, ${ms(tx, tx`c.motion_at`)} as motion_at, age(v.xmin) >= 0 as in_order
      from devices d
      join vehicles v on v.id = d.vehicle_id
      left join device_contacts c on c.environment = d.environment and c.device_id = d.serial
     where d.environment = ${environment} and d.serial = any(${deviceIds}::text[])
     order by v.id
       for update of v`;
  if (rows.some((r) => !r.in_order)) return null;
  const date = (value: number | null) => (value === null ? null : new Date(value));
  return rows.map((r) => ({
    deviceId: r.device_id,
    vehicleId: Number(r.vehicle_id),
    accountId: Number(r.account_id),
    state: {
      running: r.running,
      lastDataAt: date(r.last_data_at),
      lastRunningAt: date(r.last_running_at),
      ignition: r.ignition,
      motionAt: date(r.motion_at),
    },
  }));
}
