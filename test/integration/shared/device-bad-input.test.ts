import http from "node:http";
import net from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeLogin } from "@/server/devices/protocols/gt06/encode";
import type { ListenerKind } from "@/server/devices/gateway/ports";
import { encodeImei } from "@/server/devices/protocols/teltonika/encode";
import { bytes, gt06Frame, teltonikaPacket } from "@/test/helpers/device-reference";
import { gt06Case, osmandCase, teltonikaTcpCase, teltonikaUdpCase } from "@/test/helpers/device-fuzz";
import { testSql, type Env } from "@/test/helpers/api";
import { uniqueDevice } from "@/test/helpers/fixtures";
import { contactOf, eventually, readAs, uniqueImei, vehicleForDevice } from "@/test/helpers/devices";
import {
  DeviceSocket,
  codec8eData,
  gt06Location,
  gt06Login,
  sendDatagram,
  startTestGateway,
  teltonikaDatagram,
  teltonikaImei,
  type TestGateway,
} from "@/test/helpers/gateway";

// Bad device input over real sockets (docs/devices.md#tests, the contract's "Bad input"): against
// the gateway's listeners in this process and the suite's database, each protocol is sent random
// bytes, a frame cut short, the largest length field, a bad CRC, an id of 100 digits, an impossible
// coordinate and a record dated more than 24 h ahead. Each gets the protocol's refusal (the
// connection closed unanswered, no datagram back, 400), nothing of it is stored, and well-behaved
// devices on other connections are acknowledged meanwhile. Then a packet split byte by byte over a
// few seconds (DEVICE_SPLIT_SECONDS), 1,000 idle connections, streams that never end a frame, and
// a few hundred mutated frames a protocol from the fuzz generators (the 10,000-frame suite runs on
// the pure decoders in the unit project). FUZZ_SEED replays the mutations, DEVICE_SOCKET_FUZZ_FRAMES
// sets how many a protocol.

const ENV: Env = "sandbox";
const SEED =
  process.env.FUZZ_SEED === "random" ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 19);
const SOCKET_FUZZ = Number(process.env.DEVICE_SOCKET_FUZZ_FRAMES ?? 200);
const SPLIT_SECONDS = Number(process.env.DEVICE_SPLIT_SECONDS ?? 3);
console.log(
  `device bad input: FUZZ_SEED=${SEED} DEVICE_SOCKET_FUZZ_FRAMES=${SOCKET_FUZZ} DEVICE_SPLIT_SECONDS=${SPLIT_SECONDS}`,
);

let gw: TestGateway;
/** Devices that behave, each on a connection of its own kept open through the file. */
let peers: { teltonika: DeviceSocket; gt06: DeviceSocket; osmandId: string };
let peerRecords = 0;
const peerBase = Date.now() - 3600_000;
/** A record time no earlier test used: the peers' records are all stored, each once. */
const nextPeerTime = () => new Date(peerBase + ++peerRecords * 1000);

beforeAll(async () => {
  gw = await startTestGateway();
  const teltonikaImeiOk = uniqueImei();
  const gt06ImeiOk = uniqueImei();
  const osmandId = uniqueDevice();
  await Promise.all([
    vehicleForDevice(ENV, teltonikaImeiOk),
    vehicleForDevice(ENV, gt06ImeiOk),
    vehicleForDevice(ENV, osmandId),
  ]);
  const teltonika = await DeviceSocket.connect(gw.port(ENV, "teltonika"));
  teltonika.send(teltonikaImei(teltonikaImeiOk));
  expect(await teltonika.read(1)).toBe("01");
  const gt06 = await DeviceSocket.connect(gw.port(ENV, "gt06"));
  gt06.send(gt06Login(gt06ImeiOk, 1));
  await gt06.read(GT06_REPLY);
  peers = { teltonika, gt06, osmandId };
});
afterAll(async () => {
  peers?.teltonika.end();
  peers?.gt06.end();
  await gw.stop();
});

const GT06_REPLY = 10;

