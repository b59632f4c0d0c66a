import { ByteReader, Truncated, hex } from "../bytes";
import { knotsFromKmh, recordsProblem } from "../data-points";
import { type DeviceRecord, type Refusal, refusal } from "../record";
import { crcItu } from "./crc";
import { replyFrame } from "./replies";

// A GT06 frame (from frames.ts) read as Traccar's Gt06ProtocolDecoder reads its common messages
// (docs/devices.md#gt06--concox): the login, heartbeat and status, the GPS and GPS+LBS locations
// and the alarms. Times are the device's, taken as UTC.

export const LOGIN = 0x01;
export const GPS = 0x10;
const GPS_LBS_6 = 0x11; // a longer cell: two-byte MNC, four-byte cell id
export const GPS_LBS_1 = 0x12;
const STATUS = 0x13;
export const GPS_LBS_STATUS_1 = 0x16;
export const GPS_LBS_2 = 0x22;
export const HEARTBEAT = 0x23;
export const GPS_LBS_STATUS_2 = 0x26;
const GPS_LBS_STATUS_3 = 0x27;
const GPS_LBS_4 = 0x2d;
const COMMANDS = new Set([0x80, 0x81, 0x82]); // answers to the server's commands: never answered

const WITH_LBS = new Set([
  GPS_LBS_6,
  GPS_LBS_1,
  GPS_LBS_STATUS_1,
  GPS_LBS_2,
  GPS_LBS_STATUS_2,
  GPS_LBS_STATUS_3,
  GPS_LBS_4,
]);
// Every message with a cell also carries a GPS fix; GPS alone carries no cell.
const WITH_GPS = new Set([GPS, ...WITH_LBS]);
const WITH_STATUS = new Set([STATUS, GPS_LBS_STATUS_1, GPS_LBS_STATUS_2, GPS_LBS_STATUS_3]);
const WITH_ACC = new Set([GPS_LBS_2, GPS_LBS_4]);

// The alarm byte of the status messages, by Traccar's names; unknown values raise none.
export const ALARMS: Record<number, string> = {
  0x01: "sos",
  0x02: "powerCut",
  0x03: "vibration",
  0x04: "geofenceEnter",
  0x05: "geofenceExit",
  0x06: "overspeed",
  0x09: "vibration",
  0x0e: "lowBattery",
  0x0f: "lowBattery",
  0x11: "powerOff",
  0x13: "tampering",
  0x14: "door",
  0x23: "fallDown",
  0x29: "acceleration",
  0x2a: "cornering",
  0x2b: "cornering",
  0x2c: "accident",
  0x30: "braking",
};
// Bits 3–5 of the terminal information byte.
export const STATUS_ALARMS: Record<number, string> = {
  1: "vibration",
  2: "powerCut",
  3: "lowBattery",
  4: "sos",
  6: "geofence",
  7: "removing",
};

type Gt06Message =
  | { kind: "login"; deviceId: string; reply: Uint8Array }
  | { kind: "records"; records: DeviceRecord[]; reply: Uint8Array }
  /** A message that carries nothing stored here (an ICCID, a command's answer, …). */
  | { kind: "ignored"; type: number; reply: Uint8Array | null };

/**
 * One frame: the login (the device's IMEI), the records of a location, status or heartbeat with
 * the reply to send once they are stored, or a refusal (a bad CRC, a malformed message, a message
 * before the login, an impossible record).
 */
export function decodeFrame(frame: Uint8Array, context: { deviceId: string | null; now: Date }): Gt06Message | Refusal {
  const long = frame[0] === 0x79;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  if (view.getUint16(frame.length - 4) !== crcItu(frame.subarray(2, frame.length - 4))) return refusal("bad CRC");
  const typeAt = long ? 4 : 3;
  const type = frame[typeAt]!;
  const serial = view.getUint16(frame.length - 6);
  const content = new ByteReader(frame.subarray(typeAt + 1, frame.length - 6));
  const reply = replyFrame(type, serial, long);
  try {
    if (type === LOGIN) {
      const digits = hex(content.slice(8));
      if (!/^\d{16}$/.test(digits)) return refusal("a login whose terminal id is not BCD digits");
      // 8 BCD bytes hold 16 digits: a 15-digit IMEI comes with one 0 before it.
      return { kind: "login", deviceId: digits.startsWith("0") ? digits.slice(1) : digits, reply };
    }
    if (context.deviceId === null) return refusal("a message before the login");
    const base = { deviceId: context.deviceId, now: context.now };
    let record: DeviceRecord;
    if (type === HEARTBEAT) record = heartbeat(content, base);
    else if (WITH_GPS.has(type) || WITH_STATUS.has(type)) record = location(content, type, base);
    else return { kind: "ignored", type, reply: COMMANDS.has(type) || long ? null : reply };
    const problem = recordsProblem([record], context.now);
    return problem ? refusal(problem) : { kind: "records", records: [record], reply };
  } catch (error) {
    if (error instanceof Truncated) return refusal(`a message 0x${type.toString(16)} shorter than its fields`);
    throw error;
  }
}

