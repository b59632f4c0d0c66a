import { environments, type Environment } from "@/db/schema";

// The device ports (docs/devices.md#ports): one per protocol and environment, production's as
// Traccar numbers them and the sandbox's 10,000 above, all moved by DEVICE_PORT_OFFSET (a second
// instance on one machine). Teltonika's UDP shares its TCP port's number.

export type ListenerKind = "osmand" | "teltonika" | "teltonika-udp" | "gt06" | "shared";

const PRODUCTION: Record<ListenerKind, number> = {
  osmand: 5055,
  teltonika: 5027,
  "teltonika-udp": 5027,
  gt06: 5023,
  shared: 5000,
};
const SANDBOX_ABOVE = 10_000;

export type PortPlan = Record<Environment, Record<ListenerKind, number>>;

export function portPlan(offset: number): PortPlan {
  const plan = {} as PortPlan;
  for (const environment of environments) {
    const above = (environment === "sandbox" ? SANDBOX_ABOVE : 0) + offset;
    plan[environment] = Object.fromEntries(
      Object.entries(PRODUCTION).map(([kind, port]) => [kind, port + above]),
    ) as Record<ListenerKind, number>;
  }
  return plan;
}