/** Each well-behaved device reports a record and is acknowledged for it. */
async function peersAcknowledged(): Promise<void> {
  const teltonika = (async () => {
    peers.teltonika.send(teltonikaPacket(codec8eData([nextPeerTime()])));
    expect(await peers.teltonika.read(4)).toBe("00000001");
  })();
  const gt06 = (async () => {
    peers.gt06.send(gt06Location(nextPeerTime(), peerRecords & 0xffff));
    expect(await peers.gt06.read(GT06_REPLY)).toMatch(/^78780512/);
  })();
  const osmand = (async () => {
    const at = Math.floor(nextPeerTime().getTime() / 1000);
    const res = await fetch(`${osmandUrl()}/?id=${peers.osmandId}&lat=1&lon=2&timestamp=${at}`);
    expect(res.status).toBe(200);
  })();
  await Promise.all([teltonika, gt06, osmand]);
}

const osmandUrl = () => `http://127.0.0.1:${gw.port(ENV, "osmand")}`;
const dataSets = async (car: { accessToken: string; vehicleId: number }) =>
  (await readAs(ENV, car.accessToken, `/vehicle/${car.vehicleId}/dataSet/`)).dataSet as unknown[];
const seededBytes = (seed: number, minLength: number) =>
  fc.sample(fc.uint8Array({ minLength, maxLength: 400 }), { seed, numRuns: 1 })[0]!;
const dayAhead = () => new Date(Date.now() + 25 * 3600_000);
const recent = () => new Date(Date.now() - 5_000);

/** The captured Codec 8 Extended record with its latitude (1e-7 degrees, after time, priority and longitude) set. */
function teltonikaDataAt(latitude: number): Uint8Array {
  const data = codec8eData([recent()]);
  new DataView(data.buffer).setInt32(2 + 8 + 1 + 4, Math.round(latitude * 1e7));
  return data;
}

/** A GT06 GPS+LBS location with its latitude (1/1,800,000 minute units, after date and satellites) set. */
function gt06LocationAt(latitude: number, serial: number): Uint8Array {
  const frame = gt06Location(recent(), serial);
  const content = frame.slice(4, frame.length - 6);
  new DataView(content.buffer).setUint32(7, Math.round(latitude * 1_800_000));
  return gt06Frame(0x12, content, serial);
}

/** An id longer than any protocol allows (Teltonika takes 20 digits at most, a GT06 login 16, a vehicle 64). */
const hundredDigits = () => uniqueImei().padEnd(100, "7");

describe("Teltonika over TCP: bad input", () => {
  const connect = () => DeviceSocket.connect(gw.port(ENV, "teltonika"));
  const header = (length: number) => {
    const out = new Uint8Array(8);
    new DataView(out.buffer).setUint32(4, length);
    return out;
  };
  const cases: [string, () => Uint8Array][] = [
    ["random bytes", () => Uint8Array.of(0xa5, ...seededBytes(SEED, 16))],
    ["a length field of 2^32 - 1", () => header(0xffffffff)],
    [
      "a bad CRC",
      () => {
        const packet = teltonikaPacket(codec8eData([recent()]));
        packet[packet.length - 2]! ^= 0x5a;
        return packet;
      },
    ],
    ["a latitude of 95 degrees", () => teltonikaPacket(teltonikaDataAt(95))],
    ["a record dated 25 h ahead", () => teltonikaPacket(codec8eData([dayAhead()]))],
  ];

  it.each(cases)(
    "%s after the IMEI: closed unanswered, nothing stored, other devices acknowledged",
    async (_, make) => {
      const imei = uniqueImei();
      const car = await vehicleForDevice(ENV, imei);
      const device = await connect();
      device.send(teltonikaImei(imei));
      expect(await device.read(1)).toBe("01");
      device.send(make());
      const [answer] = await Promise.all([device.closed(), peersAcknowledged()]);
      expect(answer).toBe("");
      expect(await dataSets(car)).toHaveLength(0);
    },
  );

  it("random bytes, or an IMEI of 100 digits, instead of the IMEI: closed, never answered 01, no contact kept", async () => {
    const random = await connect();
    random.send(Uint8Array.of(0xa5, ...seededBytes(SEED + 1, 16)));
    const hundred = hundredDigits();
    const long = await connect();
    long.send(teltonikaImei(hundred));
    const [randomAnswer, longAnswer] = await Promise.all([random.closed(), long.closed(), peersAcknowledged()]);
    expect(randomAnswer).toBe("");
    expect(longAnswer).toBe("");
    expect(await contactOf(ENV, hundred)).toBeUndefined();
  });

  it("a packet cut short, then the device gone: nothing stored, the connection's end noted", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice(ENV, imei);
    const device = await connect();
    device.send(teltonikaImei(imei));
    expect(await device.read(1)).toBe("01");
    const packet = teltonikaPacket(codec8eData([recent()]));
    device.send(packet.subarray(0, packet.length - 5));
    await peersAcknowledged();
    device.end();
    await eventually(
      () => contactOf(ENV, imei),
      (c) => c?.connection === null,
    );
    expect(await dataSets(car)).toHaveLength(0);
  });

  it(`a valid packet sent byte by byte over ${SPLIT_SECONDS} s is acknowledged once and stored once`, async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice(ENV, imei);
    const device = await connect();
    device.send(teltonikaImei(imei));
    expect(await device.read(1)).toBe("01");
    const packet = teltonikaPacket(codec8eData([recent()]));
    const pause = (SPLIT_SECONDS * 1000) / packet.length;
    for (const byte of packet) {
      device.send(Uint8Array.of(byte));
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    expect(await device.read(4)).toBe("00000001");
    // Nothing more comes: one acknowledgement for the one packet.
    await peersAcknowledged();
    device.end();
    expect(await device.closed()).toBe("");
    expect(await dataSets(car)).toHaveLength(1);
  });
});

