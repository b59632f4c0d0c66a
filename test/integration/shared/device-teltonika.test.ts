// @module-tag embedded
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytes, teltonikaPacket } from "@/test/helpers/device-reference";
import { contactOf, eventually, readAs, uniqueImei, vehicleForDevice } from "@/test/helpers/devices";
import {
  CAPTURED_8E_WAYPOINT,
  DeviceSocket,
  codec8eData,
  sendDatagram,
  startTestGateway,
  teltonikaDatagram,
  teltonikaImei,
  type TestGateway,
} from "@/test/helpers/gateway";
import { wireTime } from "@/test/helpers/telemetry";
// Codec 16 from Teltonika's protocol page: two records, 2019-07-10, no position.
import { WIKI_CODEC_16 } from "@/test/helpers/device-captures";

// Teltonika over real TCP and UDP on loopback (docs/devices.md#teltonika), against the gateway's
// listeners in this process and the suite's database, read back over the API: the IMEI handshake,
// each AVL packet acknowledged with its record count only once stored, a resend after a lost
// acknowledgement stored once, what closes a connection unanswered, and UDP's acknowledgement.
// Ingest underneath: both databases (the tag).

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw.stop();
});

const connect = () => DeviceSocket.connect(gw.port("sandbox", "teltonika"));
const secondsAgo = (base: number, s: number) => new Date(base - s * 1000);

async function identified(imei: string): Promise<DeviceSocket> {
  const device = await connect();
  device.send(teltonikaImei(imei));
  expect(await device.read(1)).toBe("01");
  return device;
}

