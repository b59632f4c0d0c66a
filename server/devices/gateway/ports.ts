import type { Environment } from "@/db/schema";

// The gateway's listeners, one per protocol and environment (docs/devices.md#ports), and the port
// each listens on.

export type ListenerKind = "osmand" | "teltonika" | "teltonika-udp" | "gt06" | "shared";

export type PortPlan = Record<Environment, Record<ListenerKind, number>>;
