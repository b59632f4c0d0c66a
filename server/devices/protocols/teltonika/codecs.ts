import { ByteReader, Truncated, exactNumber, hex } from "../bytes";
import { knotsFromKmh, recordsProblem } from "../data-points";
import { type AttributeValue, type DeviceRecord, type Refusal, refusal } from "../record";

// Teltonika's AVL data (Codec 8, 8 Extended, 16): the codec, the number of records, the records,
// the number again. The same bytes travel in a TCP packet (frames.ts) and a UDP datagram (udp.ts).

export const CODEC_8 = 0x08;
export const CODEC_8_EXTENDED = 0x8e;
export const CODEC_16 = 0x10;

// The IO elements the contract reads (docs/devices.md#teltonika); every other one is IO_<id>.
export const IO_IGNITION = 239;
export const IO_ODOMETER = 16;
export const IO_EXTERNAL_VOLTAGE = 66;

type Context = { deviceId: string; now: Date };

/** The records of AVL data, or why the data is refused (nothing of it is stored then). */
export function decodeAvlData(data: Uint8Array, context: Context): { records: DeviceRecord[] } | Refusal {
  const reader = new ByteReader(data);
  try {
    const codec = reader.u8();
    if (codec !== CODEC_8 && codec !== CODEC_8_EXTENDED && codec !== CODEC_16)
      return refusal(`unsupported codec 0x${codec.toString(16).padStart(2, "0")}`);
    const count = reader.u8();
    const records: DeviceRecord[] = [];
    for (let i = 0; i < count; i++) records.push(readRecord(reader, codec, context.deviceId));
    if (reader.u8() !== count) return refusal("the two record counts differ");
    if (reader.remaining !== 0) return refusal("bytes after the AVL data");
    const problem = recordsProblem(records, context.now);
    return problem ? refusal(problem) : { records };
  } catch (error) {
    if (error instanceof Truncated) return refusal("AVL data shorter than its records");
    throw error;
  }
}

function readRecord(reader: ByteReader, codec: number, deviceId: string): DeviceRecord {
  const fixTime = new Date(Number(reader.u64()));
  const priority = reader.u8();
  const longitude = reader.i32() / 1e7;
  const latitude = reader.i32() / 1e7;
  const altitude = reader.i16();
  const course = reader.u16();
  const satellites = reader.u8();
  const speedKmh = reader.u16();

  // Codec 8 counts and names IO elements in one byte; 8 Extended in two; 16 names them in two
  // and counts them in one, and adds the record's generation type after the event IO.
  const wideCounts = codec === CODEC_8_EXTENDED;
  const wideIds = codec !== CODEC_8;
  const count = () => (wideCounts ? reader.u16() : reader.u8());
  const id = () => (wideIds ? reader.u16() : reader.u8());

  const record: DeviceRecord = {
    deviceId,
    fixTime,
    // 0,0 is what a device sends before its first fix: no position, not an impossible one.
    position: latitude === 0 && longitude === 0 ? null : { latitude, longitude },
    valid: satellites > 0,
    speedKnots: knotsFromKmh(speedKmh),
    course,
    altitude,
    attributes: { PRIORITY: priority, SATELLITES: satellites },
  };
  record.attributes.EVENT_IO = id();
  if (codec === CODEC_16) record.attributes.GENERATION_TYPE = reader.u8();
  count(); // the total of IO elements, which the four groups below count again

  const read: Record<1 | 2 | 4 | 8, () => AttributeValue> = {
    1: () => reader.u8(),
    2: () => reader.u16(),
    4: () => reader.u32(),
    8: () => exactNumber(reader.u64()),
  };
  for (const size of [1, 2, 4, 8] as const) {
    for (let n = count(); n > 0; n--) setIo(record, id(), read[size]());
  }
  if (codec === CODEC_8_EXTENDED) {
    // Variable-length elements (a VIN, trouble codes, beacons): kept as hex.
    for (let n = reader.u16(); n > 0; n--) {
      const ioId = reader.u16();
      setIo(record, ioId, hex(reader.slice(reader.u16())));
    }
  }
  return record;
}

function setIo(record: DeviceRecord, id: number, value: AttributeValue): void {
  if (id === IO_IGNITION && typeof value === "number") record.ignition = value === 1;
  else if (id === IO_ODOMETER && typeof value === "number") record.odometerMeters = value;
  else if (id === IO_EXTERNAL_VOLTAGE && typeof value === "number") record.powerMillivolts = value;
  else record.attributes[`IO_${id}`] = value;
}
