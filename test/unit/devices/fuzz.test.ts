import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recordProblem } from "@/server/devices/protocols/data-points";
import { detectProtocol } from "@/server/devices/protocols/detect";
import { splitFrames } from "@/server/devices/protocols/gt06/frames";
import { decodeFrame } from "@/server/devices/protocols/gt06/messages";
import { parseOsmAndRequest } from "@/server/devices/protocols/osmand/request";
import type { DeviceRecord } from "@/server/devices/protocols/record";
import { decodeTcpPacket, splitTcpFrames } from "@/server/devices/protocols/teltonika/frames";
import { decodeUdpDatagram } from "@/server/devices/protocols/teltonika/udp";
import {
  type Expectation,
  type FrameCase,
  FUZZ_NOW,
  gt06Case,
  osmandCase,
  teltonikaTcpCase,
  teltonikaUdpCase,
} from "../../helpers/device-fuzz";

// The pure decoders under seeded fuzzing (docs/devices.md#tests): valid and mutated frames from
// test/helpers/device-fuzz.ts, split from a stream arriving in pieces and decoded as a gateway
// would. Whatever the bytes, a decoder never throws and says why it refuses; a frame whose CRC
// or covered bytes changed is refused as a bad CRC; a cut frame is waited for; no impossible
// record is accepted; and a valid frame decodes to the records it was made from.
//
// FUZZ_SEED=<n> replays a run (FUZZ_SEED=random draws one); DEVICE_FUZZ_RUNS sets the cases per
// protocol (default 10,000). Both are printed.

const SEED =
  process.env.FUZZ_SEED === "random" ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 19);
const FRAMES = Number(process.env.DEVICE_FUZZ_FRAMES ?? 10_000);
// A stream carries three frames or so (an IMEI and 1–3 packets, a login and 1–4 messages): one
// stream for every 2.5 frames leaves a margin, which each test checks by counting.
const STREAMS = Math.ceil(FRAMES / 2.5);
console.log(`device fuzz: FUZZ_SEED=${SEED} DEVICE_FUZZ_FRAMES=${FRAMES}`);

/** Runs `check` on `runs` cases; returns the kinds of case there were (valid, or the mutation's). */
function run<T extends { mutation: { kind: string } | null }>(
  arbitrary: fc.Arbitrary<T>,
  runs: number,
  check: (value: T) => void,
): string[] {
  const kinds: Record<string, number> = {};
  fc.assert(
    fc.property(arbitrary, (value) => {
      const kind = value.mutation?.kind.replace(/^hostile .*/, "hostile value") ?? "valid";
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      check(value);
    }),
    { seed: SEED, numRuns: runs },
  );
  console.log(JSON.stringify(kinds));
  return Object.keys(kinds).sort();
}

/** What a connection's reader made of a stream: per frame, the device id (IMEI, login) or records. */
type Read = { frames: ({ id: string } | { records: DeviceRecord[] })[]; refusal: string | null; rest: number };

/** The stream as it arrives: in pieces of the case's sizes, the rest in one. */
function* pieces(c: FrameCase): Generator<Uint8Array> {
  const all = Buffer.concat(c.frames);
  let at = 0;
  for (const size of c.chunks) {
    if (at >= all.length) return;
    yield all.subarray(at, at + size);
    at += size;
  }
  if (at < all.length) yield all.subarray(at);
}

function readTeltonika(c: FrameCase): Read {
  const read: Read = { frames: [], refusal: null, rest: 0 };
  let buffer: Uint8Array = new Uint8Array();
  let deviceId: string | null = null;
  for (const piece of pieces(c)) {
    const split = splitTcpFrames(Buffer.concat([buffer, piece]), { identified: deviceId !== null });
    buffer = split.rest;
    for (const frame of split.frames) {
      if (frame.kind === "imei") {
        deviceId = frame.imei;
        read.frames.push({ id: frame.imei });
        continue;
      }
      const decoded = decodeTcpPacket(frame.packet, { deviceId: deviceId!, now: FUZZ_NOW });
      if ("refused" in decoded) return { ...read, refusal: decoded.refused };
      if (new DataView(decoded.reply.buffer).getUint32(0) !== decoded.records.length)
        throw new Error("an acknowledgement of another count than the packet's");
      read.frames.push({ records: decoded.records });
    }
    if (split.refusal) return { ...read, refusal: split.refusal };
  }
  return { ...read, rest: buffer.length };
}

function readGt06(c: FrameCase): Read {
  const read: Read = { frames: [], refusal: null, rest: 0 };
  let buffer: Uint8Array = new Uint8Array();
  let deviceId: string | null = null;
  for (const piece of pieces(c)) {
    const split = splitFrames(Buffer.concat([buffer, piece]));
    buffer = split.rest;
    for (const frame of split.frames) {
      const message = decodeFrame(frame, { deviceId, now: FUZZ_NOW });
      if ("refused" in message) return { ...read, refusal: message.refused };
      if (message.kind === "login") {
        deviceId = message.deviceId;
        read.frames.push({ id: message.deviceId });
      } else read.frames.push({ records: message.kind === "records" ? message.records : [] });
    }
    if (split.refusal) return { ...read, refusal: split.refusal };
  }
  return { ...read, rest: buffer.length };
}

