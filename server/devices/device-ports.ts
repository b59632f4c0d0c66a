import type { Environment } from "@/db/schema";
import { portPlan, type ListenerKind } from "./gateway/ports";

// The ports a device is set up with (docs/devices.md#ports), from the gateway's own plan: one per
// protocol and the one that tells the three apart (Teltonika's UDP shares its TCP port's number).

export type PortKind = Exclude<ListenerKind, "teltonika-udp">;

/** The port of each kind for an environment, DEVICE_PORT_OFFSET included. */
export function devicePorts(environment: Environment, offset: number): Record<PortKind, number> {
  const { osmand, teltonika, gt06, shared } = portPlan(offset)[environment];
  return { osmand, teltonika, gt06, shared };
}
