import { describe, expect, it } from "vitest";
import type { DeviceRecord } from "@/server/devices/protocols/record";
import { CODEC_16, CODEC_8, CODEC_8_EXTENDED } from "@/server/devices/protocols/teltonika/codecs";
import {
  type AvlRecord,
  avlRecordOf,
  type Codec,
  encodeAvlData,
  encodeImei,
  encodeTcpPacket,
  encodeUdpDatagram,
} from "@/server/devices/protocols/teltonika/encode";
import { decodeTcpPacket, splitTcpFrames } from "@/server/devices/protocols/teltonika/frames";
import { decodeUdpDatagram } from "@/server/devices/protocols/teltonika/udp";
import {
  TRACCAR_HANDSHAKE,
  WIKI_CODEC_16,
  WIKI_CODEC_8,
  WIKI_CODEC_8E,
  WIKI_UDP_CODEC_8,
  WIKI_UDP_CODEC_8E,
} from "@/test/helpers/device-captures";
import { bytes, hexOf, referenceCrcIbm } from "@/test/helpers/device-reference";

// The encoder is judged by the decoder (codecs.ts, frames.ts, udp.ts) and by real captures: what
// it makes from a capture's records is the capture, and what it makes from records decodes to them.

const now = new Date("2026-12-07T12:00:00Z");
const imei = "352093086403655";

function decodePacket(packet: Uint8Array) {
  const split = splitTcpFrames(packet, { identified: true });
  expect(split).toMatchObject({ refusal: null, rest: new Uint8Array() });
  const frame = split.frames[0]!;
  if (split.frames.length !== 1 || frame.kind !== "avl") throw new Error("expected one AVL packet");
  const decoded = decodeTcpPacket(frame.packet, { deviceId: imei, now });
  if ("refused" in decoded) throw new Error(decoded.refused);
  return decoded;
}

const packetOf = (codec: Codec, records: DeviceRecord[]) =>
  encodeTcpPacket(encodeAvlData(codec, records.map(avlRecordOf)));

/** Records in what Teltonika carries: a position in 1/10,000,000 degree, whole km/h, metres, degrees. */
function records(codec: Codec): DeviceRecord[] {
  const base = (n: number): DeviceRecord => ({
    deviceId: imei,
    fixTime: new Date(Date.UTC(2026, 11, 7, 11, 0, n, 250)),
    position: { latitude: 39.9612345 + n / 1e7, longitude: -83.0007891 },
    valid: true,
    speedKnots: (48 * 1000) / 1852, // 48 km/h, as the decoder computes it
    course: 271,
    altitude: -12,
    ignition: true,
    odometerMeters: 1_234_567,
    powerMillivolts: 13_900,
    attributes: {
      PRIORITY: 1,
      SATELLITES: 11,
      EVENT_IO: 239,
      ...(codec === CODEC_16 ? { GENERATION_TYPE: 7 } : {}),
      IO_21: 4,
      IO_240: 1,
      IO_67: 4012,
      IO_241: 310_410,
      IO_11: 893_700_218,
      IO_78: "18446744073709551615", // 2^64 - 1: kept as text past 2^53
    },
  });
  return [
    base(0),
    // Parked without a fix: no position (0,0 on the wire), the ignition off, no satellites.
    {
      ...base(1),
      position: null,
      valid: false,
      speedKnots: 0,
      course: 0,
      altitude: 0,
      ignition: false,
      attributes: { PRIORITY: 0, SATELLITES: 0, EVENT_IO: 0, ...(codec === CODEC_16 ? { GENERATION_TYPE: 5 } : {}) },
    },
    // Southern and eastern, IO ids past 255 where the codec names them in two bytes.
    {
      ...base(2),
      position: { latitude: -33.8688197, longitude: 151.2092955 },
      attributes: {
        PRIORITY: 2,
        SATELLITES: 7,
        EVENT_IO: 0,
        ...(codec === CODEC_16 ? { GENERATION_TYPE: 0 } : {}),
        ...(codec !== CODEC_8 ? { IO_385: 17, IO_1148: 65_000 } : {}),
        ...(codec === CODEC_8_EXTENDED ? { IO_256: Buffer.from("1A1JC5444R7252367").toString("hex"), IO_281: "" } : {}),
      },
    },
  ];
}

