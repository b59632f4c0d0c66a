import fc from "fast-check";
import { knotsFromKmh } from "@/server/devices/protocols/data-points";
import {
  encodeHeartbeat,
  encodeLocation,
  encodeLogin,
  type LocationType,
} from "@/server/devices/protocols/gt06/encode";
import { ALARMS, STATUS_ALARMS } from "@/server/devices/protocols/gt06/messages";
import { encodeOsmAnd, type OsmAndForm } from "@/server/devices/protocols/osmand/encode";
import type { OsmAndRequest } from "@/server/devices/protocols/osmand/request";
import type { AttributeValue, DeviceRecord } from "@/server/devices/protocols/record";
import { CODEC_16, CODEC_8, CODEC_8_EXTENDED } from "@/server/devices/protocols/teltonika/codecs";
import {
  avlRecordOf,
  type Codec,
  encodeAvlData,
  encodeImei,
  encodeTcpPacket,
  encodeUdpDatagram,
} from "@/server/devices/protocols/teltonika/encode";
import { contentType, hostileString, malformedJson } from "./fuzz";

// Frame generators for fuzzing the device protocols (test/unit/devices/fuzz.test.ts,
// docs/devices.md#tests): seeded fast-check arbitraries of what trackers and apps send, made by
// the encoders (server/devices/protocols/*/encode.ts) from random records the wire can carry, and
// of the same frames mutated: bits flipped, cut short, length fields up to 2^32 - 1, CRCs and stop
// bits broken, bytes spliced in, garbage. Each case says what a decoder must make of it.

/** The moment the fuzzed frames are decoded at: every record is dated before it (or up to 23 h after). */
export const FUZZ_NOW = new Date("2026-12-07T12:00:00Z");

/**
 * What the frame a mutation hit must come to: refused for a bad CRC (the frame's CRC or the bytes
 * it covers changed, its framing not), refused for any reason, incomplete (cut short: the
 * splitter waits for the rest), or anything that keeps the invariants (no throw, a reason for
 * every refusal, no impossible record accepted).
 */
export type Expectation = "bad CRC" | "refused" | "incomplete" | "any";

/** A stream of frames as one connection sends them, the mutated one (if any) and its expectation. */
export type FrameCase = {
  /** The IMEI the stream opens with. */
  deviceId: string;
  frames: Uint8Array[];
  /** Each frame's records as made; null for a frame that carries none (an IMEI, a login). */
  records: (DeviceRecord[] | null)[];
  mutation: { at: number; kind: string; expect: Expectation } | null;
  /** Sizes of the reads the stream arrives in (the rest in one). */
  chunks: number[];
};

export type UdpCase = {
  datagram: Uint8Array;
  imei: string;
  records: DeviceRecord[];
  mutation: { kind: string; expect: Expectation } | null;
};

export type RequestCase = {
  request: OsmAndRequest;
  records: DeviceRecord[];
  form: OsmAndForm;
  mutation: { kind: string; expect: Expectation } | null;
};

// ---------------------------------------------------------------------------------------------
// Records the wires can carry

const YEAR_2000 = Date.UTC(2000, 0, 1);
const LATEST = FUZZ_NOW.getTime() + 23 * 3600_000;
const wholeSeconds = fc.integer({ min: YEAR_2000 / 1000, max: LATEST / 1000 }).map((s) => new Date(s * 1000));
const milliseconds = fc.integer({ min: YEAR_2000, max: LATEST }).map((ms) => new Date(ms));
const imei = fc.integer({ min: 1e14, max: 1e15 - 1 }).map(String);

/** A coordinate in units of 1/perDegree degree, never -0 (the decoders give 0 there). */
const onGrid = (limit: number, perDegree: number) =>
  fc.integer({ min: -limit * perDegree, max: limit * perDegree }).map((n) => (n === 0 ? 0 : n / perDegree));
/** A position, or none: 0,0 is no position on every wire. */
const position = (perDegree: number) =>
  fc.option(
    fc
      .tuple(onGrid(90, perDegree), onGrid(180, perDegree))
      .map(([latitude, longitude]) => (latitude === 0 && longitude === 0 ? null : { latitude, longitude })),
    { nil: null },
  );

const u8 = fc.integer({ min: 0, max: 0xff });
const u16 = fc.integer({ min: 0, max: 0xffff });
const u32 = fc.integer({ min: 0, max: 0xffffffff });
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
/** The record without the fields it leaves out, as a decoder returns it. */
const defined = (record: DeviceRecord): DeviceRecord =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as DeviceRecord;

