import { ByteWriter } from "../bytes";
import { kmhFromKnots } from "../data-points";
import type { AttributeValue, DeviceRecord } from "../record";
import { CODEC_16, CODEC_8, CODEC_8_EXTENDED, IO_EXTERNAL_VOLTAGE, IO_IGNITION, IO_ODOMETER } from "./codecs";
import { crc16Ibm } from "./crc";
import { CRC as CRC_BYTES, HEADER as HEADER_BYTES } from "./frames";

// What a Teltonika device sends, as bytes: the IMEI opening, AVL data in Codec 8, 8 Extended and
// 16, the TCP packet around it and the UDP datagram. The inverse of codecs.ts, frames.ts and
// udp.ts, for the device stand-in (server/devices/stand-in/) and the tests.

export type Codec = typeof CODEC_8 | typeof CODEC_8_EXTENDED | typeof CODEC_16;

type IoWidth = 1 | 2 | 4 | 8;

/** An IO element as the wire has it: fixed widths in four groups, or Codec 8 Extended's variable-length bytes. */
type IoElement = { id: number; width: IoWidth; value: number | bigint } | { id: number; bytes: Uint8Array };

/** One AVL record, field by field as Teltonika's specification lists them. */
export type AvlRecord = {
  time: Date;
  priority: number;
  /** Degrees; sent in 1/10,000,000 degree. */
  longitude: number;
  latitude: number;
  /** Metres. */
  altitude: number;
  /** Degrees clockwise from north. */
  angle: number;
  satellites: number;
  speedKmh: number;
  /** The IO element whose change made the record, 0 for none. */
  eventIo: number;
  /** Codec 16 only: why the record was made (0–7, 7 periodical). */
  generationType?: number;
  /** In the order sent within each width group. */
  io: IoElement[];
};

/**
 * The width of the IO elements a record of ours carries, as Teltonika's AVL ID list for its FMB
 * devices gives them; any other id takes the narrowest width its value fits.
 */
const IO_WIDTHS: Record<number, IoWidth> = {
  1: 1, // digital input 1
  9: 2, // analog input 1
  11: 8, // ICCID, first part
  14: 8, // ICCID, second part
  17: 2, // axis X
  18: 2, // axis Y
  19: 2, // axis Z
  21: 1, // GSM signal
  24: 2, // speed
  67: 2, // battery voltage
  68: 2, // battery current
  69: 1, // GNSS status
  78: 8, // iButton
  181: 2, // GNSS PDOP
  182: 2, // GNSS HDOP
  199: 4, // trip odometer
  200: 1, // sleep mode
  205: 2, // GSM cell id
  206: 2, // GSM area code
  240: 1, // movement
  241: 4, // active GSM operator
  [IO_IGNITION]: 1,
  [IO_ODOMETER]: 4,
  [IO_EXTERNAL_VOLTAGE]: 2,
};

/** What a record without a satellite count claims: none without a fix, the fewest a 3D fix needs with one. */
const SATELLITES_FOR_A_FIX = 4;

const narrowest = (value: number): IoWidth => (value <= 0xff ? 1 : value <= 0xffff ? 2 : value <= 0xffffffff ? 4 : 8);

function ioElement(id: number, value: AttributeValue): IoElement {
  if (typeof value === "boolean") return { id, width: 1, value: value ? 1 : 0 };
  if (typeof value === "number") {
    const fits = narrowest(value);
    const width = IO_WIDTHS[id] !== undefined && IO_WIDTHS[id] >= fits ? IO_WIDTHS[id] : fits;
    return { id, width, value: width === 8 ? BigInt(value) : value };
  }
  // The decoder keeps a 64-bit value past 2^53 as its decimal text, and a variable-length
  // element as hex.
  if (/^\d+$/.test(value) && BigInt(value) > BigInt(Number.MAX_SAFE_INTEGER) && BigInt(value) < 1n << 64n)
    return { id, width: 8, value: BigInt(value) };
  if (/^([0-9a-f]{2})*$/i.test(value)) return { id, bytes: Uint8Array.from(Buffer.from(value, "hex")) };
  throw new RangeError(`IO ${id} = ${JSON.stringify(value)} is neither a number nor hex`);
}

const whole = (value: AttributeValue | undefined, fallback: number) => (typeof value === "number" ? value : fallback);

/**
 * A record in Teltonika's fields: the ignition as IO 239, the odometer as IO 16, the supply voltage
 * as IO 66, each `IO_<n>` attribute as IO element n, `PRIORITY`, `SATELLITES`, `EVENT_IO` and
 * `GENERATION_TYPE` in their places. What Teltonika has no field for (an alarm, the accuracy,
 * other attributes) is not sent. The speed goes in whole km/h, the course and altitude in whole
 * units, the position in 1/10,000,000 degree, no position as 0,0.
 */
