import { ByteWriter } from "../bytes";
import { kmhFromKnots } from "../data-points";
import type { DeviceRecord } from "../record";
import { crcItu } from "./crc";
import {
  ALARMS,
  GPS,
  GPS_LBS_1,
  GPS_LBS_2,
  GPS_LBS_STATUS_1,
  GPS_LBS_STATUS_2,
  HEARTBEAT,
  LOGIN,
  STATUS_ALARMS,
} from "./messages";

// What a GT06 / Concox tracker sends, as bytes: the login, the heartbeat, the GPS and GPS+LBS
// locations (0x10, 0x12, 0x22) and the alarms (0x16, 0x26), in the short (78 78) or long (79 79)
// framing with the CRC-ITU. The inverse of frames.ts and messages.ts, for the device stand-in
// (server/devices/stand-in/) and the tests.

export type LocationType =
  typeof GPS | typeof GPS_LBS_1 | typeof GPS_LBS_2 | typeof GPS_LBS_STATUS_1 | typeof GPS_LBS_STATUS_2;

type Framing = {
  /** The message's serial number (0–65535): the server's answer repeats it. */
  serial: number;
  /** 79 79 and a two-byte length instead of 78 78 and one. */
  long?: boolean;
};

/** A frame around a message: start, length, type, content, serial, CRC-ITU of length to serial, 0D 0A. */
function encodeFrame(type: number, content: Uint8Array, framing: Framing): Uint8Array {
  const length = 1 + content.length + 2 + 2; // type, content, serial, CRC
  const body = new ByteWriter();
  if (framing.long) body.u16(length);
  else body.u8(length);
  const covered = body.u8(type).bytes(content).u16(framing.serial).done();
  const start = framing.long ? 0x79 : 0x78;
  return new ByteWriter().u8(start).u8(start).bytes(covered).u16(crcItu(covered)).u8(0x0d).u8(0x0a).done();
}

/**
 * The login: the IMEI as 8 BCD bytes (15 digits get a 0 before them), and for the devices that
 * send them, the type identification and the time zone and language (two bytes each).
 */
export function encodeLogin(
  imei: string,
  framing: Framing & { typeAndZone?: { type: number; zoneAndLanguage: number } },
): Uint8Array {
  // The decoder drops one leading 0 of 16 digits: 15 digits, or 16 not starting with 0, come back as sent.
  if (!/^(\d{15}|[1-9]\d{15})$/.test(imei))
    throw new RangeError(`a GT06 IMEI of ${JSON.stringify(imei)}: 15 digits, or 16 not starting with 0`);
  const content = new ByteWriter().bytes(Uint8Array.from(Buffer.from(imei.padStart(16, "0"), "hex")));
  if (framing.typeAndZone) content.u16(framing.typeAndZone.type).u16(framing.typeAndZone.zoneAndLanguage);
  return encodeFrame(LOGIN, content.done(), framing);
}

// Terminal information bits (the status byte of heartbeats and alarms).
const ARMED = 0x01;
const ACC = 0x02;
const CHARGING = 0x04;
const GPS_TRACKING = 0x40;
const BLOCKED = 0x80;
const ALARM_BITS = 0b111 << 3;

// What a record that does not say is sent as: a well charged tracker with a good signal.
const ENGLISH = 0x02;
const FULL_BATTERY_PERCENT = 100;
const BATTERY_VOLTS = 4;
const STRONG_SIGNAL = 4;

const flag = (byte: number, bit: number, on: boolean | undefined) =>
  on === undefined ? byte : on ? byte | bit : byte & ~bit;
const bool = (value: unknown) => (typeof value === "boolean" ? value : undefined);
const numberOr = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);

/** A heartbeat: the status (ACC, `ARMED`, `CHARGE`), the battery's voltage (`BATTERY`, V), the signal (`RSSI`), the language. */
export function encodeHeartbeat(record: DeviceRecord, framing: Framing & { language?: number }): Uint8Array {
  const a = record.attributes;
  let status = flag(GPS_TRACKING, ACC, record.ignition);
  status = flag(flag(status, ARMED, bool(a.ARMED)), CHARGING, bool(a.CHARGE));
  const content = new ByteWriter()
    .u8(status)
    .u16(Math.round(numberOr(a.BATTERY, BATTERY_VOLTS) * 100))
    .u8(numberOr(a.RSSI, STRONG_SIGNAL))
    .u16(framing.language ?? ENGLISH);
  return encodeFrame(HEARTBEAT, content.done(), framing);
}

/**
 * A location or alarm message of `type` from a record: the GPS block (time, satellites, position,
 * speed in whole km/h, course, the fix bit); the cell (`CELL` "mcc,mnc,lac,cid", else zeros);
 * then by type the ACC in the course word (0x10, 0x12), the ACC byte, `EVENT` and `ARCHIVE`
 * (0x22), or the status (`STATUS` with the ACC, `CHARGE` and `BLOCKED` set from the record,
 * `BATTERY_LEVEL`, `RSSI`), the alarm and the language (0x16, 0x26). The odometer goes where the
 * message ends with one (not after an alarm's language). Times are whole seconds, UTC, 2000–2255.
 */