// Teltonika's IO ids the record carries in fields of its own.
const NOT_ATTRIBUTES = new Set([239, 16, 66]);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function ioValue(codec: Codec): fc.Arbitrary<AttributeValue> {
  const values: fc.Arbitrary<AttributeValue>[] = [
    u32,
    fc.bigInt({ min: MAX_SAFE + 1n, max: (1n << 64n) - 1n }).map(String), // kept as text past 2^53
  ];
  if (codec === CODEC_8_EXTENDED)
    values.push(
      fc
        .uint8Array({ maxLength: 16 })
        .map((b) => Buffer.from(b).toString("hex"))
        // Digits past 2^53 would read as a 64-bit number: the decoder could not tell them apart.
        .filter((hex) => !(/^\d+$/.test(hex) && BigInt(hex) > MAX_SAFE)),
    );
  return fc.oneof(...values);
}

const teltonikaRecord = (codec: Codec, deviceId: string): fc.Arbitrary<DeviceRecord> =>
  fc
    .record({
      fixTime: milliseconds,
      position: position(1e7),
      priority: u8,
      satellites: u8,
      kmh: u16,
      course: fc.integer({ min: 0, max: 359 }),
      altitude: fc.integer({ min: -32768, max: 32767 }),
      eventIo: codec === CODEC_8 ? u8 : u16,
      generationType: fc.integer({ min: 0, max: 7 }),
      ignition: maybe(fc.boolean()),
      odometerMeters: maybe(u32),
      powerMillivolts: maybe(u16),
      io: fc.dictionary(
        fc
          .integer({ min: 1, max: codec === CODEC_8 ? 0xff : 0xffff })
          .filter((id) => !NOT_ATTRIBUTES.has(id))
          .map((id) => `IO_${id}`),
        ioValue(codec),
        { maxKeys: 6 },
      ),
    })
    .map((r) =>
      defined({
        deviceId,
        fixTime: r.fixTime,
        position: r.position,
        valid: r.satellites > 0,
        speedKnots: knotsFromKmh(r.kmh),
        course: r.course,
        altitude: r.altitude,
        ignition: r.ignition,
        odometerMeters: r.odometerMeters,
        powerMillivolts: r.powerMillivolts,
        attributes: {
          PRIORITY: r.priority,
          SATELLITES: r.satellites,
          EVENT_IO: r.eventIo,
          ...(codec === CODEC_16 ? { GENERATION_TYPE: r.generationType } : {}),
          ...r.io,
        },
      }),
    );

const LOCATION_TYPES: LocationType[] = [0x10, 0x12, 0x22, 0x16, 0x26];
const cell = fc
  .tuple(fc.integer({ min: 0, max: 0x7fff }), u16, u16, fc.integer({ min: 0, max: 0xffffff }))
  .map((parts) => parts.join(","));
const alarmCodes = [0, ...Object.keys(ALARMS).map(Number)];

