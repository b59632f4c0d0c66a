import { describe, expect, it } from "vitest";
import {
  encodeHeartbeat,
  encodeLocation,
  encodeLogin,
  type LocationType,
} from "@/server/devices/protocols/gt06/encode";
import { splitFrames } from "@/server/devices/protocols/gt06/frames";
import { decodeFrame } from "@/server/devices/protocols/gt06/messages";
import { replyFrame } from "@/server/devices/protocols/gt06/replies";
import type { DeviceRecord } from "@/server/devices/protocols/record";
import { ALARM_VIBRATION, GPS_LBS, GPS_LBS_ACC, LOGIN, LOGIN_WITH_TIME_ZONE } from "@/test/helpers/device-captures";
import { bytes, hexOf, referenceCrcItu } from "@/test/helpers/device-reference";

// The encoder is judged by the decoder (frames.ts, messages.ts) and by real captures: what it
// makes from a capture's record is the capture, and what it makes from a record decodes to it.

const now = new Date("2026-12-07T12:00:00Z");
const imei = "864717003283581";

function decodeOne(frame: Uint8Array) {
  const split = splitFrames(frame);
  expect(split).toMatchObject({ refusal: null, rest: new Uint8Array() });
  expect(split.frames).toHaveLength(1);
  const message = decodeFrame(split.frames[0]!, { deviceId: imei, now });
  if ("refused" in message) throw new Error(message.refused);
  return message;
}

function recordOf(frame: Uint8Array): DeviceRecord {
  const message = decodeOne(frame);
  if (message.kind !== "records") throw new Error(`expected records, got ${message.kind}`);
  return message.records[0]!;
}

/** A record in what GT06 carries: whole seconds, a position in 1/1,800,000 degree, whole km/h and degrees. */
const moving: DeviceRecord = {
  deviceId: imei,
  fixTime: new Date("2026-12-07T11:58:31Z"),
  position: { latitude: 71_932_041 / 1_800_000, longitude: -149_401_260 / 1_800_000 },
  valid: true,
  speedKnots: (54 * 1000) / 1852,
  course: 305,
  ignition: true,
  attributes: { SATELLITES: 9, CELL: "310,410,20111,1048575" },
};

describe("GT06 encoder: real captures, byte for byte", () => {
  it("the login (Traccar), and one with its type and time zone", () => {
    expect(hexOf(encodeLogin(imei, { serial: 0x0009 }))).toBe(LOGIN.toLowerCase());
    const zoned = encodeLogin("863586038760942", { serial: 0x010a, typeAndZone: { type: 0xa001, zoneAndLanguage: 0 } });
    expect(hexOf(zoned)).toBe(LOGIN_WITH_TIME_ZONE.toLowerCase());
  });

  it("GPS+LBS 0x12 and 0x22 and the 0x16 alarm (Traccar), from the records they decode to", () => {
    const cases: [string, LocationType, number, number | undefined][] = [
      [GPS_LBS, 0x12, 0x0003, undefined],
      [GPS_LBS_ACC, 0x22, 0x0008, undefined],
      [ALARM_VIBRATION, 0x16, 0x001c, 0x01], // this device says its language is Chinese
    ];
    for (const [capture, type, serial, language] of cases) {
      const record = recordOf(bytes(capture));
      expect(hexOf(encodeLocation(type, record, { serial, language }))).toBe(capture.toLowerCase());
    }
  });
});