export function encodeLocation(
  type: LocationType,
  record: DeviceRecord,
  framing: Framing & { language?: number },
): Uint8Array {
  const withStatus = type === GPS_LBS_STATUS_1 || type === GPS_LBS_STATUS_2;
  const out = new ByteWriter();
  writeGps(out, record, type === GPS || type === GPS_LBS_1);
  if (type !== GPS) writeCell(out, String(record.attributes.CELL ?? "0,0,0,0"), withStatus);
  if (type === GPS_LBS_2) {
    out.u8(record.ignition ? 1 : 0);
    out.u8(numberOr(record.attributes.EVENT, 0));
    out.u8(record.attributes.ARCHIVE === true ? 1 : 0);
  }
  if (withStatus) writeStatus(out, record, framing.language ?? ENGLISH);
  else if (record.odometerMeters !== undefined) out.u32(Math.round(record.odometerMeters));
  return encodeFrame(type, out.done(), framing);
}

function writeGps(out: ByteWriter, record: DeviceRecord, accInCourse: boolean): void {
  const t = record.fixTime;
  if (Number.isNaN(t.getTime())) throw new RangeError("an invalid fix time");
  out
    .u8(t.getUTCFullYear() - 2000)
    .u8(t.getUTCMonth() + 1)
    .u8(t.getUTCDate());
  out.u8(t.getUTCHours()).u8(t.getUTCMinutes()).u8(t.getUTCSeconds());
  const satellites = numberOr(record.attributes.SATELLITES, record.valid ? 4 : 0);
  if (satellites > 0x0f) throw new RangeError(`${satellites} satellites: GT06 counts up to 15`);
  out.u8(0xc0 | satellites); // the high nibble: the GPS block's length, 12
  const latitude = record.position?.latitude ?? 0;
  const longitude = record.position?.longitude ?? 0;
  out.u32(Math.round(Math.abs(latitude) * 1_800_000)).u32(Math.round(Math.abs(longitude) * 1_800_000));
  out.u8(Math.round(kmhFromKnots(record.speedKnots ?? 0)));
  let word = Math.round(record.course ?? 0) % 360;
  if (latitude >= 0) word |= 0x400; // bit 10: north
  if (longitude < 0) word |= 0x800; // bit 11: west
  if (record.valid) word |= 0x1000; // bit 12: a fix
  if (accInCourse && record.ignition !== undefined) word |= 0x4000 | (record.ignition ? 0x8000 : 0); // bits 14, 15
  out.u16(word);
}

function writeCell(out: ByteWriter, cell: string, withLength: boolean): void {
  const parts = cell.split(",").map(Number);
  if (parts.length !== 4 || !parts.every(Number.isInteger)) throw new RangeError(`a cell of ${JSON.stringify(cell)}`);
  const [mcc, mnc, lac, cid] = parts as [number, number, number, number];
  if (mcc > 0x7fff) throw new RangeError(`an MCC of ${mcc}`);
  const wideMnc = mnc > 0xff;
  // The length byte counts itself.
  if (withLength) out.u8(1 + 2 + (wideMnc ? 2 : 1) + 2 + 3);
  out.u16(wideMnc ? mcc | 0x8000 : mcc);
  if (wideMnc) out.u16(mnc);
  else out.u8(mnc);
  out.u16(lac).u24(cid);
}

/** The first alarm byte that names an alarm (0x03 for a vibration, of 0x03 and 0x09). */
const alarmCode = (alarm: string) => Object.entries(ALARMS).find(([, name]) => name === alarm)?.[0];
const statusAlarmBits = (alarm: string) => Object.entries(STATUS_ALARMS).find(([, name]) => name === alarm)?.[0];

function writeStatus(out: ByteWriter, record: DeviceRecord, language: number): void {
  const a = record.attributes;
  let status = numberOr(a.STATUS, GPS_TRACKING);
  status = flag(flag(flag(status, ACC, record.ignition), CHARGING, bool(a.CHARGE)), BLOCKED, bool(a.BLOCKED));
  const code = record.alarm === undefined ? undefined : alarmCode(record.alarm);
  // An alarm without a byte of its own (a geofence, removal) is said by the status bits.
  const bits = record.alarm !== undefined && code === undefined ? statusAlarmBits(record.alarm) : undefined;
  if (bits !== undefined) status = (status & ~ALARM_BITS) | (Number(bits) << 3);
  const level = Math.min(6, Math.max(0, Math.round((numberOr(a.BATTERY_LEVEL, FULL_BATTERY_PERCENT) * 6) / 100)));
  out.u8(status).u8(level).u8(numberOr(a.RSSI, STRONG_SIGNAL));
  out.u8(code === undefined ? 0 : Number(code)).u8(language);
}
