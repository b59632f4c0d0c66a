import { api, testSql, type Env } from "./api";
import { addVehicle } from "./fixtures";
import { driverWithVehicle } from "./telemetry";

// Building blocks for the device gateway's tests: ids as trackers send them, a vehicle that names
// one, and what the gateway kept of it.

let counter = 0;
/** A 15-digit IMEI no other test (or earlier run on the same database) uses. */
export function uniqueImei(): string {
  counter += 1;
  const time = String(Date.now()).slice(-8);
  return `${time}${String(process.pid % 1000).padStart(3, "0")}${String(counter % 10_000).padStart(4, "0")}`;
}

/** A fresh driver whose one vehicle names `deviceId`, and the tokens to read its data. */
export async function vehicleForDevice(env: Env, deviceId: string) {
  const driver = await driverWithVehicle(env);
  const vehicle = await addVehicle(env, driver.accessToken, { label: "Tracked car", deviceId });
  return { ...driver, vehicleId: vehicle.vehicleId };
}

/** GET a path of the vehicle's as its driver; the body, once the answer is 200. */
export async function readAs(env: Env, token: string, path: string) {
  const res = await api(env).get(path, token);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
  return res.body;
}

type ContactRow = {
  protocol: string;
  last_contact_at: Date;
  last_record_at: Date | null;
  records_on_day: number;
  last_refusal_reason: string | null;
  unknown_contacts: number;
  ignition: boolean | null;
  connection: string | null;
};

/** What the gateway kept of a device id (device_contacts), or undefined when nothing. */
export async function contactOf(env: Env, deviceId: string): Promise<ContactRow | undefined> {
  const [row] = await testSql()<ContactRow[]>`
    select protocol, last_contact_at, last_record_at, records_on_day, last_refusal_reason, unknown_contacts, ignition, connection
      from device_contacts where environment = ${env} and device_id = ${deviceId}`;
  return row;
}

/** Polls `read` until `done` holds of its value (bounded); says what was seen on timeout. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`still not as expected after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}
