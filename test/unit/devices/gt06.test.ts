import { describe, expect, it } from "vitest";
import { dataPointsOf } from "@/server/devices/protocols/data-points";
import { MAX_LONG_FRAME, splitFrames } from "@/server/devices/protocols/gt06/frames";
import { decodeFrame } from "@/server/devices/protocols/gt06/messages";
import { bytes, gt06Content, gt06Frame, hexOf, referenceCrcItu } from "@/test/helpers/device-reference";
import {
  LOGIN,
  LOGIN_LEADING_ZERO,
  LOGIN_WITH_TIME_ZONE,
  STATUS,
  GPS,
  GPS_LBS,
  GPS_LBS_IGNITION_ON,
  GPS_LBS_ACC,
  ALARM_VIBRATION,
  ALARM_POWER_CUT,
  ALARM_ZEROED_CELLS,
  ALARM_STATUS_2,
  TIME_REQUEST,
  LONG_INFO,
  ZERO_LENGTH,
} from "@/test/helpers/device-captures";

// The real captures, each with its source, are in test/helpers/device-captures.ts.

const now = new Date("2026-12-07T12:00:00Z");
const session = { deviceId: "864717003283581", now };

function decodeRecord(hex: string) {
  const split = splitFrames(bytes(hex));
  expect(split).toMatchObject({ refusal: null, rest: new Uint8Array() });
  const message = decodeFrame(split.frames[0]!, session);
  if ("refused" in message) throw new Error(message.refused);
  if (message.kind !== "records") throw new Error(`expected records, got ${message.kind}`);
  return { record: message.records[0]!, reply: message.reply };
}

/** The reply a device expects: 78 78 05, the type, the serial, CRC-ITU of length to serial, 0D 0A. */
function expectedReply(type: number, serial: number): string {
  const body = Uint8Array.of(0x05, type, serial >> 8, serial & 0xff);
  const crc = referenceCrcItu(body);
  return hexOf(Uint8Array.of(0x78, 0x78, ...body, crc >> 8, crc & 0xff, 0x0d, 0x0a));
}

/** A capture with its content changed at one offset, its CRC computed again. */
function withContentByte(hex: string, offset: number, value: number): Uint8Array {
  const frame = bytes(hex);
  const content = gt06Content(frame).slice();
  content[offset] = value;
  return gt06Frame(frame[3]!, content, new DataView(frame.buffer).getUint16(frame.length - 6));
}

describe("GT06 CRC-ITU", () => {
  it("the reference CRC-16/X-25 gives the catalogue's check value, and each capture's CRC is its own", () => {
    expect(referenceCrcItu(new TextEncoder().encode("123456789"))).toBe(0x906e);
    for (const hex of [LOGIN, STATUS, GPS, GPS_LBS, GPS_LBS_ACC, ALARM_POWER_CUT, ALARM_ZEROED_CELLS, LONG_INFO]) {
      const frame = bytes(hex);
      const crc = new DataView(frame.buffer).getUint16(frame.length - 4);
      expect(crc).toBe(referenceCrcItu(frame.subarray(2, frame.length - 4)));
    }
  });
});