describe("GT06 encoder: what it makes decodes to the records it was made from", () => {
  for (const long of [false, true]) {
    const framing = long ? "79 79" : "78 78";

    it(`${framing}: the login gives the IMEI back, answered in the same framing; the CRC is the catalogue's`, () => {
      for (const id of [imei, "012345678901234", "1234567890123456"]) {
        const frame = encodeLogin(id, { serial: 77, long });
        expect(frame.subarray(0, 2)).toEqual(Uint8Array.of(long ? 0x79 : 0x78, long ? 0x79 : 0x78));
        const crc = new DataView(frame.buffer).getUint16(frame.length - 4);
        expect(crc).toBe(referenceCrcItu(frame.subarray(2, frame.length - 4)));
        expect(decodeFrame(frame, { deviceId: null, now })).toEqual({
          kind: "login",
          deviceId: id,
          reply: replyFrame(0x01, 77, long),
        });
      }
    });

    it(`${framing}: GPS 0x10 and GPS+LBS 0x12 with the ACC in the course word, and odometers`, () => {
      for (const type of [0x10, 0x12] as const) {
        // GPS alone carries no cell.
        const attributes = type === 0x10 ? { SATELLITES: 9 } : moving.attributes;
        const records: DeviceRecord[] = [
          { ...moving, attributes },
          { ...moving, ignition: false, odometerMeters: 48_123_456, attributes: { ...attributes, SATELLITES: 15 } },
        ];
        for (const record of records) {
          const message = decodeOne(encodeLocation(type, record, { serial: 513, long }));
          expect(message).toEqual({ kind: "records", records: [record], reply: replyFrame(type, 513, long) });
        }
      }
    });

    it(`${framing}: GPS+LBS 0x22 with the ACC byte, the upload reason and the re-upload flag; south, no fix`, () => {
      const records: DeviceRecord[] = [
        { ...moving, attributes: { ...moving.attributes, EVENT: 0, ARCHIVE: false } },
        {
          ...moving,
          position: { latitude: -61_234_567 / 1_800_000, longitude: 27_000_001 / 1_800_000 },
          valid: false,
          ignition: false,
          attributes: { SATELLITES: 0, CELL: "655,10,1,2", EVENT: 3, ARCHIVE: true },
        },
        // A two-byte MNC sets the MCC's top bit.
        { ...moving, attributes: { SATELLITES: 5, CELL: "310,410,20111,3", EVENT: 1, ARCHIVE: false } },
        { ...moving, attributes: { SATELLITES: 5, CELL: "310,260,7,3", EVENT: 1, ARCHIVE: false } },
      ];
      for (const record of records) {
        const message = decodeOne(encodeLocation(0x22, record, { serial: 65535, long }));
        expect(message).toEqual({ kind: "records", records: [record], reply: replyFrame(0x22, 65535, long) });
      }
    });

    it(`${framing}: alarms 0x16 and 0x26 with the status, battery level, signal and alarm`, () => {
      const alarm = (alarmName: string | undefined, status: number, ignition: boolean): DeviceRecord => ({
        ...moving,
        ignition,
        ...(alarmName ? { alarm: alarmName } : {}),
        attributes: {
          SATELLITES: 6,
          CELL: "460,0,10365,8049",
          STATUS: status,
          CHARGE: (status & 0x04) !== 0,
          BLOCKED: (status & 0x80) !== 0,
          BATTERY_LEVEL: 83,
          RSSI: 3,
        },
      });
      const records = [
        alarm("sos", 0x46, true),
        alarm("powerCut", 0x40, false),
        alarm("braking", 0xc6, true),
        alarm(undefined, 0x44, false),
        alarm("geofence", 0x40 | (6 << 3), false), // a status-bit alarm: no alarm byte of its own
      ];
      for (const type of [0x16, 0x26] as const) {
        for (const record of records) {
          const message = decodeOne(encodeLocation(type, record, { serial: 2, long }));
          expect(message).toEqual({ kind: "records", records: [record], reply: replyFrame(type, 2, long) });
        }
      }
    });

    it(`${framing}: the heartbeat's ACC, armed and charging bits, battery voltage and signal at the time received`, () => {
      const heartbeat: DeviceRecord = {
        deviceId: imei,
        fixTime: now,
        position: null,
        valid: false,
        ignition: true,
        attributes: { ARMED: true, CHARGE: false, BATTERY: 4.12, RSSI: 2 },
      };
      const message = decodeOne(encodeHeartbeat(heartbeat, { serial: 9, long }));
      expect(message).toEqual({ kind: "records", records: [heartbeat], reply: replyFrame(0x23, 9, long) });
    });
  }
});

describe("GT06 encoder: what the wire cannot say is refused, not wrapped", () => {
  it("an IMEI of 14 digits or of 16 starting with 0, more than 15 satellites, a year before 2000, a bad cell", () => {
    for (const id of ["12345678901234", "0123456789012345", "86471700328358x"])
      expect(() => encodeLogin(id, { serial: 1 })).toThrow(RangeError);
    const at = (record: Partial<DeviceRecord>) => () => encodeLocation(0x12, { ...moving, ...record }, { serial: 1 });
    expect(at({ attributes: { SATELLITES: 16 } })).toThrow(RangeError);
    expect(at({ fixTime: new Date("1999-12-31T23:59:59Z") })).toThrow(RangeError);
    expect(at({ attributes: { CELL: "310,410" } })).toThrow(RangeError);
    expect(() => encodeLocation(0x12, moving, { serial: 65536 })).toThrow(RangeError);
  });
});