describe("Teltonika over UDP: bad input", () => {
  it("random bytes, an IMEI of 100 digits, a latitude of 95, a record 25 h ahead: no answer, nothing stored", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice(ENV, imei);
    const port = gw.port(ENV, "teltonika-udp");
    const hundred = hundredDigits();
    const datagrams = [
      Uint8Array.of(0xa5, ...seededBytes(SEED + 2, 16)),
      teltonikaDatagram(hundred, { packet: 1, avl: 1 }, codec8eData([recent()])),
      teltonikaDatagram(imei, { packet: 2, avl: 2 }, teltonikaDataAt(95)),
      teltonikaDatagram(imei, { packet: 3, avl: 3 }, codec8eData([dayAhead()])),
    ];
    const [answers] = await Promise.all([
      Promise.all(datagrams.map((d) => sendDatagram(port, d, 1_500))),
      peersAcknowledged(),
    ]);
    expect(answers).toEqual([null, null, null, null]);
    expect(await dataSets(car)).toHaveLength(0);
    expect(await contactOf(ENV, hundred)).toBeUndefined();
  });
});

describe("GT06 over TCP: bad input", () => {
  const connect = () => DeviceSocket.connect(gw.port(ENV, "gt06"));
  const cases: [string, () => Uint8Array][] = [
    ["random bytes", () => Uint8Array.of(0xa5, ...seededBytes(SEED + 3, 16))],
    ["the largest long length (79 79 FF FF)", () => bytes("7979ffff")],
    [
      "a bad CRC",
      () => {
        const frame = gt06Location(recent(), 2);
        frame[frame.length - 4]! ^= 0x5a;
        return frame;
      },
    ],
    ["a latitude of 95 degrees", () => gt06LocationAt(95, 2)],
    ["a record dated 25 h ahead", () => gt06Location(dayAhead(), 2)],
  ];

  it.each(cases)(
    "%s after the login: closed unanswered, nothing stored, other devices acknowledged",
    async (_, make) => {
      const imei = uniqueImei();
      const car = await vehicleForDevice(ENV, imei);
      const device = await connect();
      device.send(gt06Login(imei, 1));
      await device.read(GT06_REPLY);
      device.send(make());
      const [answer] = await Promise.all([device.closed(), peersAcknowledged()]);
      expect(answer).toBe("");
      expect(await dataSets(car)).toHaveLength(0);
    },
  );

  it("a login of 100 digits, and random bytes before any login: closed unanswered", async () => {
    const hundred = hundredDigits();
    const long = await connect();
    long.send(gt06Frame(0x01, bytes(hundred), 1));
    const random = await connect();
    random.send(Uint8Array.of(0xa5, ...seededBytes(SEED + 4, 16)));
    const [longAnswer, randomAnswer] = await Promise.all([long.closed(), random.closed(), peersAcknowledged()]);
    expect(longAnswer).toBe("");
    expect(randomAnswer).toBe("");
    expect(await contactOf(ENV, hundred)).toBeUndefined();
  });

  it("a location cut short, then the device gone: nothing stored", async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice(ENV, imei);
    const device = await connect();
    device.send(gt06Login(imei, 1));
    await device.read(GT06_REPLY);
    const frame = gt06Location(recent(), 2);
    device.send(frame.subarray(0, frame.length - 3));
    await peersAcknowledged();
    device.end();
    await eventually(
      () => contactOf(ENV, imei),
      (c) => c?.connection === null,
    );
    expect(await dataSets(car)).toHaveLength(0);
  });
});