describe("GT06 framing", () => {
  it("splits frames by their length byte (7878) or bytes (7979); a frame cut anywhere waits for the rest", () => {
    const stream = bytes(LOGIN + GPS_LBS + LONG_INFO + STATUS);
    const split = splitFrames(stream);
    expect(split.refusal).toBeNull();
    expect(split.frames.map(hexOf)).toEqual([LOGIN, GPS_LBS, LONG_INFO, STATUS].map((h) => h.toLowerCase()));
    const login = bytes(LOGIN).length;
    for (let cut = 1; cut < login; cut++)
      expect(splitFrames(stream.subarray(0, cut))).toMatchObject({ frames: [], refusal: null });
    const partial = splitFrames(stream.subarray(0, login + 7));
    expect(partial.frames).toHaveLength(1);
    expect(partial.rest.length).toBe(7);
  });

  it("refuses garbage, a length below a message's, a long frame over its bound and a frame without 0D 0A", () => {
    expect(splitFrames(new TextEncoder().encode("GET / HTTP/1.1")).refusal).toBe("no 7878 or 7979 start");
    expect(splitFrames(bytes("7879")).refusal).toBe("no 7878 or 7979 start");
    expect(splitFrames(bytes(ZERO_LENGTH)).refusal).toBe("a length of 0");
    expect(splitFrames(bytes("787801080d0a")).refusal).toBe("a length of 1");
    expect(splitFrames(bytes("79790401")).refusal).toBe(`a length of 1025 (at most ${MAX_LONG_FRAME})`);
    expect(splitFrames(bytes("79790400")).refusal).toBeNull();
    const noStop = bytes(LOGIN);
    noStop[noStop.length - 1] = 0x0b;
    expect(splitFrames(noStop).refusal).toBe("no 0D0A after the frame's length");
    const after = splitFrames(bytes(LOGIN + "00"));
    expect(after.frames).toHaveLength(1);
    expect(after.refusal).toBe("no 7878 or 7979 start");
  });

  it("a bad CRC is refused: not answered, nothing stored", () => {
    const frame = bytes(GPS_LBS);
    frame[10] = frame[10]! ^ 0x01;
    expect(decodeFrame(frame, session)).toEqual({ refused: "bad CRC" });
  });
});

describe("GT06 login", () => {
  it("the IMEI from 8 BCD bytes is its 15 digits, answered with the type and serial", () => {
    const login = decodeFrame(bytes(LOGIN), { deviceId: null, now });
    expect(login).toEqual({ kind: "login", deviceId: "864717003283581", reply: bytes(expectedReply(0x01, 0x0009)) });
    const withZone = decodeFrame(bytes(LOGIN_WITH_TIME_ZONE), { deviceId: null, now });
    expect(withZone).toMatchObject({ kind: "login", deviceId: "863586038760942" });
    expect("reply" in withZone && hexOf(withZone.reply!)).toBe(expectedReply(0x01, 0x010a));
  });

  it("leading zeros: one 0 before 15 digits is padding, the IMEI's own zeros stay", () => {
    expect(decodeFrame(bytes(LOGIN_LEADING_ZERO), { deviceId: null, now })).toMatchObject({
      deviceId: "123456789012345",
    });
    const zeroImei = gt06Frame(0x01, bytes("0012345678901234"), 1);
    expect(decodeFrame(zeroImei, { deviceId: null, now })).toMatchObject({ deviceId: "012345678901234" });
    const sixteen = gt06Frame(0x01, bytes("1234567890123456"), 1);
    expect(decodeFrame(sixteen, { deviceId: null, now })).toMatchObject({ deviceId: "1234567890123456" });
    expect(decodeFrame(gt06Frame(0x01, bytes("0a12345678901234"), 1), { deviceId: null, now })).toEqual({
      refused: "a login whose terminal id is not BCD digits",
    });
    expect(decodeFrame(gt06Frame(0x01, bytes("0864"), 1), { deviceId: null, now })).toEqual({
      refused: "a message 0x1 shorter than its fields",
    });
  });

  it("anything but a login before the login is refused", () => {
    expect(decodeFrame(bytes(GPS_LBS), { deviceId: null, now })).toEqual({ refused: "a message before the login" });
  });
});