/** A GT06 message of `type` and the record it carries (a heartbeat's at FUZZ_NOW, as received). */
function gt06Record(type: LocationType | 0x23, deviceId: string): fc.Arbitrary<DeviceRecord> {
  if (type === 0x23)
    return fc
      .record({ ignition: fc.boolean(), armed: fc.boolean(), charge: fc.boolean(), battery: u16, rssi: u8 })
      .map((r) => ({
        deviceId,
        fixTime: FUZZ_NOW,
        position: null,
        valid: false,
        ignition: r.ignition,
        attributes: { ARMED: r.armed, CHARGE: r.charge, BATTERY: r.battery / 100, RSSI: r.rssi },
      }));
  return fc
    .record({
      fixTime: wholeSeconds,
      position: position(1_800_000),
      valid: fc.boolean(),
      satellites: fc.integer({ min: 0, max: 15 }),
      kmh: u8,
      course: fc.integer({ min: 0, max: 359 }),
      ignition: fc.boolean(),
      accInCourse: fc.boolean(),
      cell,
      event: u8,
      archive: fc.boolean(),
      odometerMeters: maybe(u32),
      status: u8,
      alarmCode: fc.constantFrom(...alarmCodes),
      level: fc.integer({ min: 0, max: 6 }),
      rssi: u8,
    })
    .map((r): DeviceRecord => {
      const record: DeviceRecord = {
        deviceId,
        fixTime: r.fixTime,
        position: r.position,
        valid: r.valid,
        speedKnots: knotsFromKmh(r.kmh),
        course: r.course,
        attributes: { SATELLITES: r.satellites },
      };
      if (type === 0x10 || type === 0x12) {
        if (r.accInCourse) record.ignition = r.ignition;
        if (type === 0x12) record.attributes.CELL = r.cell;
        if (r.odometerMeters !== undefined) record.odometerMeters = r.odometerMeters;
      } else if (type === 0x22) {
        record.ignition = r.ignition;
        Object.assign(record.attributes, { CELL: r.cell, EVENT: r.event, ARCHIVE: r.archive });
        if (r.odometerMeters !== undefined) record.odometerMeters = r.odometerMeters;
      } else {
        // An alarm as the decoder reads it: the status byte's bits, then the alarm byte's name.
        record.ignition = (r.status & 0x02) !== 0;
        const alarm = ALARMS[r.alarmCode] ?? STATUS_ALARMS[(r.status >> 3) & 0b111];
        if (alarm) record.alarm = alarm;
        Object.assign(record.attributes, {
          CELL: r.cell,
          STATUS: r.status,
          CHARGE: (r.status & 0x04) !== 0,
          BLOCKED: (r.status & 0x80) !== 0,
          BATTERY_LEVEL: Math.floor((r.level * 100) / 6),
          RSSI: r.rssi,
        });
      }
      return record;
    });
}

// OsmAnd: names the parser reads as its own, and values that would come back as another type.
const OSMAND_NAMED = new Set(
  ["ID", "DEVICEID", "VALID", "TIMESTAMP", "LAT", "LON", "LOCATION", "SPEED", "BEARING", "HEADING"].concat([
    "ALTITUDE",
    "ACCURACY",
    "BATT",
    "IGNITION",
    "BATTERY_LEVEL",
  ]),
);
const JSON_NAMED = new Set(["IGNITION", "BATTERY_LEVEL", "CHARGE", "MOTION", "EVENT", "ACTIVITY"]);
// Names and texts from small sets with a number: fc.stringMatching costs more than the decoding.
const attributeNameArb = fc
  .tuple(fc.constantFrom("RPM", "FUEL", "HDOP", "A1B", "CHARGE", "EVENT", "X", "ODO_TRIP"), fc.nat(99))
  .map(([name, n]) => (n < 50 ? `${name}_${n}` : name));
const finite = (min = -1e9, max = 1e9) =>
  fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
const plainText = fc.constantFrom("eco", "motion change", "a;b", "still.", "x y z", "on foot");

function osmandRecord(form: OsmAndForm): fc.Arbitrary<DeviceRecord> {
  const json = form === "json";
  const value: fc.Arbitrary<AttributeValue> = json
    ? fc.oneof(finite(), fc.boolean(), fc.string({ maxLength: 20 }))
    : fc.oneof(finite(), fc.boolean(), plainText);
  return fc
    .record({
      deviceId: fc
        .tuple(fc.constantFrom("8737767034", "ada's phone", "fleet-7.van", "A"), fc.nat(9999))
        .map(([id, n]) => `${id}${n}`),
      fixTime: json ? milliseconds : fc.oneof(wholeSeconds, milliseconds),
      position: fc
        .tuple(finite(-90, 90), finite(-180, 180))
        .map(([latitude, longitude]) => (latitude === 0 && longitude === 0 ? null : { latitude, longitude })),
      valid: json ? fc.constant(true) : fc.boolean(),
      speedKnots: maybe(finite(0, 300)),
      course: maybe(finite(0, 360)),
      altitude: maybe(finite(-500, 9000)),
      accuracy: maybe(finite(0, 1000)),
      ignition: maybe(fc.boolean()),
      battery: maybe(fc.integer({ min: 0, max: 100 })),
      odometerMeters: json ? maybe(finite(0, 1e9)) : fc.constant(undefined),
      charge: json ? maybe(fc.boolean()) : fc.constant(undefined),
      event: json ? maybe(plainText) : fc.constant(undefined),
      others: fc.dictionary(
        attributeNameArb.filter((n) => !(json ? JSON_NAMED : OSMAND_NAMED).has(n)),
        value,
        { maxKeys: 4 },
      ),
    })
    .map((r) => {
      // Traccar Client 9 sends the speed, course and accuracy in its coordinates, which need a position.
      const moving = !json || r.position !== null;
      const attributes: Record<string, AttributeValue> = { ...r.others };
      if (r.battery !== undefined) attributes.BATTERY_LEVEL = r.battery;
      if (r.charge !== undefined) attributes.CHARGE = r.charge;
      if (r.event !== undefined) attributes.EVENT = r.event;
      return defined({
        deviceId: r.deviceId,
        fixTime: r.fixTime,
        position: r.position,
        valid: r.valid,
        speedKnots: moving ? r.speedKnots : undefined,
        course: moving ? r.course : undefined,
        altitude: moving ? r.altitude : undefined,
        accuracy: moving ? r.accuracy : undefined,
        ignition: r.ignition,
        odometerMeters: r.odometerMeters,
        attributes,
      });
    });
}