describe("OsmAnd over HTTP: bad input", () => {
  it("an id of 100 digits, a latitude of 95, a record 25 h ahead: 400 with the reason, nothing stored", async () => {
    const id = uniqueDevice();
    const car = await vehicleForDevice(ENV, id);
    const hundred = hundredDigits();
    const ahead = Math.floor(dayAhead().getTime() / 1000);
    const [long, latitude, future] = await Promise.all([
      fetch(`${osmandUrl()}/?id=${hundred}&lat=1&lon=2`),
      fetch(`${osmandUrl()}/?id=${id}&lat=95&lon=2`),
      fetch(`${osmandUrl()}/?id=${id}&lat=1&lon=2&timestamp=${ahead}`),
      peersAcknowledged(),
    ]);
    expect([long.status, latitude.status, future.status]).toEqual([400, 400, 400]);
    expect(await long.text()).toBe("no vehicle has this deviceId");
    expect(await contactOf(ENV, hundred)).toBeUndefined();
    expect(await latitude.text()).toBe("impossible latitude");
    expect(await future.text()).toMatch(/future|ahead/);
    expect(await dataSets(car)).toHaveLength(0);
  });

  it("random bytes: 400 and closed; a request cut short, then the app gone: nothing stored", async () => {
    const id = uniqueDevice();
    const car = await vehicleForDevice(ENV, id);
    const random = await DeviceSocket.connect(gw.port(ENV, "osmand"));
    random.send(Uint8Array.of(0x01, ...seededBytes(SEED + 5, 16), 0x0d, 0x0a, 0x0d, 0x0a));
    const cut = await DeviceSocket.connect(gw.port(ENV, "osmand"));
    cut.send(Buffer.from(`POST /?id=${id}&lat=1&lon=2 HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\nbatt=`));
    const [answer] = await Promise.all([random.closed(), peersAcknowledged()]);
    expect(Buffer.from(answer, "hex").toString("latin1")).toMatch(/^HTTP\/1\.1 400 /);
    cut.end();
    await peersAcknowledged();
    expect(await dataSets(car)).toHaveLength(0);
  });
});

/** Writes `opening`, then `filler` (2 MiB at most) until the gateway closes the connection; false when it has not within 10 s. */
function streamUntilClosed(port: number, opening: Uint8Array, filler: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunk = Buffer.alloc(16 * 1024, filler);
    let written = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 10_000);
    socket.on("error", () => {});
    socket.resume(); // reading, as a device does: that is how the gateway's close is seen
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(true);
    });
    const next = (error?: Error | null) => {
      if (error || socket.destroyed || written >= 2 * 1024 * 1024) return;
      written += chunk.length;
      socket.write(chunk, next);
    };
    socket.write(opening, next);
  });
}