describe("GT06 locations", () => {
  it("GPS (0x10): time, position, speed and course, answered", () => {
    const { record, reply } = decodeRecord(GPS);
    expect(record.fixTime.toISOString()).toBe("2011-03-26T11:27:49.000Z");
    expect(record.position!.latitude).toBeCloseTo(0x027ac7fd / 1_800_000, 12);
    expect(record.position!.longitude).toBeCloseTo(0x0c4657bf / 1_800_000, 12);
    expect(record.valid).toBe(true);
    expect(hexOf(reply)).toBe(expectedReply(0x10, 0x001c));
  });

  it("GPS+LBS (0x12): the position Traccar's test expects, the cell, the reply", () => {
    const { record, reply } = decodeRecord(GPS_LBS);
    expect(record.fixTime.toISOString()).toBe("2015-10-20T14:21:11.000Z");
    expect(record.position!.latitude).toBeCloseTo(54.94535, 5);
    expect(record.position!.longitude).toBeCloseTo(24.01762, 5);
    expect(record.valid).toBe(true);
    expect(record.attributes).toMatchObject({ SATELLITES: 5, CELL: "246,1,110,21978" });
    expect(record.ignition).toBe(false); // course word 0x5400: bit 14 says the ACC is reported, bit 15 off
    expect(hexOf(reply)).toBe(expectedReply(0x12, 0x0003));
    // 0x05e51e78 / 1,800,000 and 0x0293a9e8 / 1,800,000, to 6 decimals
    expect(dataPointsOf(record)[0]).toEqual({ key: "GEN_WAYPOINT", value: "54.945347,24.017622" });
  });

  it("GPS+LBS (0x12) with the ACC in the course word: ignition on, 3 km/h as mph, the course", () => {
    const { record } = decodeRecord(GPS_LBS_IGNITION_ON);
    expect(record.fixTime.toISOString()).toBe("2019-03-18T11:37:36.000Z");
    expect(record).toMatchObject({ ignition: true, course: 51, valid: true });
    expect(dataPointsOf(record).slice(0, 3)).toEqual([
      { key: "GEN_WAYPOINT", value: "11.391913,77.890640" },
      { key: "GEN_SPEED", value: "1.9" },
      { key: "GEN_HEADING", value: "51" },
    ]);
  });

  it("GPS+LBS (0x22): the ACC byte as ignition, the upload reason and the re-upload flag", () => {
    const { record, reply } = decodeRecord(GPS_LBS_ACC);
    expect(record.fixTime.toISOString()).toBe("2015-12-29T02:51:05.000Z");
    expect(record.position!.latitude).toBeCloseTo(23.1116933, 6);
    expect(record.position!.longitude).toBeCloseTo(114.4092978, 6);
    expect(record).toMatchObject({ ignition: false, course: 0 });
    expect(record.attributes).toMatchObject({ EVENT: 0, ARCHIVE: true, CELL: "460,0,10365,8049" });
    expect(hexOf(reply)).toBe(expectedReply(0x22, 0x0008));
  });

  it("south and west: bit 10 clear is south, bit 11 set is west", () => {
    // The 0x12 capture with its course word's hemisphere bits changed (bytes 16–17 of the content).
    const content = gt06Content(bytes(GPS_LBS));
    const word = (content[16]! << 8) | content[17]!;
    const southWest = gt06Frame(
      0x12,
      Uint8Array.of(...content.subarray(0, 16), ((word & ~0x400) | 0x800) >> 8, word & 0xff, ...content.subarray(18)),
      3,
    );
    const { record } = decodeRecord(hexOf(southWest));
    expect(record.position!.latitude).toBeCloseTo(-54.94535, 5);
    expect(record.position!.longitude).toBeCloseTo(-24.01762, 5);
  });
});