// ---------------------------------------------------------------------------------------------
// Mutations

/** The bytes with 1 to `most` distinct bits flipped within [from, to). */
const flipBits = (bytes: Uint8Array, from: number, to: number, most: number) =>
  fc.uniqueArray(fc.integer({ min: from * 8, max: to * 8 - 1 }), { minLength: 1, maxLength: most }).map((bits) => {
    const out = bytes.slice();
    for (const bit of bits) out[bit >> 3]! ^= 0x80 >> (bit & 7);
    return out;
  });

/** The bytes with a run of bytes deleted, or random bytes inserted, somewhere. */
const splice = (bytes: Uint8Array) =>
  fc
    .tuple(fc.nat(bytes.length), fc.nat(Math.min(8, bytes.length)), fc.uint8Array({ maxLength: 8 }))
    .map(([at, remove, insert]) => Uint8Array.of(...bytes.subarray(0, at), ...insert, ...bytes.subarray(at + remove)));

const truncate = (bytes: Uint8Array) => fc.integer({ min: 1, max: bytes.length - 1 }).map((n) => bytes.slice(0, n));
const garbage = fc.uint8Array({ minLength: 1, maxLength: 300 });

type Mutator = (frame: Uint8Array) => fc.Arbitrary<{ bytes: Uint8Array; kind: string; expect: Expectation }>;
const as = (kind: string, expect: Expectation) => (bytes: Uint8Array) => ({ bytes, kind, expect });

/** A Teltonika TCP packet's mutations: the header is 8 bytes (preamble, length), the CRC the last 4. */
const teltonikaPacketMutations: Mutator = (packet) => {
  const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return fc.oneof(
    flipBits(packet, 8, packet.length - 4, 3).map(as("data bits", "bad CRC")),
    fc
      .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 0xff }))
      .map(([at, xor]) => {
        const out = packet.slice();
        out[packet.length - 4 + at]! ^= xor;
        return out;
      })
      .map(as("crc", "bad CRC")),
    fc
      .integer({ min: 1281 - 12, max: 0xffffffff })
      .map((length) => {
        const out = packet.slice();
        view(out).setUint32(4, length);
        return out;
      })
      .map(as("huge length", "refused")),
    fc
      .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 0xff }))
      .map(([at, value]) => {
        const out = packet.slice();
        out[at] = value;
        return out;
      })
      .map(as("preamble", "refused")),
    truncate(packet).map(as("truncated", "incomplete")),
    flipBits(packet, 0, packet.length, 8).map(as("bits", "any")),
    splice(packet).map(as("spliced", "any")),
    garbage.map(as("garbage", "any")),
  );
};

/** A GT06 frame's mutations: the start is 2 bytes, the length 1 (short) or 2 (long); the CRC and stop bits end it. */
const gt06FrameMutations: Mutator = (frame) => {
  const long = frame[0] === 0x79;
  const covered = long ? 4 : 3; // the type's offset: the CRC covers the length to the serial
  return fc.oneof(
    flipBits(frame, covered, frame.length - 4, 3).map(as("message bits", "bad CRC")),
    fc
      .tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 1, max: 0xff }))
      .map(([at, xor]) => {
        const out = frame.slice();
        out[frame.length - 4 + at]! ^= xor;
        return out;
      })
      .map(as("crc", "bad CRC")),
    (long ? fc.integer({ min: 1025, max: 0xffff }) : fc.integer({ min: 0, max: 4 }))
      .map((length) => {
        const out = frame.slice();
        if (long) new DataView(out.buffer).setUint16(2, length);
        else out[2] = length;
        return out;
      })
      .map(as("length", "refused")),
    fc
      .tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 0xff }))
      .map(([from, xor]) => {
        const out = frame.slice();
        out[frame.length - from]! ^= xor;
        return out;
      })
      .map(as("stop bits", "refused")),
    truncate(frame).map(as("truncated", "incomplete")),
    flipBits(frame, 0, frame.length, 8).map(as("bits", "any")),
    splice(frame).map(as("spliced", "any")),
    garbage.map(as("garbage", "any")),
  );
};