describe("connections that never end a frame, and 1,000 that send nothing", () => {
  it("2 MiB without a frame's end, on each TCP port: the gateway closes the connection", async () => {
    const imei = uniqueImei();
    await vehicleForDevice(ENV, imei);
    const teltonikaHeader = Uint8Array.of(...teltonikaImei(imei), 0, 0, 0, 0, 0, 0, 0x04, 0xf0);
    const port = (kind: ListenerKind) => gw.port(ENV, kind);
    const [teltonika, unknownImei, gt06, sharedHttp, sharedLetters, osmand] = await Promise.all([
      streamUntilClosed(port("teltonika"), teltonikaHeader, 0xaa),
      streamUntilClosed(port("teltonika"), teltonikaImei(uniqueImei()), 0x00),
      streamUntilClosed(port("gt06"), bytes("7878ff"), 0xaa),
      streamUntilClosed(port("shared"), Buffer.from("GET /?id="), 0x61),
      streamUntilClosed(port("shared"), new Uint8Array(), 0x41),
      streamUntilClosed(port("osmand"), Buffer.from("GET /?id="), 0x61),
    ]);
    const results = { teltonika, unknownImei, gt06, sharedHttp, sharedLetters, osmand };
    expect(results).toEqual({
      teltonika: true,
      unknownImei: true,
      gt06: true,
      sharedHttp: true,
      sharedLetters: true,
      osmand: true,
    });
    await peersAcknowledged();
  });

  it("1,000 idle connections to the shared and the Teltonika port: a device is still answered, the idle ones closed after the idle time", async () => {
    const idleMs = 2_000;
    const quick = await startTestGateway({ idleMs });
    const idle: net.Socket[] = [];
    try {
      const closedAll = [];
      for (let i = 0; i < 1_000; i++) {
        const port = quick.port(ENV, i % 2 === 0 ? "shared" : "teltonika");
        const socket = net.connect(port, "127.0.0.1");
        socket.on("error", () => {});
        idle.push(socket);
        closedAll.push(new Promise<void>((resolve) => socket.once("close", () => resolve())));
      }
      await Promise.all(idle.map((s) => new Promise((resolve) => s.once("connect", resolve))));
      const opened = Date.now();
      const imei = uniqueImei();
      const car = await vehicleForDevice(ENV, imei);
      const device = await DeviceSocket.connect(quick.port(ENV, "teltonika"));
      device.send(teltonikaImei(imei));
      expect(await device.read(1)).toBe("01");
      device.send(teltonikaPacket(codec8eData([recent()])));
      expect(await device.read(4)).toBe("00000001");
      device.end();
      expect(await dataSets(car)).toHaveLength(1);
      await Promise.race([
        Promise.all(closedAll),
        new Promise((_, reject) => setTimeout(() => reject(new Error("idle connections still open")), idleMs + 15_000)),
      ]);
      expect(Date.now() - opened).toBeGreaterThanOrEqual(idleMs - 500);
    } finally {
      for (const socket of idle) socket.destroy();
      await quick.stop();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Mutated frames over the sockets

/** Runs `each` on the items, `size` at a time. */
async function inBatches<T>(items: T[], size: number, each: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(each));
}

/** Waits for the gateway to close `device`, at most `ms`; true when it did. */
async function closedWithin(device: DeviceSocket, ms: number): Promise<boolean> {
  try {
    await device.closed(ms);
    return true;
  } catch {
    return false;
  }
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The record times stored for the vehicle, in whole seconds. */
async function storedSeconds(vehicleId: number): Promise<number[]> {
  const rows = await testSql()<{ at: Date }[]>`select recorded_at as at from data_sets where vehicle_id = ${vehicleId}`;
  return rows.map((r) => seconds(r.at));
}

/**
 * The record times of a fuzz run's frames: of those left as made (stored), of mutated ones that may
 * have survived whole ("any": bits flipped back, bytes spliced in after the frame's end: stored only
 * as made, which the unit suite's decoders check), and of those that must be refused or waited for.
 */
const timeSets = () => ({ allowed: new Set<number>(), whole: new Set<number>(), refused: new Set<number>() });
const times = (records: { fixTime: Date }[] | null) => (records ?? []).map((r) => seconds(r.fixTime));

/** The stored times that no frame left as made, or surviving whole, explains; or that a refused frame carried. */
function unexpected(stored: number[], sets: ReturnType<typeof timeSets>): number[] {
  return stored.filter((at) => !sets.allowed.has(at) && (sets.refused.has(at) || !sets.whole.has(at)));
}

const mutatedOnly = <T extends { mutation: unknown }>(arbitrary: fc.Arbitrary<T>) =>
  fc.sample(
    arbitrary.filter((c) => c.mutation !== null),
    { seed: SEED, numRuns: SOCKET_FUZZ },
  );

describe("mutated frames over the sockets", () => {
  it(`Teltonika TCP: ${SOCKET_FUZZ} streams with a mutated packet; refused ones closed, nothing mutated stored`, async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice(ENV, imei);
    const { allowed, whole, refused } = timeSets();
    const cases = mutatedOnly(teltonikaTcpCase);
    await inBatches(cases, 20, async (c) => {
      const { at, expect: expected } = c.mutation!;
      c.records.forEach((records, i) => {
        const set = i !== at ? allowed : expected === "any" ? whole : refused;
        for (const t of times(records)) set.add(t);
      });
      const device = await DeviceSocket.connect(gw.port(ENV, "teltonika"));
      device.send(Buffer.concat([encodeImei(imei), ...c.frames.slice(1)]));
      const mustClose = expected === "refused" || expected === "bad CRC";
      const closed = await closedWithin(device, mustClose ? 10_000 : 300);
      if (mustClose) expect(closed, c.mutation!.kind).toBe(true);
      device.end();
    });
    await peersAcknowledged();
    expect(unexpected(await storedSeconds(car.vehicleId), { allowed, whole, refused })).toEqual([]);
  });

  it(`GT06: ${SOCKET_FUZZ} streams with a mutated frame; refused ones closed, nothing mutated stored`, async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice(ENV, imei);
    const { allowed, whole, refused } = timeSets();
    const cases = mutatedOnly(gt06Case);
    const started = seconds(new Date());
    await inBatches(cases, 20, async (c) => {
      const { at, expect: expected } = c.mutation!;
      c.records.forEach((records, i) => {
        const set = i !== at ? allowed : expected === "any" ? whole : refused;
        for (const t of times(records)) set.add(t);
      });
      const login = at === 0 ? c.frames[0]! : encodeLogin(imei, { serial: 1, long: c.frames[0]![0] === 0x79 });
      const device = await DeviceSocket.connect(gw.port(ENV, "gt06"));
      device.send(Buffer.concat([login, ...c.frames.slice(1)]));
      const mustClose = expected === "refused" || expected === "bad CRC";
      const closed = await closedWithin(device, mustClose ? 10_000 : 300);
      if (mustClose) expect(closed, c.mutation!.kind).toBe(true);
      device.end();
    });
    await peersAcknowledged();
    // A heartbeat carries no time: its record is stamped on arrival, within the test's span.
    const ended = seconds(new Date());
    for (let at = started; at <= ended; at++) allowed.add(at);
    expect(unexpected(await storedSeconds(car.vehicleId), { allowed, whole, refused })).toEqual([]);
  });

  it(`Teltonika UDP: ${SOCKET_FUZZ} mutated datagrams; the refused ones unanswered and not stored`, async () => {
    const imei = uniqueImei();
    const car = await vehicleForDevice(ENV, imei);
    const answered = new Set<number>();
    const refusedTimes = new Set<number>();
    const cases = mutatedOnly(teltonikaUdpCase);
    await inBatches(cases, 25, async (c) => {
      const datagram = Buffer.from(c.datagram);
      // The device's IMEI in place of the case's, wherever the mutation left it whole.
      const from = Buffer.from(c.imei);
      for (let i = datagram.indexOf(from); i >= 0; i = datagram.indexOf(from, i + 1)) datagram.write(imei, i, "latin1");
      const answer = await sendDatagram(gw.port(ENV, "teltonika-udp"), datagram, 300);
      const times = c.records.map((r) => seconds(r.fixTime));
      if (c.mutation!.expect === "refused") {
        expect(answer, c.mutation!.kind).toBeNull();
        for (const t of times) refusedTimes.add(t);
      } else if (answer !== null) for (const t of times) answered.add(t);
    });
    await peersAcknowledged();
    for (const at of await storedSeconds(car.vehicleId))
      expect(refusedTimes.has(at) && !answered.has(at), `stored ${at}`).toBe(false);
  });

  it(`OsmAnd: ${SOCKET_FUZZ} mutated requests; each answered 200 or 400, never more stored than answered 200`, async () => {
    const id = uniqueDevice().replace(/[^A-Za-z0-9]/g, "");
    const car = await vehicleForDevice(ENV, id);
    const cases = mutatedOnly(osmandCase);
    const statuses: number[] = [];
    await inBatches(cases, 10, async (c) => {
      const original = c.records[0]!.deviceId;
      const swap = (text: string) =>
        [
          new URLSearchParams({ id: original }).toString().slice(3),
          encodeURIComponent(original),
          JSON.stringify(original).slice(1, -1),
        ].reduce((t, from) => t.split(from).join(id), text);
      const body = Buffer.from(swap(Buffer.from(c.request.body).toString("latin1")), "latin1");
      const headers: http.OutgoingHttpHeaders = { "Content-Length": body.length };
      if (c.request.contentType !== null) headers["Content-Type"] = c.request.contentType;
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: "127.0.0.1",
            port: gw.port(ENV, "osmand"),
            method: c.request.method,
            path: swap(c.request.url) || "/",
            headers,
            agent: false,
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
      if (c.mutation!.expect === "refused") expect(status, c.mutation!.kind).toBe(400);
      statuses.push(status);
    });
    expect(statuses.filter((s) => s !== 200 && s !== 400)).toEqual([]);
    await peersAcknowledged();
    expect((await storedSeconds(car.vehicleId)).length).toBeLessThanOrEqual(statuses.filter((s) => s === 200).length);
  });
});
