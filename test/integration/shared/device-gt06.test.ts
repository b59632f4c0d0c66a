import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytes, gt06Frame, hexOf, referenceCrcItu } from "@/test/helpers/device-reference";
import { contactOf, eventually, readAs, uniqueImei, vehicleForDevice } from "@/test/helpers/devices";
import {
  DeviceSocket,
  gt06Heartbeat,
  gt06Location,
  gt06Login,
  startTestGateway,
  type TestGateway,
} from "@/test/helpers/gateway";
import { wireTime } from "@/test/helpers/telemetry";

// GT06 / Concox over real TCP on loopback (docs/devices.md#gt06--concox), against the gateway's
// listener in this process and the suite's database, read back over the API: the login answered
// only for a device a vehicle names, each location and heartbeat answered with the reply the
// device expects (its CRC-ITU judged by the test's own) once stored, and what closes a connection.
// (The device ingest beneath is the embedded pass's in device-ingest and device-teltonika.)

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw.stop();
});

const connect = () => DeviceSocket.connect(gw.port("sandbox", "gt06"));

/** The answer a device expects: 78 78 05, the message type, its serial, the CRC-ITU of length to serial, 0D 0A. */
function expectedReply(type: number, serial: number): string {
  const body = Uint8Array.of(0x05, type, serial >> 8, serial & 0xff);
  const crc = referenceCrcItu(body);
  return hexOf(Uint8Array.of(0x78, 0x78, ...body, crc >> 8, crc & 0xff, 0x0d, 0x0a));
}
const REPLY_BYTES = 10;

async function loggedIn(imei: string): Promise<DeviceSocket> {
  const device = await connect();
  device.send(gt06Login(imei, 1));
  expect(await device.read(REPLY_BYTES)).toBe(expectedReply(0x01, 1));
  return device;
}

describe("GT06 over TCP", () => {
  it("a login is answered when a vehicle names the device; each location and heartbeat once stored", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const device = await loggedIn(imei);
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    device.send(gt06Location(at, 2));
    expect(await device.read(REPLY_BYTES)).toBe(expectedReply(0x12, 2));
    device.send(gt06Heartbeat(3));
    expect(await device.read(REPLY_BYTES)).toBe(expectedReply(0x23, 3));
    device.end();

    const sets = (await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/?sortOrder=asc`))
      .dataSet as { timestamp: string; ignitionStatus: string; datum: { key: string; value: string }[] }[];
    expect(sets).toHaveLength(2);
    // The location's ACC is on: the first record with the ignition on is ON, the heartbeat's RUNNING.
    expect(sets[0]).toMatchObject({ timestamp: wireTime(at), ignitionStatus: "ON" });
    expect(sets[0]!.datum.map((d) => d.key)).toEqual(
      expect.arrayContaining(["GEN_WAYPOINT", "GEN_SPEED", "DEVICE_CELL"]),
    );
    expect(sets[1]!.ignitionStatus).toBe("RUNNING");
    expect(sets[1]!.datum).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: "DEVICE_BATTERY", value: "4.05" })]),
    );
    expect(await contactOf("sandbox", imei)).toMatchObject({ protocol: "gt06", records_on_day: 2, ignition: true });
  });

  it("a location resent after its answer was lost is answered again and stored once", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 30_000);
    for (let i = 0; i < 2; i++) {
      const device = await loggedIn(imei);
      device.send(gt06Location(at, 7));
      expect(await device.read(REPLY_BYTES)).toBe(expectedReply(0x12, 7));
      device.end();
    }
    expect((await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/`)).dataSet).toHaveLength(1);
  });

  it("a login no vehicle names is left unanswered and closed, and remembered", async () => {
    const imei = uniqueImei();
    const device = await connect();
    device.send(gt06Login(imei, 1));
    expect(await device.closed()).toBe("");
    expect(await contactOf("sandbox", imei)).toMatchObject({ protocol: "gt06", unknown_contacts: 1 });
  });

  it("a location before the login, a bad CRC, garbage: each closes the connection unanswered, nothing stored", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const before = await connect();
    before.send(gt06Location(new Date(Date.now() - 10_000), 1));
    expect(await before.closed()).toBe("");

    const badCrc = await loggedIn(imei);
    const frame = gt06Location(new Date(Date.now() - 10_000), 2);
    frame[frame.length - 3]! ^= 0xff;
    badCrc.send(frame);
    expect(await badCrc.closed()).toBe("");
    await eventually(
      () => contactOf("sandbox", imei),
      (c) => c?.last_refusal_reason === "bad CRC",
    );

    const garbage = await loggedIn(imei);
    garbage.send(bytes("0102030405"));
    expect(await garbage.closed()).toBe("");
    expect((await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/`)).dataSet).toHaveLength(0);
  });

  it("a message that carries nothing stored is answered at once in the short framing", async () => {
    const imei = uniqueImei();
    await vehicleForDevice("sandbox", imei);
    const device = await loggedIn(imei);
    // A time request (0x8A): nothing stored, answered with the reply frame.
    device.send(gt06Frame(0x8a, new Uint8Array(), 9));
    expect(await device.read(REPLY_BYTES)).toBe(expectedReply(0x8a, 9));
    device.end();
  });
});
