import net from "node:net";
import { afterEach, describe, expect, inject, it } from "vitest";
import { portPlan } from "@/server/devices/gateway/ports";
import { readAs, uniqueImei, vehicleForDevice } from "@/test/helpers/devices";
import { DeviceSocket, codec8eData, gatewayEnv, teltonikaImei } from "@/test/helpers/gateway";
import {
  freeDeviceOffset,
  killGateway,
  startGatewayProcess,
  type GatewayProcess,
} from "@/test/helpers/gateway-process";
import { teltonikaPacket } from "@/test/helpers/device-reference";
import { startApp, type RunningApp } from "@/test/helpers/processes";
import { resendingTracker } from "@/test/helpers/teltonika-device";
import { wireTime } from "@/test/helpers/telemetry";

// The gateway as the processes that run it (docs/devices.md#the-gateway): `npm run gateway` alone,
// killed outright (SIGKILL) in the middle of a packet and right after one while a tracker that
// resends what was not acknowledged keeps sending, and restarted: every record it sent is stored
// exactly once. SIGTERM drains: the packet in flight is stored and acknowledged before the process
// exits 0. And `npm start` runs the gateway beside the service, on the ports DEVICE_PORT_OFFSET
// moves, a port already taken being one log line while the rest runs on. Each process on the
// suite's database, on device ports found free (helpers/gateway-process.ts).

const running: GatewayProcess[] = [];
let service: RunningApp | undefined;
afterEach(async () => {
  await Promise.all(running.splice(0).map(killGateway));
  await service?.stop();
  service = undefined;
});

async function gatewayOn(offset: number): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(gatewayEnv(offset));
  running.push(gateway);
  return gateway;
}

/** `count` packets of `size` records, a second apart, ending a minute ago. */
function packetTimes(count: number, size: number): Date[][] {
  const end = Math.floor(Date.now() / 1000) * 1000 - 60_000;
  const first = end - count * size * 1000;
  return Array.from({ length: count }, (_, p) =>
    Array.from({ length: size }, (_, r) => new Date(first + (p * size + r) * 1000)),
  );
}

async function storedTimes(car: { accessToken: string; vehicleId: number }): Promise<string[]> {
  const page = await readAs(
    "sandbox",
    car.accessToken,
    `/vehicle/${car.vehicleId}/dataSet/?sortOrder=asc&searchLimit=500`,
  );
  return (page.dataSet as { timestamp: string }[]).map((s) => s.timestamp);
}

describe("npm run gateway", () => {
  it("killed with SIGKILL mid-packet and after a packet, then restarted: every record the tracker sent is stored exactly once", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const offset = await freeDeviceOffset();
    const port = portPlan(offset).sandbox.teltonika;
    let gateway = await gatewayOn(offset);
    const crash = async () => {
      await killGateway(gateway);
      gateway = await gatewayOn(offset);
    };
    const packets = packetTimes(24, 5);
    const tracker = resendingTracker({
      port: () => port,
      imei,
      packets,
      // Half a packet written, then the process gone: nothing of it may be stored or acknowledged.
      midPacket: (i) => (i === 5 || i === 17 ? crash() : undefined),
      // A whole packet written and the process killed at once: stored or not, never twice.
      afterPacket: (i) => (i === 11 ? crash() : undefined),
    });
    await tracker.done;
    expect(tracker.attempts[5]).toBeGreaterThan(1);
    expect(tracker.attempts[17]).toBeGreaterThan(1);
    expect(tracker.connections()).toBeGreaterThanOrEqual(4);
    const sent = packets.flat().map(wireTime);
    expect(await storedTimes(car)).toEqual(sent);
  });

  it("SIGTERM drains: the packet in flight is stored and acknowledged, and the process exits 0", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const offset = await freeDeviceOffset();
    const port = portPlan(offset).sandbox.teltonika;
    const gateway = await gatewayOn(offset);
    const device = await DeviceSocket.connect(port);
    device.send(teltonikaImei(imei));
    expect(await device.read(1)).toBe("01");
    const times = packetTimes(1, 3)[0]!;
    device.send(teltonikaPacket(codec8eData(times)));
    gateway.child.kill("SIGTERM");
    expect(await device.read(4)).toBe("00000003");
    expect(await device.closed()).toBe("");
    expect(await gateway.exited).toBe(0);
    expect(await storedTimes(car)).toEqual(times.map(wireTime));
    // Stopped accepting: nothing listens there now.
    await expect(DeviceSocket.connect(port)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe.skipIf(inject("embedded"))("npm start", () => {
  it("runs the gateway beside the service; a port already taken is one log line, and the rest runs on", async () => {
    const offset = await freeDeviceOffset();
    const plan = portPlan(offset);
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(plan.sandbox.gt06, "127.0.0.1", resolve));
    try {
      // On the suite's PostgreSQL, so that the suite's service makes the vehicle this one's gateway sees.
      service = await startApp({
        name: "gateway-in-start",
        databaseUrl: inject("databaseUrl"),
        extraEnv: { DEVICE_GATEWAY: "on", DEVICE_HOST: "127.0.0.1", DEVICE_PORT_OFFSET: String(offset) },
      });
      const failures = service
        .output()
        .split("\n")
        .filter((line) => line.includes("device gateway: cannot listen"));
      expect(failures).toHaveLength(1);
      expect(failures[0]).toContain(`127.0.0.1:${plan.sandbox.gt06} (gt06, sandbox): EADDRINUSE`);
      expect(service.output()).toContain(`sandbox osmand ${plan.sandbox.osmand}`);
      expect((await fetch(`${service.baseUrl}/api/health`)).status).toBe(200);

      const imei = uniqueImei();
      const car = await vehicleForDevice("sandbox", imei);
      const device = await DeviceSocket.connect(plan.sandbox.teltonika);
      device.send(teltonikaImei(imei));
      expect(await device.read(1)).toBe("01");
      const times = packetTimes(1, 2)[0]!;
      device.send(teltonikaPacket(codec8eData(times)));
      expect(await device.read(4)).toBe("00000002");
      device.end();
      expect(await storedTimes(car)).toEqual(times.map(wireTime));
    } finally {
      holder.close();
    }
  });
});