const chunks = fc.array(fc.integer({ min: 1, max: 48 }), { maxLength: 12 });

/** A stream of frames, valid (weight `valid`) or with one frame mutated; truncation only hits the last. */
function stream(
  deviceId: string,
  frames: Uint8Array[],
  records: (DeviceRecord[] | null)[],
  mutations: Mutator,
  firstMutable: number,
): fc.Arbitrary<FrameCase> {
  const valid = chunks.map((c): FrameCase => ({ deviceId, frames, records, mutation: null, chunks: c }));
  const mutated = fc
    .integer({ min: firstMutable, max: frames.length - 1 })
    .chain((at) =>
      fc
        .tuple(fc.constant(at), mutations(frames[at]!), chunks)
        .filter(([i, m]) => m.expect !== "incomplete" || i === frames.length - 1),
    )
    .map(([at, m, c]): FrameCase => ({
      deviceId,
      frames: frames.map((f, i) => (i === at ? m.bytes : f)),
      records,
      mutation: { at, kind: m.kind, expect: m.expect },
      chunks: c,
    }));
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 7, arbitrary: mutated });
}

// ---------------------------------------------------------------------------------------------
// The protocols' cases

const codec = fc.constantFrom<Codec>(CODEC_8, CODEC_8_EXTENDED, CODEC_16);

/** Teltonika over TCP: the IMEI, then 1–3 packets of 1–4 records, valid or one of them mutated. */
export const teltonikaTcpCase: fc.Arbitrary<FrameCase> = fc
  .tuple(codec, imei)
  .chain(([c, id]) =>
    fc.tuple(
      fc.constant(c),
      fc.constant(id),
      fc.array(fc.array(teltonikaRecord(c, id), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
    ),
  )
  .chain(([c, id, packets]) =>
    stream(
      id,
      [encodeImei(id), ...packets.map((records) => encodeTcpPacket(encodeAvlData(c, records.map(avlRecordOf))))],
      [null, ...packets],
      teltonikaPacketMutations,
      1,
    ),
  );

/** Teltonika over UDP: one datagram of 1–4 records, valid or mutated (UDP carries no CRC). */
export const teltonikaUdpCase: fc.Arbitrary<UdpCase> = fc
  .tuple(codec, imei, u16, u8)
  .chain(([c, id, packetId, avlPacketId]) =>
    fc.array(teltonikaRecord(c, id), { minLength: 1, maxLength: 4 }).map((records) => ({
      imei: id,
      records,
      datagram: encodeUdpDatagram({
        packetId,
        avlPacketId,
        imei: id,
        data: encodeAvlData(c, records.map(avlRecordOf)),
      }),
    })),
  )
  .chain((made) => {
    const { datagram } = made;
    const valid = fc.constant<UdpCase>({ ...made, mutation: null });
    const mutation = fc.oneof(
      fc
        .integer({ min: 0, max: 0xffff })
        .filter((n) => n !== datagram.length - 2)
        .map((length) => {
          const out = datagram.slice();
          new DataView(out.buffer).setUint16(0, length);
          return out;
        })
        .map(as("length", "refused")),
      truncate(datagram).map(as("truncated", "refused")),
      flipBits(datagram, 0, datagram.length, 8).map(as("bits", "any")),
      splice(datagram).map(as("spliced", "any")),
      garbage.map(as("garbage", "any")),
    );
    const mutated = mutation.map((m): UdpCase => ({
      ...made,
      datagram: m.bytes,
      mutation: { kind: m.kind, expect: m.expect },
    }));
    return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 7, arbitrary: mutated });
  });

const gt06Type = fc.constantFrom<LocationType | 0x23>(...LOCATION_TYPES, 0x23);