describe("GT06 status, heartbeat and alarms", () => {
  it("status (0x13): no position, the ACC bit as ignition, battery level and signal, answered", () => {
    const message = decodeFrame(bytes(STATUS), session);
    if (!("kind" in message) || message.kind !== "records") throw new Error("expected records");
    const record = message.records[0]!;
    expect(record).toMatchObject({ position: null, valid: false, fixTime: now, ignition: false });
    expect(record.attributes).toEqual({ STATUS: 0xc4, CHARGE: true, BLOCKED: true, BATTERY_LEVEL: 100, RSSI: 4 });
    expect(record.alarm).toBeUndefined();
    expect(hexOf(message.reply)).toBe(expectedReply(0x13, 0x0129));
    const on = decodeFrame(withContentByte(STATUS, 0, 0xc6), session);
    expect("records" in on && on.records[0]!.ignition).toBe(true);
  });

  it("heartbeat (0x23): the ACC bit, the battery's voltage and the signal", () => {
    const message = decodeFrame(gt06Frame(0x23, bytes("46 0190 04 0001"), 0x0021), session);
    if (!("kind" in message) || message.kind !== "records") throw new Error("expected records");
    expect(message.records[0]).toMatchObject({
      ignition: true,
      position: null,
      attributes: { ARMED: false, CHARGE: true, BATTERY: 4, RSSI: 4 },
    });
    expect(hexOf(message.reply)).toBe(expectedReply(0x23, 0x0021));
  });

  it("alarm (0x16) with a vibration: DEVICE_ALARM, as no vehicle event says it", () => {
    const { record, reply } = decodeRecord(ALARM_VIBRATION);
    expect(record.alarm).toBe("vibration");
    expect(record.ignition).toBe(false);
    expect(dataPointsOf(record)).toContainEqual({ key: "DEVICE_ALARM", value: "vibration" });
    expect(hexOf(reply)).toBe(expectedReply(0x16, 0x001c));
  });

  it("alarm (0x16) with a power cut: VEHICLE_EVENT_DISCONNECTED", () => {
    const { record } = decodeRecord(ALARM_POWER_CUT);
    expect(record.alarm).toBe("powerCut");
    expect(record.fixTime.toISOString()).toBe("2016-05-27T15:28:52.000Z");
    const points = dataPointsOf(record);
    expect(points).toContainEqual({ key: "VEHICLE_EVENT_DISCONNECTED", value: "true" });
    expect(points.map((p) => p.key)).not.toContain("DEVICE_ALARM");
  });

  it("alarm (0x16) with an SOS: DEVICE_ALARM sos (the capture's alarm byte set to 01)", () => {
    const sos = withContentByte(ALARM_VIBRATION, 30, 0x01);
    const message = decodeFrame(sos, session);
    expect("records" in message && dataPointsOf(message.records[0]!)).toContainEqual({
      key: "DEVICE_ALARM",
      value: "sos",
    });
  });

  it("alarm (0x16) with a zeroed block of cells: the status after it (Traccar's battery level 100)", () => {
    const { record } = decodeRecord(ALARM_ZEROED_CELLS);
    expect(record.attributes.BATTERY_LEVEL).toBe(100);
    expect(record.ignition).toBe(true);
    expect(record.alarm).toBe("vibration"); // the alarm byte 09 over the status bits' "removing"
  });

  it("alarm (0x26): the status bits' vibration, no fix", () => {
    const { record } = decodeRecord(ALARM_STATUS_2);
    expect(record).toMatchObject({ alarm: "vibration", valid: false, ignition: false });
  });

  it("other messages carry nothing stored: a short frame is still answered, a long one and commands are not", () => {
    expect(decodeFrame(bytes(TIME_REQUEST), session)).toEqual({
      kind: "ignored",
      type: 0x8a,
      reply: bytes(expectedReply(0x8a, 0x0006)),
    });
    expect(decodeFrame(bytes(LONG_INFO), session)).toEqual({ kind: "ignored", type: 0x94, reply: null });
    expect(decodeFrame(gt06Frame(0x81, new Uint8Array(), 1), session)).toEqual({
      kind: "ignored",
      type: 0x81,
      reply: null,
    });
  });

  it("a message shorter than its fields, an impossible date or coordinate is refused", () => {
    expect(decodeFrame(gt06Frame(0x12, gt06Content(bytes(GPS_LBS)).subarray(0, 10), 1), session)).toEqual({
      refused: "a message 0x12 shorter than its fields",
    });
    expect(decodeFrame(withContentByte(GPS_LBS, 1, 13), session)).toEqual({ refused: "invalid time" }); // month 13
    const north = gt06Content(bytes(GPS_LBS)).slice();
    new DataView(north.buffer).setUint32(7, 91 * 1_800_000);
    expect(decodeFrame(gt06Frame(0x12, north, 1), session)).toEqual({ refused: "impossible latitude" });
  });
});
