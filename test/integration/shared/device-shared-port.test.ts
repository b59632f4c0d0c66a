import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway } from "@/server/devices/gateway";
import type { ListenerKind, PortPlan } from "@/server/devices/gateway/ports";
import { bytes, teltonikaPacket } from "@/test/helpers/device-reference";
import { readAs, uniqueImei, vehicleForDevice } from "@/test/helpers/devices";
import {
  DeviceSocket,
  codec8eData,
  gt06Location,
  gt06Login,
  startTestGateway,
  teltonikaImei,
  type TestGateway,
} from "@/test/helpers/gateway";

// The port that speaks all three (docs/devices.md#one-port-for-all-three), over real sockets on
// loopback against the gateway in this process and the suite's database: each protocol told from
// its first bytes, however they are split, and bytes that fit none closed. And a port the gateway
// cannot have: the one listener fails with its reason, the others serve.

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw.stop();
});

const shared = () => DeviceSocket.connect(gw.port("sandbox", "shared"));

describe("the shared port", () => {
  it("a Teltonika device: its IMEI answered 01, its packet with the record count", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const device = await shared();
    // The opening in two pieces: the port waits for the bytes that decide.
    const opening = teltonikaImei(imei);
    device.send(opening.subarray(0, 5));
    device.send(opening.subarray(5));
    expect(await device.read(1)).toBe("01");
    device.send(teltonikaPacket(codec8eData([new Date(Date.now() - 10_000)])));
    expect(await device.read(4)).toBe("00000001");
    device.end();
    expect((await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/`)).dataSet).toHaveLength(1);
  });

  it("a GT06 device: its login and location answered", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const device = await shared();
    const login = gt06Login(imei, 1);
    device.send(login.subarray(0, 1));
    device.send(login.subarray(1));
    expect((await device.read(10)).slice(0, 8)).toBe("78780501");
    device.send(gt06Location(new Date(Date.now() - 10_000), 2));
    expect((await device.read(10)).slice(0, 8)).toBe("78780512");
    device.end();
    expect((await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/`)).dataSet).toHaveLength(1);
  });

  it("an OsmAnd request: answered as on the OsmAnd port, a second one on the same connection too", async () => {
    const id = uniqueImei();
    const car = await vehicleForDevice("sandbox", id);
    const device = await shared();
    const request = (seconds: number) =>
      bytes(
        Buffer.from(
          `POST /?id=${id}&lat=48.85&lon=2.35&timestamp=${Math.floor(Date.now() / 1000) - seconds} HTTP/1.1\r\nHost: devices\r\nContent-Length: 0\r\n\r\n`,
        ).toString("hex"),
      );
    const first = request(20);
    device.send(first.subarray(0, 2));
    device.send(first.subarray(2));
    const answer = /^HTTP\/1\.1 200 OK\r\n[\s\S]*?\r\n\r\n/;
    const read = async () => {
      let text = "";
      while (!answer.test(text)) text += Buffer.from(await device.read(1), "hex").toString("latin1");
      return text;
    };
    expect(await read()).toMatch(/Content-Length: 0/);
    device.send(request(10));
    expect(await read()).toMatch(answer);
    device.end();
    expect((await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/`)).dataSet).toHaveLength(2);
  });

  it("bytes that fit no protocol close the connection unanswered", async () => {
    for (const garbage of ["0000", "7877", "get / HTTP/1.1\r\n", "\x16\x03\x01"]) {
      const device = await shared();
      device.send(Buffer.from(garbage, garbage === "0000" || garbage === "7877" ? "hex" : "latin1"));
      expect(await device.closed(), garbage).toBe("");
    }
  });
});

describe("a port the gateway cannot have", () => {
  it("is one failed listener with its reason; the others listen and serve", async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    const any: Record<ListenerKind, number> = { osmand: 0, teltonika: 0, "teltonika-udp": 0, gt06: 0, shared: 0 };
    const ports: PortPlan = { production: { ...any }, sandbox: { ...any, teltonika: taken } };
    const gateway = await startGateway({ host: "127.0.0.1", ports, idleMs: 60_000 });
    try {
      expect(gateway.failed).toEqual([{ environment: "sandbox", kind: "teltonika", port: taken, code: "EADDRINUSE" }]);
      expect(gateway.listening).toHaveLength(9);
      const imei = uniqueImei();
      await vehicleForDevice("sandbox", imei);
      const port = gateway.listening.find((l) => l.environment === "sandbox" && l.kind === "shared")!.port;
      const device = await DeviceSocket.connect(port);
      device.send(teltonikaImei(imei));
      expect(await device.read(1)).toBe("01");
      device.end();
    } finally {
      await gateway.drain(5_000);
      holder.close();
    }
  });
});
