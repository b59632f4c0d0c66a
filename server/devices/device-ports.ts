import type { Environment } from "@/db/schema";

// The ports devices send to (docs/devices.md#seeing-the-device): one per protocol, and one that tells
// the three apart by their first bytes; the sandbox's 10000 above production's, and every one moved
// by DEVICE_PORT_OFFSET, so that a second instance on one machine takes ports of its own.

export type PortKind = "osmand" | "teltonika" | "gt06" | "shared";

const PRODUCTION: Record<PortKind, number> = { osmand: 5055, teltonika: 5027, gt06: 5023, shared: 5000 };
const SANDBOX_ABOVE = 10_000;

/** The port of each kind for an environment. */
export function devicePorts(environment: Environment, offset: number): Record<PortKind, number> {
  const above = (environment === "sandbox" ? SANDBOX_ABOVE : 0) + offset;
  return {
    osmand: PRODUCTION.osmand + above,
    teltonika: PRODUCTION.teltonika + above,
    gt06: PRODUCTION.gt06 + above,
    shared: PRODUCTION.shared + above,
  };
}
