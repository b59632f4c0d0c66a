import { describe, expect, it } from "vitest";
import { dataPointsOf } from "@/server/devices/protocols/data-points";
import { decodeTcpPacket, splitTcpFrames } from "@/server/devices/protocols/teltonika/frames";
import { handshakeReply } from "@/server/devices/protocols/teltonika/replies";
import { decodeUdpDatagram } from "@/server/devices/protocols/teltonika/udp";
import { bytes, hexOf, referenceCrcIbm, teltonikaPacket } from "@/test/helpers/device-reference";
import {
  WIKI_CODEC_8,
  WIKI_CODEC_8E,
  WIKI_CODEC_16,
  WIKI_UDP_CODEC_8,
  WIKI_UDP_CODEC_8E,
  WIKI_UDP_CODEC_16,
  TRACCAR_HANDSHAKE,
  TRACCAR_CODEC_8_MOVING,
  TRACCAR_CODEC_8E_VIN,
  TRACCAR_CODEC_12,
  TRACCAR_BAD_LENGTH,
  TRACCAR_UDP,
} from "@/test/helpers/device-captures";

// The real captures, each with its source, are in test/helpers/device-captures.ts.

const now = new Date("2026-12-07T12:00:00Z");
const context = { deviceId: "352093086403655", now };

function decodeOne(hex: string) {
  const split = splitTcpFrames(bytes(hex), { identified: true });
  expect(split.refusal).toBeNull();
  expect(split.rest.length).toBe(0);
  const frame = split.frames[0]!;
  if (frame.kind !== "avl") throw new Error("expected an AVL packet");
  const decoded = decodeTcpPacket(frame.packet, context);
  if ("refused" in decoded) throw new Error(decoded.refused);
  return decoded;
}

/** A Codec 8 record with the given position and time, no IO elements, as AVL data. */
function codec8Data(at: Date, latitude: number, longitude: number): Uint8Array {
  const data = new Uint8Array(2 + 30 + 1);
  const view = new DataView(data.buffer);
  data[0] = 0x08;
  data[1] = 1;
  view.setBigUint64(2, BigInt(at.getTime()));
  view.setInt32(11, Math.round(longitude * 1e7));
  view.setInt32(15, Math.round(latitude * 1e7));
  data[23] = 7; // satellites
  data[32] = 1;
  return data;
}

describe("Teltonika CRC", () => {
  it("the reference CRC-16/IBM gives the catalogue's check value, and each capture's CRC is its own", () => {
    expect(referenceCrcIbm(new TextEncoder().encode("123456789"))).toBe(0xbb3d);
    for (const hex of [WIKI_CODEC_8, WIKI_CODEC_8E, WIKI_CODEC_16, TRACCAR_CODEC_8_MOVING, TRACCAR_CODEC_8E_VIN]) {
      const packet = bytes(hex);
      const data = packet.subarray(8, packet.length - 4);
      expect(new DataView(packet.buffer).getUint32(packet.length - 4)).toBe(referenceCrcIbm(data));
    }
  });
});

describe("Teltonika TCP handshake", () => {
  it("the IMEI frame is read and answered 01 for a known device, 00 for an unknown one", () => {
    const split = splitTcpFrames(bytes(TRACCAR_HANDSHAKE), { identified: false });
    expect(split).toEqual({
      frames: [{ kind: "imei", imei: "123456789012345" }],
      rest: new Uint8Array(),
      refusal: null,
    });
    expect(hexOf(handshakeReply(true))).toBe("01");
    expect(hexOf(handshakeReply(false))).toBe("00");
  });

  it("the IMEI and the first packet in one read are two frames; a part of either waits for more", () => {
    const both = bytes(TRACCAR_HANDSHAKE + WIKI_CODEC_8);
    const split = splitTcpFrames(both, { identified: false });
    expect(split.frames.map((f) => f.kind)).toEqual(["imei", "avl"]);
    for (const cut of [1, 10, 17, 20, both.length - 1]) {
      const part = splitTcpFrames(both.subarray(0, cut), { identified: false });
      expect(part.refusal).toBeNull();
      expect(part.frames.length + part.rest.length > 0).toBe(true);
      expect(part.frames.length).toBe(cut >= 17 ? 1 : 0);
      expect(part.rest.length).toBe(cut >= 17 ? cut - 17 : cut);
    }
  });

  it("refuses AVL data before the IMEI, an IMEI too long, and one that is not digits", () => {
    expect(splitTcpFrames(bytes(WIKI_CODEC_8), { identified: false }).refusal).toBe("AVL data before the IMEI");
    expect(splitTcpFrames(bytes("0040" + "31".repeat(64)), { identified: false }).refusal).toBe("an IMEI of 64 bytes");
    expect(splitTcpFrames(bytes("000f" + "41".repeat(15)), { identified: false }).refusal).toBe(
      "an IMEI that is not digits",
    );
  });
});