/** Nothing a decoder accepts may be impossible, and a refusal always says why. */
function invariants(refusal: string | null, records: DeviceRecord[]): void {
  // Plain checks: an expect() a record costs more than the decoding.
  if (refusal !== null && !/\S/.test(refusal))
    throw new Error(`a refusal without a reason: ${JSON.stringify(refusal)}`);
  for (const record of records) {
    const problem = recordProblem(record, FUZZ_NOW);
    if (problem) throw new Error(`accepted a record with ${problem}: ${JSON.stringify(record)}`);
  }
}

/** `actual` is `expected`, judged fast; vitest's toEqual only to show how they differ. */
function same(actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
}

/** A stream's reading judged against its case: see device-fuzz.ts's Expectation. */
function judge(c: FrameCase, read: Read): void {
  invariants(
    read.refusal,
    read.frames.flatMap((f) => ("records" in f ? f.records : [])),
  );
  const expected = (i: number) => {
    const records = c.records[i];
    return records === null ? { id: c.deviceId } : { records };
  };
  const upTo = c.mutation?.at ?? c.frames.length;
  // Whatever came after, the frames before the mutated one are read as they were made.
  const before = Math.min(upTo, read.frames.length);
  same(
    read.frames.slice(0, before),
    Array.from({ length: before }, (_, i) => expected(i)),
  );
  const outcome = { frames: read.frames.length, refusal: read.refusal, waiting: read.rest > 0 };
  const expectation: Expectation | "valid" = c.mutation?.expect ?? "valid";
  switch (expectation) {
    case "valid":
      return same(outcome, { frames: c.frames.length, refusal: null, waiting: false });
    case "bad CRC":
      return same(outcome, { frames: upTo, refusal: "bad CRC", waiting: outcome.waiting });
    case "refused":
      return same({ ...outcome, refused: read.refusal !== null }, { ...outcome, frames: upTo, refused: true });
    case "incomplete":
      return same(outcome, { frames: upTo, refusal: null, waiting: true });
  }
}

describe("device protocol fuzzing", () => {
  it(`Teltonika: ${FRAMES} frames and more, in streams over TCP and datagrams over UDP, valid and mutated`, () => {
    let frames = 0;
    const tcp = run(teltonikaTcpCase, STREAMS, (c) => {
      frames += c.frames.length;
      if (c.mutation === null) expect(detectProtocol(c.frames[0]!)).toBe("teltonika");
      judge(c, readTeltonika(c));
    });
    expect(frames).toBeGreaterThanOrEqual(FRAMES);
    expect(tcp).toEqual([
      "bits",
      "crc",
      "data bits",
      "garbage",
      "huge length",
      "preamble",
      "spliced",
      "truncated",
      "valid",
    ]);
    const udp = run(teltonikaUdpCase, Math.ceil(FRAMES / 10), (c) => {
      const decoded = decodeUdpDatagram(c.datagram, { now: FUZZ_NOW });
      invariants("refused" in decoded ? decoded.refused : null, "records" in decoded ? decoded.records : []);
      if (c.mutation === null)
        same({ ...decoded, reply: undefined }, { deviceId: c.imei, records: c.records, reply: undefined });
      else if (c.mutation.expect === "refused" && !("refused" in decoded))
        throw new Error(`accepted: ${c.mutation.kind}`);
    });
    expect(udp).toEqual(["bits", "garbage", "length", "spliced", "truncated", "valid"]);
  });

  it(`GT06: ${FRAMES} frames and more, in streams of a login and locations, alarms and heartbeats, valid and mutated`, () => {
    let frames = 0;
    const kinds = run(gt06Case, STREAMS, (c) => {
      frames += c.frames.length;
      if (c.mutation === null) expect(detectProtocol(c.frames[0]!)).toBe("gt06");
      judge(c, readGt06(c));
    });
    expect(frames).toBeGreaterThanOrEqual(FRAMES);
    expect(kinds).toEqual([
      "bits",
      "crc",
      "garbage",
      "length",
      "message bits",
      "spliced",
      "stop bits",
      "truncated",
      "valid",
    ]);
  });

  it(`OsmAnd: ${FRAMES} requests in the query, form and JSON forms, valid and made hostile`, () => {
    const kinds = run(osmandCase, FRAMES, (c) => {
      const parsed = parseOsmAndRequest(c.request, FUZZ_NOW);
      invariants("refused" in parsed ? parsed.refused : null, "records" in parsed ? parsed.records : []);
      if (c.mutation === null) {
        const line = new TextEncoder().encode(`${c.request.method} ${c.request.url} HTTP/1.1\r\n`);
        expect(detectProtocol(line)).toBe("osmand");
        if (!("records" in parsed)) throw new Error(`refused: ${parsed.refused}`);
        // Traccar Client 9 sends m/s: the speed comes back within a rounding.
        const speedless = (records: DeviceRecord[]) => records.map(({ speedKnots: _, ...rest }) => rest);
        same(speedless(parsed.records), speedless(c.records));
        parsed.records.forEach(({ speedKnots }, i) => {
          const made = c.records[i]!.speedKnots;
          const close = speedKnots === made || Math.abs(speedKnots! - made!) <= 1e-9 * Math.max(1, made!);
          if (!close) expect(speedKnots).toBe(made);
        });
      } else if (c.mutation.expect === "refused" && !("refused" in parsed))
        throw new Error(`accepted: ${c.mutation.kind}`);
    });
    expect(kinds).toEqual([
      "body bytes",
      "content type",
      "half a position",
      "hostile value",
      "malformed JSON",
      "no id",
      "truncated",
      "valid",
    ]);
  });
});