describe("Teltonika over TCP", () => {
  it("a known IMEI is answered 01, each AVL packet with its record count, once its records are stored", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const device = await identified(imei);
    expect((await contactOf("sandbox", imei))?.connection).toEqual(expect.any(String));
    device.send(bytes(WIKI_CODEC_16));
    expect(await device.read(4)).toBe("00000002");
    const sets = (await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/?sortOrder=asc`))
      .dataSet as { timestamp: string; deviceId: string; datum: { key: string }[] }[];
    expect(sets.map((s) => s.timestamp)).toEqual(["20190710T120654+0000", "20190710T120655+0000"]);
    expect(sets[0]!.deviceId).toBe(imei);
    expect(sets[0]!.datum.map((d) => d.key)).toContain("DEVICE_GENERATION_TYPE");
    device.end();
    // The connection's end is noted: the device is no longer connected.
    await eventually(
      () => contactOf("sandbox", imei),
      (c) => c?.connection === null,
    );
  });

  it("a packet resent after its acknowledgement was lost is acknowledged again and stored once", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const base = Math.floor(Date.now() / 1000) * 1000;
    const packet = teltonikaPacket(codec8eData([secondsAgo(base, 30), secondsAgo(base, 20), secondsAgo(base, 10)]));
    const first = await identified(imei);
    first.send(packet);
    expect(await first.read(4)).toBe("00000003");
    first.end();
    const again = await identified(imei);
    again.send(packet);
    expect(await again.read(4)).toBe("00000003");
    again.end();
    const sets = (await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/?sortOrder=asc`))
      .dataSet as { timestamp: string; datum: { key: string; value: string }[] }[];
    expect(sets.map((s) => s.timestamp)).toEqual([30, 20, 10].map((s) => wireTime(secondsAgo(base, s))));
    expect(sets[0]!.datum.find((d) => d.key === "GEN_WAYPOINT")?.value).toBe(CAPTURED_8E_WAYPOINT);
    expect((await contactOf("sandbox", imei))?.records_on_day).toBe(3);
  });

  it("a handshake and packet arriving a byte at a time are answered as whole ones", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const device = await connect();
    const stream = [...teltonikaImei(imei), ...teltonikaPacket(codec8eData([new Date(Date.now() - 5_000)]))];
    for (const [i, byte] of stream.entries()) {
      device.send(Uint8Array.of(byte));
      if (i === 16) expect(await device.read(1)).toBe("01");
    }
    expect(await device.read(4)).toBe("00000001");
    device.end();
    expect((await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/`)).dataSet).toHaveLength(1);
  });

  it("an IMEI no vehicle names is answered 00 and closed, and remembered with its protocol", async () => {
    const imei = uniqueImei();
    const device = await connect();
    device.send(teltonikaImei(imei));
    expect(await device.closed()).toBe("00");
    expect(await contactOf("sandbox", imei)).toMatchObject({
      protocol: "teltonika",
      unknown_contacts: 1,
      last_refusal_reason: "no vehicle has this deviceId",
      connection: null,
    });
  });

  it("an IMEI no vehicle names, from a client that keeps its side open: the gateway lets go of it all the same", async () => {
    const socket = net.connect({ port: gw.port("sandbox", "teltonika"), host: "127.0.0.1", allowHalfOpen: true });
    const gone = new Promise<string>((resolve) => {
      socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      socket.on("close", () => resolve("closed"));
    });
    const answer = new Promise<string>((resolve) => socket.once("data", (d: Buffer) => resolve(d.toString("hex"))));
    const ended = new Promise<void>((resolve) => socket.once("end", () => resolve()));
    socket.write(teltonikaImei(uniqueImei()));
    expect(await answer).toBe("00");
    await ended;
    // This side stays open and goes on writing: once the gateway has let go of the socket, a
    // write is answered with a reset, well before the idle timeout (minutes) would have ended it.
    const writing = setInterval(() => socket.write(Uint8Array.of(0)), 250);
    try {
      expect(await gone).toMatch(/^(ECONNRESET|EPIPE|closed)$/);
    } finally {
      clearInterval(writing);
      socket.destroy();
    }
  });

  it("a packet whose CRC fails closes the connection unanswered; nothing of it is stored, the refusal is kept", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const device = await identified(imei);
    const packet = teltonikaPacket(codec8eData([new Date(Date.now() - 5_000)]));
    packet[packet.length - 1]! ^= 0xff;
    device.send(packet);
    expect(await device.closed()).toBe("");
    expect((await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/`)).dataSet).toHaveLength(0);
    await eventually(
      () => contactOf("sandbox", imei),
      (c) => c?.last_refusal_reason === "bad CRC",
    );
  });

  it("a length past 1,280 bytes, garbage before the IMEI, a record dated a day ahead: each closes the connection unanswered", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const long = await identified(imei);
    long.send(Uint8Array.of(0, 0, 0, 0, 0, 0, 0x05, 0x00));
    expect(await long.closed()).toBe("");
    const garbage = await connect();
    garbage.send(bytes("ffffffff"));
    expect(await garbage.closed()).toBe("");
    const ahead = await identified(imei);
    ahead.send(teltonikaPacket(codec8eData([new Date(Date.now() + 25 * 3600_000)])));
    expect(await ahead.closed()).toBe("");
    expect((await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/`)).dataSet).toHaveLength(0);
  });

  it("an idle connection is closed after the idle time", async () => {
    const imei = uniqueImei();
    await vehicleForDevice("sandbox", imei);
    const quick = await startTestGateway({ idleMs: 500 });
    try {
      const device = await DeviceSocket.connect(quick.port("sandbox", "teltonika"));
      device.send(teltonikaImei(imei));
      expect(await device.read(1)).toBe("01");
      const since = Date.now();
      expect(await device.closed()).toBe("");
      expect(Date.now() - since).toBeGreaterThanOrEqual(400);
    } finally {
      await quick.stop();
    }
  });

  it("the production listener answers for production's vehicles only", async () => {
    const imei = uniqueImei();
    await vehicleForDevice("sandbox", imei);
    const device = await DeviceSocket.connect(gw.port("production", "teltonika"));
    device.send(teltonikaImei(imei));
    expect(await device.closed()).toBe("00");
  });
});

describe("Teltonika over UDP", () => {
  const udpPort = () => gw.port("sandbox", "teltonika-udp");

  it("a datagram is answered with its packet id and record count once stored; a resend is stored once", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice("sandbox", imei);
    const base = Math.floor(Date.now() / 1000) * 1000;
    const datagram = teltonikaDatagram(
      imei,
      { packet: 0xcafe, avl: 7 },
      codec8eData([secondsAgo(base, 20), secondsAgo(base, 10)]),
    );
    expect(await sendDatagram(udpPort(), datagram)).toBe("0005cafe010702");
    expect(await sendDatagram(udpPort(), datagram)).toBe("0005cafe010702");
    const sets = (await readAs("sandbox", car.accessToken, `/vehicle/${car.vehicleId}/dataSet/`)).dataSet;
    expect(sets).toHaveLength(2);
    expect(await contactOf("sandbox", imei)).toMatchObject({ protocol: "teltonika", records_on_day: 2 });
  });

  it("a datagram of an IMEI no vehicle names, or one whose length field lies, is not answered", async () => {
    const imei = uniqueImei();
    const data = codec8eData([new Date(Date.now() - 5_000)]);
    expect(await sendDatagram(udpPort(), teltonikaDatagram(imei, { packet: 1, avl: 1 }, data), 1_500)).toBeNull();
    await eventually(
      () => contactOf("sandbox", imei),
      (c) => c?.unknown_contacts === 1,
    );
    await vehicleForDevice("sandbox", imei);
    const lying = teltonikaDatagram(imei, { packet: 2, avl: 2 }, data);
    lying[1]! += 1;
    expect(await sendDatagram(udpPort(), lying, 1_500)).toBeNull();
  });
});