describe("Teltonika AVL packets over TCP", () => {
  it("Codec 8 (wiki): time, no fix, IO 66 as volts, the other IO as DEVICE_IO_<n>, acknowledged with 1", () => {
    const { records, reply } = decodeOne(WIKI_CODEC_8);
    expect(hexOf(reply)).toBe("00000001");
    expect(records).toHaveLength(1);
    const record = records[0]!;
    expect(record.fixTime.toISOString()).toBe("2019-06-10T10:04:46.000Z");
    expect(record.position).toBeNull(); // 0,0: the device has no fix yet
    expect(record.valid).toBe(false);
    expect(record.powerMillivolts).toBe(24079);
    expect(record.attributes).toEqual({
      PRIORITY: 1,
      SATELLITES: 0,
      EVENT_IO: 1,
      IO_21: 3,
      IO_1: 1,
      IO_241: 24602,
      IO_78: 0,
    });
    expect(dataPointsOf(record)).toEqual([
      { key: "GEN_SPEED", value: "0" },
      { key: "GEN_HEADING", value: "0" },
      { key: "GEN_VOLTAGE", value: "24.079" },
      { key: "DEVICE_ALTITUDE", value: "0" },
      { key: "DEVICE_PRIORITY", value: "1" },
      { key: "DEVICE_SATELLITES", value: "0" },
      { key: "DEVICE_EVENT_IO", value: "1" },
      { key: "DEVICE_IO_21", value: "3" },
      { key: "DEVICE_IO_1", value: "1" },
      { key: "DEVICE_IO_241", value: "24602" },
      { key: "DEVICE_IO_78", value: "0" },
    ]);
  });

  it("Codec 8 (Traccar, a vehicle driving): position, speed in mph, heading, IO 239 as ignition", () => {
    const record = decodeOne(TRACCAR_CODEC_8_MOVING).records[0]!;
    expect(record.fixTime.toISOString()).toBe("2017-09-25T03:17:54.000Z");
    expect(record.position).toEqual({ latitude: 56.8255366, longitude: 60.4544333 });
    expect(record.valid).toBe(true);
    expect(record).toMatchObject({ altitude: 311, course: 95, ignition: true, powerMillivolts: 14375 });
    expect(record.speedKnots).toBeCloseTo(95 / 1.852, 9); // 95 km/h
    const points = dataPointsOf(record);
    expect(points.slice(0, 5)).toEqual([
      { key: "GEN_WAYPOINT", value: "56.825537,60.454433" },
      { key: "GEN_SPEED", value: "59" }, // 95 km/h is 59.03 mph
      { key: "GEN_HEADING", value: "95" },
      { key: "GEN_VOLTAGE", value: "14.375" },
      { key: "DEVICE_ALTITUDE", value: "311" },
    ]);
    expect(points.map((p) => p.key)).not.toContain("DEVICE_IO_239");
    expect(points).toContainEqual({ key: "DEVICE_SATELLITES", value: "18" });
    expect(points).toContainEqual({ key: "DEVICE_IO_67", value: "3927" });
    expect(points).toContainEqual({ key: "DEVICE_IO_206", value: "6611" });
  });

  it("Codec 8 Extended (wiki): two-byte IO ids, IO 16 as the odometer in miles", () => {
    const { records, reply } = decodeOne(WIKI_CODEC_8E);
    expect(hexOf(reply)).toBe("00000001");
    const record = records[0]!;
    expect(record.fixTime.toISOString()).toBe("2019-06-10T11:36:32.000Z");
    expect(record.odometerMeters).toBe(22949000);
    expect(record.attributes).toMatchObject({ IO_1: 1, IO_17: 29, IO_11: 893700218, IO_14: 500686954 });
    expect(dataPointsOf(record)).toContainEqual({ key: "GEN_ODOMETER", value: "14259.847" }); // 22,949 km
  });

  it("Codec 8 Extended (Traccar): a variable-length element (IO 256, the VIN) as hex, IO 239 off", () => {
    const record = decodeOne(TRACCAR_CODEC_8E_VIN).records[0]!;
    expect(record.fixTime.toISOString()).toBe("2018-11-05T10:26:18.000Z");
    expect(record.position).toEqual({ latitude: 54.6708533, longitude: 25.2545883 });
    expect(record.ignition).toBe(false);
    expect(record.powerMillivolts).toBe(12508);
    expect(record.attributes.IO_256).toBe(Buffer.from("1A1JC5444R7252367").toString("hex"));
  });

  it("Codec 16 (wiki): two records with their generation type, acknowledged with 2", () => {
    const { records, reply } = decodeOne(WIKI_CODEC_16);
    expect(hexOf(reply)).toBe("00000002");
    expect(records.map((r) => r.fixTime.toISOString())).toEqual([
      "2019-07-10T12:06:54.000Z",
      "2019-07-10T12:06:55.000Z",
    ]);
    expect(records.map((r) => r.attributes)).toEqual([
      { PRIORITY: 0, SATELLITES: 0, EVENT_IO: 11, GENERATION_TYPE: 5, IO_1: 0, IO_3: 0, IO_11: 39 },
      { PRIORITY: 0, SATELLITES: 0, EVENT_IO: 11, GENERATION_TYPE: 5, IO_1: 0, IO_3: 0, IO_11: 38 },
    ]);
    expect(records.map((r) => r.powerMillivolts)).toEqual([22074, 22074]);
  });

  it("several packets in one read are split; a packet cut anywhere waits for the rest", () => {
    const stream = bytes(WIKI_CODEC_8 + WIKI_CODEC_16 + WIKI_CODEC_8E);
    const split = splitTcpFrames(stream, { identified: true });
    expect(split.refusal).toBeNull();
    expect(split.frames).toHaveLength(3);
    expect(split.rest.length).toBe(0);
    const first = bytes(WIKI_CODEC_8).length;
    for (let cut = 0; cut < first; cut++) {
      const part = splitTcpFrames(stream.subarray(0, cut), { identified: true });
      expect(part).toEqual({ frames: [], rest: stream.subarray(0, cut), refusal: null });
    }
    const partial = splitTcpFrames(stream.subarray(0, first + 9), { identified: true });
    expect(partial.frames).toHaveLength(1);
    expect(partial.rest.length).toBe(9);
  });

  it("a bad CRC is refused: not acknowledged, nothing stored", () => {
    const packet = bytes(WIKI_CODEC_8);
    packet[30] = packet[30]! ^ 0x01; // one bit of the data
    expect(decodeTcpPacket(packet, context)).toEqual({ refused: "bad CRC" });
    const crc = bytes(WIKI_CODEC_8);
    crc[crc.length - 1] = crc[crc.length - 1]! ^ 0xff;
    expect(decodeTcpPacket(crc, context)).toEqual({ refused: "bad CRC" });
  });

  it("a length field over 1,280 bytes a packet, or too short for any data, is refused", () => {
    expect(splitTcpFrames(bytes("00000000000004f5"), { identified: true }).refusal).toBe(
      "an AVL packet of 1281 bytes (at most 1280)",
    );
    // 1,280 exactly is taken: its bytes are awaited.
    expect(splitTcpFrames(bytes("00000000000004f4"), { identified: true }).refusal).toBeNull();
    expect(splitTcpFrames(bytes("00000000000004f5"), { identified: true, maxPacketBytes: 2000 }).refusal).toBeNull();
    expect(splitTcpFrames(bytes(TRACCAR_BAD_LENGTH), { identified: true }).refusal).toBe(
      "an AVL packet too short for its codec and counts",
    );
  });

  it("garbage after the handshake is refused at its first byte", () => {
    expect(splitTcpFrames(new TextEncoder().encode("GET / HTTP/1.1\r\n"), { identified: true }).refusal).toBe(
      "no AVL packet preamble",
    );
    expect(splitTcpFrames(bytes("0000ff"), { identified: true }).refusal).toBe("no AVL packet preamble");
    const after = splitTcpFrames(bytes(WIKI_CODEC_8 + "17"), { identified: true });
    expect(after.frames).toHaveLength(1);
    expect(after.refusal).toBe("no AVL packet preamble");
  });

  it("malformed AVL data under a good CRC is refused: an unsupported codec, counts that differ, short data", () => {
    const codec12 = splitTcpFrames(bytes(TRACCAR_CODEC_12), { identified: true }).frames[0]!;
    if (codec12.kind !== "avl") throw new Error("expected an AVL packet");
    expect(decodeTcpPacket(codec12.packet, context)).toEqual({ refused: "unsupported codec 0x0c" });

    const data = bytes(WIKI_CODEC_8).subarray(8, -4);
    const counts = data.slice();
    counts[counts.length - 1] = 2;
    expect(decodeTcpPacket(teltonikaPacket(counts), context)).toEqual({ refused: "the two record counts differ" });
    expect(decodeTcpPacket(teltonikaPacket(data.subarray(0, 20)), context)).toEqual({
      refused: "AVL data shorter than its records",
    });
    expect(decodeTcpPacket(teltonikaPacket(Uint8Array.of(...data, 0)), context)).toEqual({
      refused: "bytes after the AVL data",
    });
  });

  it("an impossible coordinate or a record more than 24 h ahead refuses the packet; 23 h ahead is taken", () => {
    const at = new Date(now.getTime() + 23 * 3600_000);
    const ok = decodeTcpPacket(teltonikaPacket(codec8Data(at, 51.5, -0.12)), context);
    expect("records" in ok && ok.records[0]!.position).toEqual({ latitude: 51.5, longitude: -0.12 });
    expect(decodeTcpPacket(teltonikaPacket(codec8Data(now, 95, 10)), context)).toEqual({
      refused: "impossible latitude",
    });
    expect(decodeTcpPacket(teltonikaPacket(codec8Data(now, 10, -181)), context)).toEqual({
      refused: "impossible longitude",
    });
    const late = new Date(now.getTime() + 24 * 3600_000 + 1000);
    expect(decodeTcpPacket(teltonikaPacket(codec8Data(late, 51.5, -0.12)), context)).toEqual({
      refused: "record dated more than 24 h ahead",
    });
  });
});

