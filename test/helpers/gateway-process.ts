import { spawn, type ChildProcess } from "node:child_process";
import dgram from "node:dgram";
import net from "node:net";
import { portPlan } from "@/server/devices/gateway/ports";
import { root, scriptArgs } from "./processes";

// `npm run gateway` as a process of the caller's own (a test's, on the suite's database:
// helpers/gateway.ts's gatewayEnv; or a benchmark's), on device ports of its own: the fixed ports
// moved by a DEVICE_PORT_OFFSET whose every port (TCP, and UDP for Teltonika) was found free.
// Offsets stay below the ephemeral range, so that no outgoing connection's port takes one of them
// meanwhile. No vitest here: the benchmarks run it too.

const FIRST_OFFSET = 1_000;
const LAST_OFFSET = 17_000; // 15055 + 17000 < 32768, where Linux's ephemeral ports begin

const tcpFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
const udpFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = dgram.createSocket("udp4");
    socket.once("error", () => resolve(false));
    socket.bind(port, "127.0.0.1", () => socket.close(() => resolve(true)));
  });

/** A DEVICE_PORT_OFFSET whose every device port is free on 127.0.0.1 now. */
export async function freeDeviceOffset(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const offset = FIRST_OFFSET + Math.floor(Math.random() * (LAST_OFFSET - FIRST_OFFSET));
    const plan = portPlan(offset);
    const checks = Object.values(plan).flatMap((ports) => [
      ...Object.entries(ports)
        .filter(([kind]) => kind !== "teltonika-udp")
        .map(([, port]) => tcpFree(port)),
      udpFree(ports["teltonika-udp"]),
    ]);
    if ((await Promise.all(checks)).every(Boolean)) return offset;
  }
  throw new Error("no device port offset with every port free");
}

export type GatewayProcess = { child: ChildProcess; output(): string; exited: Promise<number | null> };

/** Starts scripts/gateway.ts's bundle and resolves once it says it is running. */
export async function startGatewayProcess(env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<GatewayProcess> {
  let output = "";
  const child = spawn(process.execPath, scriptArgs("gateway.ts"), {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + timeoutMs;
  while (!output.includes("Wayline device gateway running")) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the gateway did not start within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return { child, output: () => output, exited };
}

/** Kills the process outright, as a crash would, and waits until it is gone. */
export async function killGateway(gateway: GatewayProcess): Promise<void> {
  if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill("SIGKILL");
  await gateway.exited;
}
