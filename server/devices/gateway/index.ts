import { environments, type Environment } from "@/db/schema";
import type { Env } from "@/server/platform/env";
import { logger } from "@/server/platform/log";
import { Gt06Session } from "./gt06-session";
import { listenOsmAnd, osmAndServer } from "./http";
import { portPlan, type ListenerKind, type PortPlan } from "./ports";
import { acceptShared } from "./shared-port";
import { listenTcp, type Listener } from "./tcp";
import { TeltonikaSession } from "./teltonika-session";
import { listenUdp } from "./udp";

// The device gateway (docs/devices.md#the-gateway): for each environment, a listener per protocol
// and the shared port, on the ports of the plan (ports.ts). Run by `npm start` beside the service
// and alone by `npm run gateway` (scripts/gateway.ts); as many processes as a host needs may run
// behind a TCP load balancer, since everything a connection's records depend on is in the database.
//
// A port that cannot be had (taken, or not ours to take) is one log line, and the rest runs on: the
// devices of that port cannot connect until it is free and the gateway restarted, the others can.
// drain() stops accepting, lets every connection finish and acknowledge what it has received, and
// closes them, within its bound.

export type GatewayOptions = { host: string; ports: PortPlan; idleMs: number };

/** The options the configuration gives (DEVICE_HOST, else HOST; DEVICE_PORT_OFFSET; DEVICE_IDLE_SECONDS). */
export function gatewayOptions(
  config: Pick<Env, "HOST" | "DEVICE_HOST" | "DEVICE_PORT_OFFSET" | "DEVICE_IDLE_SECONDS">,
): GatewayOptions {
  return {
    host: config.DEVICE_HOST ?? config.HOST,
    ports: portPlan(config.DEVICE_PORT_OFFSET),
    idleMs: config.DEVICE_IDLE_SECONDS * 1000,
  };
}

type Bound = { environment: Environment; kind: ListenerKind; port: number };

export type Gateway = {
  listening: Bound[];
  failed: (Bound & { code: string })[];
  /** True when every connection ended within `withinMs`. */
  drain(withinMs: number): Promise<boolean>;
};

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const { host, idleMs } = options;
  const listeners: Listener[] = [];
  const listening: Gateway["listening"] = [];
  const failed: Gateway["failed"] = [];
  const open = async (environment: Environment, kind: ListenerKind, start: (port: number) => Promise<Listener>) => {
    const port = options.ports[environment][kind];
    try {
      const listener = await start(port);
      listeners.push(listener);
      listening.push({ environment, kind, port: listener.port });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      failed.push({ environment, kind, port, code });
      logger.error(
        { environment, listener: kind, port, host, code },
        `device gateway: cannot listen on ${host}:${port} (${kind}, ${environment}): ${code}; its devices cannot connect, the rest runs on`,
      );
    }
  };

  for (const environment of environments) {
    const context = { environment, idleMs };
    const osmand = osmAndServer(environment, idleMs);
    await open(environment, "osmand", (port) => listenOsmAnd({ environment, port, host, osmand }));
    await open(environment, "teltonika", (port) =>
      listenTcp({ port, host, accept: (socket) => new TeltonikaSession(socket, context) }),
    );
    await open(environment, "teltonika-udp", (port) => listenUdp({ environment, port, host }));
    await open(environment, "gt06", (port) =>
      listenTcp({ port, host, accept: (socket) => new Gt06Session(socket, context) }),
    );
    await open(environment, "shared", (port) =>
      listenTcp({ port, host, accept: (socket) => acceptShared(socket, context, osmand.server) }),
    );
  }
  logger.info(
    { host, listening: listening.map((l) => `${l.environment} ${l.kind} ${l.port}`) },
    "device gateway listening",
  );

  return {
    listening,
    failed,
    async drain(withinMs) {
      const ended = await Promise.all(listeners.map((l) => l.drain(withinMs)));
      return ended.every(Boolean);
    },
  };
}
