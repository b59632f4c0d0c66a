import type { Environment } from "@/db/schema";
import { env } from "@/server/platform/env";
import { publicOrigin } from "@/server/platform/request/public-origin";
import { devicePorts, type PortKind } from "./device-ports";

// What a driver types into a tracker or a phone app (docs/devices.md#seeing-the-device): the host
// and the port of its protocol. The host comes from configuration, never from the request's Host
// (which the client chooses, docs/operations.md#public-url): DEVICE_PUBLIC_HOST where devices reach
// the gateway under a name of their own (a TCP load balancer beside the site's HTTPS proxy), else
// the host of the public origin.

export type DeviceEndpoints = { host: string; ports: Record<PortKind, number> };

export function deviceEndpoints(environment: Environment): DeviceEndpoints {
  const { DEVICE_PUBLIC_HOST, DEVICE_PORT_OFFSET } = env();
  return {
    host: DEVICE_PUBLIC_HOST ?? new URL(publicOrigin()).hostname,
    ports: devicePorts(environment, DEVICE_PORT_OFFSET),
  };
}