/** GT06: the login, then 1–4 locations, alarms and heartbeats in either framing, valid or one mutated. */
export const gt06Case: fc.Arbitrary<FrameCase> = imei
  .chain((id) =>
    fc.tuple(
      fc.constant(id),
      fc.boolean(),
      fc.array(
        gt06Type.chain((type) => fc.tuple(fc.constant(type), gt06Record(type, id), u16, fc.boolean())),
        { minLength: 1, maxLength: 4 },
      ),
    ),
  )
  .chain(([id, longLogin, messages]) =>
    stream(
      id,
      [
        encodeLogin(id, { serial: 1, long: longLogin }),
        ...messages.map(([type, record, serial, long]) =>
          type === 0x23 ? encodeHeartbeat(record, { serial, long }) : encodeLocation(type, record, { serial, long }),
        ),
      ],
      [null, ...messages.map(([, record]) => [record])],
      gt06FrameMutations,
      0,
    ),
  );

const osmandForm = fc.constantFrom<OsmAndForm>("query", "form", "json");

/** An OsmAnd request in each form, valid or with a part made hostile. */
export const osmandCase: fc.Arbitrary<RequestCase> = osmandForm
  .chain((form) => osmandRecord(form).map((record) => ({ form, record, request: encodeOsmAnd(record, form) })))
  .chain(({ form, record, request }) => {
    const made = { form, records: [record], request };
    const valid = fc.constant<RequestCase>({ ...made, mutation: null });
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    const body = (b: string | Uint8Array) => (typeof b === "string" ? new TextEncoder().encode(b) : b);
    const params =
      form === "query" ? new URL(request.url, "http://x").searchParams : new URLSearchParams(text(request.body));
    const withParams = (p: URLSearchParams): OsmAndRequest =>
      form === "query" ? { ...request, url: `/?${p}` } : { ...request, body: body(p.toString()) };
    const mutations: fc.Arbitrary<{ request: OsmAndRequest; kind: string; expect: Expectation }>[] = [
      fc
        .uint8Array({ maxLength: 200 })
        .map((b) => ({ request: { ...request, body: b }, kind: "body bytes", expect: "any" as const })),
      contentType.map((type) => ({
        request: { ...request, contentType: type },
        kind: "content type",
        expect: "any" as const,
      })),
    ];
    if (form === "json") {
      const json = text(request.body);
      mutations.push(
        malformedJson.map((t) => ({
          request: { ...request, body: body(t) },
          kind: "malformed JSON",
          expect: "refused" as const,
        })),
        fc.integer({ min: 0, max: json.length - 1 }).map((n) => ({
          request: { ...request, body: body(json.slice(0, n)) },
          kind: "truncated",
          expect: "refused" as const,
        })),
        fc.constant(null).map(() => {
          const { device_id: _, ...rest } = JSON.parse(json) as Record<string, unknown>;
          return {
            request: { ...request, body: body(JSON.stringify(rest)) },
            kind: "no id",
            expect: "refused" as const,
          };
        }),
      );
    } else {
      const keys = [...params.keys()];
      mutations.push(
        fc.tuple(fc.constantFrom(...keys), hostileString).map(([key, value]) => {
          const p = new URLSearchParams(params);
          p.set(key, value);
          return { request: withParams(p), kind: `hostile ${key}`, expect: "any" as const };
        }),
        fc.constant(null).map(() => {
          const p = new URLSearchParams(params);
          p.delete("id");
          return { request: withParams(p), kind: "no id", expect: "refused" as const };
        }),
        fc.constantFrom("lat", "lon").map((key) => {
          const p = new URLSearchParams(params);
          if (!p.has("lat")) p.set(key === "lat" ? "lon" : "lat", "1");
          else p.delete(key);
          return { request: withParams(p), kind: "half a position", expect: "refused" as const };
        }),
      );
      const raw = form === "query" ? request.url : text(request.body);
      mutations.push(
        fc.integer({ min: 0, max: raw.length - 1 }).map((n) => ({
          request:
            form === "query" ? { ...request, url: raw.slice(0, n) } : { ...request, body: body(raw.slice(0, n)) },
          kind: "truncated",
          expect: "any" as const,
        })),
      );
    }
    const mutated = fc
      .oneof(...mutations)
      .map((m): RequestCase => ({ ...made, request: m.request, mutation: { kind: m.kind, expect: m.expect } }));
    return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 7, arbitrary: mutated });
  });