export function avlRecordOf(record: DeviceRecord): AvlRecord {
  const a = record.attributes;
  const io: IoElement[] = [];
  if (record.ignition !== undefined) io.push({ id: IO_IGNITION, width: 1, value: record.ignition ? 1 : 0 });
  for (const [name, value] of Object.entries(a)) {
    const id = /^IO_(\d+)$/.exec(name)?.[1];
    if (id !== undefined) io.push(ioElement(Number(id), value));
  }
  if (record.odometerMeters !== undefined)
    io.push({ id: IO_ODOMETER, width: 4, value: Math.round(record.odometerMeters) });
  if (record.powerMillivolts !== undefined)
    io.push({ id: IO_EXTERNAL_VOLTAGE, width: 2, value: Math.round(record.powerMillivolts) });
  return {
    time: record.fixTime,
    priority: whole(a.PRIORITY, 0),
    longitude: record.position?.longitude ?? 0,
    latitude: record.position?.latitude ?? 0,
    altitude: Math.round(record.altitude ?? 0),
    angle: Math.round(record.course ?? 0) % 360,
    satellites: whole(a.SATELLITES, record.valid ? SATELLITES_FOR_A_FIX : 0),
    speedKmh: Math.round(kmhFromKnots(record.speedKnots ?? 0)),
    eventIo: whole(a.EVENT_IO, 0),
    generationType: typeof a.GENERATION_TYPE === "number" ? a.GENERATION_TYPE : undefined,
    io,
  };
}

/** AVL data: the codec, the number of records, the records, the number again. */
export function encodeAvlData(codec: Codec, records: readonly AvlRecord[]): Uint8Array {
  const out = new ByteWriter().u8(codec).u8(records.length);
  for (const record of records) writeRecord(out, codec, record);
  return out.u8(records.length).done();
}

// Codec 8 counts and names IO elements in one byte; 8 Extended in two; 16 names them in two and
// counts them in one, and adds the generation type after the event IO (as codecs.ts reads them).
function writeRecord(out: ByteWriter, codec: Codec, record: AvlRecord): void {
  const time = record.time.getTime();
  if (!Number.isInteger(time) || time < 0) throw new RangeError(`a record time of ${time} ms`);
  out
    .u64(BigInt(time))
    .u8(record.priority)
    .i32(Math.round(record.longitude * 1e7))
    .i32(Math.round(record.latitude * 1e7))
    .i16(record.altitude)
    .u16(record.angle)
    .u8(record.satellites)
    .u16(record.speedKmh);
  const count = (n: number) => (codec === CODEC_8_EXTENDED ? out.u16(n) : out.u8(n));
  const id = (n: number) => (codec === CODEC_8 ? out.u8(n) : out.u16(n));
  id(record.eventIo);
  if (codec === CODEC_16) out.u8(record.generationType ?? 7);
  count(record.io.length);
  for (const width of [1, 2, 4, 8] as const) {
    const group = record.io.filter(
      (e): e is Extract<IoElement, { width: IoWidth }> => "width" in e && e.width === width,
    );
    count(group.length);
    for (const element of group) {
      id(element.id);
      if (width === 8) out.u64(BigInt(element.value));
      else if (width === 4) out.u32(Number(element.value));
      else if (width === 2) out.u16(Number(element.value));
      else out.u8(Number(element.value));
    }
  }
  const variable = record.io.filter((e): e is Extract<IoElement, { bytes: Uint8Array }> => "bytes" in e);
  if (codec === CODEC_8_EXTENDED) {
    out.u16(variable.length);
    for (const element of variable) out.u16(element.id).u16(element.bytes.length).bytes(element.bytes);
  } else if (variable.length > 0) {
    throw new RangeError(`IO ${variable[0]!.id}: variable-length elements are Codec 8 Extended's alone`);
  }
}

/** A TCP packet: four zero bytes, the data's length, the data and its CRC-16/IBM in 4 bytes. */
export function encodeTcpPacket(data: Uint8Array): Uint8Array {
  const packet = new Uint8Array(HEADER_BYTES + data.length + CRC_BYTES);
  const view = new DataView(packet.buffer);
  view.setUint32(4, data.length);
  packet.set(data, HEADER_BYTES);
  view.setUint32(HEADER_BYTES + data.length, crc16Ibm(data));
  return packet;
}

/** The opening of a TCP connection: the IMEI's length in two bytes, then its digits. */
export function encodeImei(imei: string): Uint8Array {
  if (!/^\d{1,20}$/.test(imei)) throw new RangeError(`an IMEI of ${JSON.stringify(imei)}: 1 to 20 digits`);
  return new ByteWriter().u16(imei.length).bytes(Buffer.from(imei, "latin1")).done();
}

/** A UDP datagram: its length, the packet id, 01, the AVL packet id, the IMEI, then the AVL data. */
export function encodeUdpDatagram(datagram: {
  packetId: number;
  avlPacketId: number;
  imei: string;
  data: Uint8Array;
}): Uint8Array {
  const imei = encodeImei(datagram.imei);
  const rest = new ByteWriter().u16(datagram.packetId).u8(0x01).u8(datagram.avlPacketId).bytes(imei);
  return new ByteWriter()
    .u16(rest.length + datagram.data.length)
    .bytes(rest.done())
    .bytes(datagram.data)
    .done();
}
