import type { Environment } from "@/db/schema";
import { logger } from "@/server/platform/log";
import type { DeviceProtocol } from "./ingest/contacts";

// A device id no vehicle names (docs/devices.md#identity) is refused, counted (device_contacts:
// contacts.ts) and logged: once a minute at most per id and process, since a tracker refused goes on
// trying every few seconds, and an operator needs its id, protocol and address once, not a line per try.

const EVERY_MS = 60_000;
/** Ids remembered for the throttle; past it the oldest is forgotten (and may log again). */
const LIMIT = 10_000;
const lastLogged = new Map<string, number>();

export function logUnknownDevice(input: {
  environment: Environment;
  deviceId: string;
  protocol: DeviceProtocol;
  remote: string;
}): void {
  const key = `${input.environment} ${input.deviceId}`;
  const now = Date.now();
  const last = lastLogged.get(key);
  if (last !== undefined && now - last < EVERY_MS) return;
  lastLogged.delete(key);
  lastLogged.set(key, now);
  if (lastLogged.size > LIMIT) lastLogged.delete(lastLogged.keys().next().value!);
  logger.warn(input, "device gateway: refused a device id no vehicle names");
}