type Base = { deviceId: string; now: Date };

const noFix = (base: Base): DeviceRecord => ({
  deviceId: base.deviceId,
  fixTime: base.now,
  position: null,
  valid: false,
  attributes: {},
});

function heartbeat(content: ByteReader, base: Base): DeviceRecord {
  const record = noFix(base);
  const status = content.u8();
  record.ignition = (status & 0b10) !== 0;
  record.attributes.ARMED = (status & 0b1) !== 0;
  record.attributes.CHARGE = (status & 0b100) !== 0;
  if (content.remaining >= 2) record.attributes.BATTERY = content.u16() / 100;
  if (content.remaining >= 1) record.attributes.RSSI = content.u8();
  return record;
}

function location(content: ByteReader, type: number, base: Base): DeviceRecord {
  const record = noFix(base);
  if (WITH_GPS.has(type)) readGps(content, record);
  if (WITH_LBS.has(type)) readCell(content, type, WITH_STATUS.has(type), record);
  if (WITH_STATUS.has(type)) {
    readStatus(content, record);
    const alarm = ALARMS[content.u8()];
    if (alarm) record.alarm = alarm;
  }
  if (WITH_ACC.has(type) && content.remaining >= 3) {
    record.ignition = content.u8() > 0;
    record.attributes.EVENT = content.u8(); // why it was sent (a time, a distance, a turn)
    record.attributes.ARCHIVE = content.u8() > 0; // resent from the device's buffer
  }
  if (type !== GPS_LBS_STATUS_3 && content.remaining === 4) record.odometerMeters = content.u32();
  return record;
}

function readGps(content: ByteReader, record: DeviceRecord): void {
  const [year, month, day, hour, minute, second] = [...content.slice(6)] as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fixTime = new Date(Date.UTC(2000 + year, month - 1, day, hour, minute, second));
  const exact =
    fixTime.getUTCMonth() === month - 1 && fixTime.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
  record.fixTime = exact ? fixTime : new Date(Number.NaN);
  record.attributes.SATELLITES = content.u8() & 0x0f;
  let latitude = content.u32() / 1_800_000;
  let longitude = content.u32() / 1_800_000;
  record.speedKnots = knotsFromKmh(content.u8());
  const flags = content.u16();
  record.course = flags & 0x3ff;
  record.valid = (flags & 0x1000) !== 0;
  if ((flags & 0x400) === 0) latitude = -latitude; // bit 10: north
  if ((flags & 0x800) !== 0) longitude = -longitude; // bit 11: west
  record.position = latitude === 0 && longitude === 0 ? null : { latitude, longitude };
  if ((flags & 0x4000) !== 0) record.ignition = (flags & 0x8000) !== 0; // bit 14: bit 15 is the ACC
}

function readCell(content: ByteReader, type: number, withLength: boolean, record: DeviceRecord): void {
  const start = content.offset;
  const length = withLength ? content.u8() : null;
  if (length === 0) {
    // No cell; some devices still send a zeroed block of cells, 45 bytes, after the zero.
    const block = content.bytes.subarray(content.offset + 9, content.offset + 45);
    if (block.every((byte) => byte === 0)) content.skip(Math.min(content.remaining, 45));
    return;
  }
  const mcc = content.u16();
  const mnc = mcc & 0x8000 || type === GPS_LBS_6 ? content.u16() : content.u8();
  const lac = content.u16();
  const cid = type === GPS_LBS_6 ? content.u32() : content.u24();
  record.attributes.CELL = `${mcc & 0x7fff},${mnc},${lac},${cid}`;
  // The length byte counts itself and may cover more than the one cell read here.
  const read = content.offset - start;
  if (length !== null && length > read) content.skip(length - read);
}

function readStatus(content: ByteReader, record: DeviceRecord): void {
  const status = content.u8();
  record.attributes.STATUS = status;
  record.ignition = (status & 0b10) !== 0; // the ACC bit
  record.attributes.CHARGE = (status & 0b100) !== 0;
  record.attributes.BLOCKED = (status & 0x80) !== 0;
  const alarm = STATUS_ALARMS[(status >> 3) & 0b111];
  if (alarm) record.alarm = alarm;
  record.attributes.BATTERY_LEVEL = Math.floor((content.u8() * 100) / 6);
  record.attributes.RSSI = content.u8();
}