describe("Teltonika over UDP", () => {
  it("Codec 8 (wiki): the IMEI from the datagram, answered with its packet id, AVL packet id and count", () => {
    const decoded = decodeUdpDatagram(bytes(WIKI_UDP_CODEC_8), { now });
    if ("refused" in decoded) throw new Error(decoded.refused);
    expect(decoded.deviceId).toBe("352093086403655");
    expect(hexOf(decoded.reply)).toBe("0005cafe010501");
    expect(decoded.records[0]!.fixTime.toISOString()).toBe("2019-06-13T06:23:26.000Z");
    expect(decoded.records[0]!.powerMillivolts).toBe(23996);
  });

  it("Codec 8 Extended and 16 (wiki), and a moving vehicle (Traccar)", () => {
    const extended = decodeUdpDatagram(bytes(WIKI_UDP_CODEC_8E), { now });
    expect("reply" in extended && hexOf(extended.reply)).toBe("0005cafe010701");
    expect("records" in extended && extended.records[0]!.odometerMeters).toBe(22949000);
    const codec16 = decodeUdpDatagram(bytes(WIKI_UDP_CODEC_16), { now });
    if ("refused" in codec16) throw new Error(codec16.refused);
    expect(codec16.deviceId).toBe("352094085231592");
    expect(hexOf(codec16.reply)).toBe("0005cafe010101");
    expect(codec16.records[0]).toMatchObject({ ignition: true, powerMillivolts: 4378 });
    expect(codec16.records[0]!.fixTime.toISOString()).toBe("2015-11-18T00:00:01.000Z");

    const moving = decodeUdpDatagram(bytes(TRACCAR_UDP), { now });
    if ("refused" in moving) throw new Error(moving.refused);
    expect(moving.deviceId).toBe("357454072713975");
    expect(hexOf(moving.reply)).toBe("0005cafe012201");
    expect(moving.records[0]!.position).toEqual({ latitude: 51.630115, longitude: 0.4124566 });
    expect(moving.records[0]!.fixTime.toISOString()).toBe("2017-07-12T15:24:41.000Z");
  });

  it("a length field that is not the datagram's, a cut datagram or a bad IMEI is refused", () => {
    const datagram = bytes(WIKI_UDP_CODEC_8);
    expect(decodeUdpDatagram(datagram.subarray(0, datagram.length - 1), { now })).toEqual({
      refused: "a length field of 61 for 60 bytes",
    });
    expect(decodeUdpDatagram(datagram.subarray(0, 5), { now })).toEqual({
      refused: "a length field of 61 for 3 bytes",
    });
    expect(decodeUdpDatagram(bytes("0004cafe01"), { now })).toEqual({ refused: "a length field of 4 for 3 bytes" });
    expect(decodeUdpDatagram(bytes("0003cafe01"), { now })).toEqual({ refused: "a datagram shorter than its header" });
    const letters = datagram.slice();
    letters[9] = 0x41;
    expect(decodeUdpDatagram(letters, { now })).toEqual({ refused: "an IMEI that is not digits" });
  });
});