describe("Teltonika encoder: real captures, byte for byte", () => {
  it("the IMEI opening (Traccar)", () => {
    expect(hexOf(encodeImei("123456789012345"))).toBe(TRACCAR_HANDSHAKE.toLowerCase());
  });

  it("Codec 8 and 8 Extended packets (wiki), from the records they decode to", () => {
    for (const [capture, codec] of [
      [WIKI_CODEC_8, CODEC_8],
      [WIKI_CODEC_8E, CODEC_8_EXTENDED],
    ] as const) {
      const { records } = decodePacket(bytes(capture));
      expect(hexOf(packetOf(codec, records))).toBe(capture.toLowerCase());
    }
  });

  it("UDP datagrams in Codec 8 and 8 Extended (wiki), from their records and header", () => {
    for (const [capture, codec, avlPacketId] of [
      [WIKI_UDP_CODEC_8, CODEC_8, 0x05],
      [WIKI_UDP_CODEC_8E, CODEC_8_EXTENDED, 0x07],
    ] as const) {
      const decoded = decodeUdpDatagram(bytes(capture), { now });
      if ("refused" in decoded) throw new Error(decoded.refused);
      const data = encodeAvlData(codec, decoded.records.map(avlRecordOf));
      const datagram = encodeUdpDatagram({ packetId: 0xcafe, avlPacketId, imei: decoded.deviceId, data });
      expect(hexOf(datagram)).toBe(capture.toLowerCase());
    }
  });

  it("Codec 16 (wiki) from its fields, IO 11 two bytes wide as that device sent it", () => {
    const record = (second: number, io11: number): AvlRecord => ({
      time: new Date(Date.UTC(2019, 6, 10, 12, 6, second)),
      priority: 0,
      longitude: 0,
      latitude: 0,
      altitude: 0,
      angle: 0,
      satellites: 0,
      speedKmh: 0,
      eventIo: 11,
      generationType: 5,
      io: [
        { id: 1, width: 1, value: 0 },
        { id: 3, width: 1, value: 0 },
        { id: 11, width: 2, value: io11 },
        { id: 66, width: 2, value: 22074 },
      ],
    });
    const data = encodeAvlData(CODEC_16, [record(54, 39), record(55, 38)]);
    expect(hexOf(encodeTcpPacket(data))).toBe(WIKI_CODEC_16.toLowerCase());
  });
});

describe("Teltonika encoder: what it makes decodes to the records it was made from", () => {
  for (const [name, codec] of [
    ["Codec 8", CODEC_8],
    ["Codec 8 Extended", CODEC_8_EXTENDED],
    ["Codec 16", CODEC_16],
  ] as const) {
    it(`${name} over TCP: three records in one packet, acknowledged with 3, the CRC the catalogue's`, () => {
      const made = records(codec);
      const packet = packetOf(codec, made);
      const data = packet.subarray(8, packet.length - 4);
      expect(new DataView(packet.buffer).getUint32(packet.length - 4)).toBe(referenceCrcIbm(data));
      const decoded = decodePacket(packet);
      expect(hexOf(decoded.reply)).toBe("00000003");
      // The decoder dates records to the millisecond, as the wire does.
      expect(decoded.records).toEqual(made);
    });

    it(`${name} over UDP: the IMEI and records back, answered with the ids and the count`, () => {
      const made = records(codec);
      const data = encodeAvlData(codec, made.map(avlRecordOf));
      const decoded = decodeUdpDatagram(encodeUdpDatagram({ packetId: 0x1234, avlPacketId: 0x56, imei, data }), {
        now,
      });
      if ("refused" in decoded) throw new Error(decoded.refused);
      expect(decoded.deviceId).toBe(imei);
      expect(decoded.records).toEqual(made);
      expect(hexOf(decoded.reply)).toBe("0005123401" + "56" + "03");
    });
  }

  it("a record that names no satellites claims 4 with a fix and none without", () => {
    const record: DeviceRecord = {
      deviceId: imei,
      fixTime: now,
      position: { latitude: 1, longitude: 2 },
      valid: true,
      attributes: {},
    };
    expect(avlRecordOf(record).satellites).toBe(4);
    expect(avlRecordOf({ ...record, valid: false }).satellites).toBe(0);
  });
});

describe("Teltonika encoder: what the wire cannot say is refused, not wrapped", () => {
  const record: DeviceRecord = {
    deviceId: imei,
    fixTime: now,
    position: null,
    valid: false,
    attributes: { IO_300: 1 },
  };

  it("an IO id past 255 in Codec 8, a variable-length element outside 8 Extended", () => {
    expect(() => encodeAvlData(CODEC_8, [avlRecordOf(record)])).toThrow(RangeError);
    expect(() =>
      encodeAvlData(CODEC_16, [avlRecordOf({ ...record, attributes: { IO_256: Buffer.from("VIN").toString("hex") } })]),
    ).toThrow(/Codec 8 Extended's alone/);
  });

  it("an IO value that is neither a number nor hex, a time before 1970, an IMEI that is not 1–20 digits", () => {
    expect(() => avlRecordOf({ ...record, attributes: { IO_5: "not hex" } })).toThrow(RangeError);
    expect(() => encodeAvlData(CODEC_8, [avlRecordOf({ ...record, attributes: {}, fixTime: new Date(-1) })])).toThrow(
      RangeError,
    );
    for (const bad of ["", "35209308640365x", "1".repeat(21)]) expect(() => encodeImei(bad)).toThrow(RangeError);
  });
});
