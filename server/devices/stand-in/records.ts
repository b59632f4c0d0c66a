import { MPS_PER_MPH } from "@/server/simulator/geo";
import type { Sample, Trip } from "@/server/simulator/model";
import { knotsFromKmh, knotsFromMetersPerSecond } from "../protocols/data-points";
import type { DeviceRecord } from "../protocols/record";
import { CODEC_16 } from "../protocols/teltonika/codecs";
import type { Codec } from "../protocols/teltonika/encode";
import type { DeviceProtocol } from "./run";

// A simulated trip (server/simulator/model.ts) as the records a tracker of each protocol reports:
// each in what its wire carries (Teltonika's 1/10,000,000 degree and whole km/h, GT06's
// 1/1,800,000 degree, whole seconds everywhere), so a record acknowledged is the record the
// gateway decoded.

/** A US carrier's cell (MCC 310, MNC 410), made up: GT06's location messages carry one. */
const CELL = "310,410,20111,1048575";
const SATELLITES = 9;
const SECOND = 1000;

/**
 * When each sample is reported, in seconds after the start: sped up, samples come `speedup`
 * times as often, whole seconds apart at least (the simulator's real-time runs do the same,
 * server/simulator/runner.ts planLap).
 */
function dueSeconds(samples: readonly Sample[], speedup: number): number[] {
  const due: number[] = [];
  for (const s of samples) due.push(Math.max(Math.floor(s.offset / speedup), due.length ? due.at(-1)! + 1 : 0));
  return due;
}

const onGrid = (value: number, perDegree: number) =>
  Math.sign(value) * (Math.round(Math.abs(value) * perDegree) / perDegree);

export function tripRecords(
  trip: Trip,
  options: { protocol: DeviceProtocol; deviceId: string; start: Date; speedup: number; codec?: Codec },
): DeviceRecord[] {
  const start = Math.ceil(options.start.getTime() / SECOND) * SECOND;
  const due = dueSeconds(trip.samples, options.speedup);
  return trip.samples.map((sample, i): DeviceRecord => {
    const datum = (key: string) => sample.datum.find((d) => d.key === key)?.value;
    const [longitude, latitude] = sample.position;
    const kmh = Math.round(sample.speedMph * MPS_PER_MPH * 3.6);
    const course = Math.round(Number(datum("GEN_HEADING") ?? 0)) % 360;
    const base = { deviceId: options.deviceId, fixTime: new Date(start + due[i]! * SECOND), valid: true };
    const ignition = sample.ignition !== "OFF";
    if (options.protocol === "osmand")
      return {
        ...base,
        position: { latitude, longitude },
        speedKnots: knotsFromMetersPerSecond(sample.speedMph * MPS_PER_MPH),
        course,
        ignition,
        attributes: {},
      };
    if (options.protocol === "gt06")
      return {
        ...base,
        position: { latitude: onGrid(latitude, 1_800_000), longitude: onGrid(longitude, 1_800_000) },
        speedKnots: knotsFromKmh(kmh),
        course,
        ignition,
        attributes: { SATELLITES, CELL, EVENT: 0, ARCHIVE: false },
      };
    // Teltonika: the ignition turning on or off makes an event record (IO 239, high priority); the
    // rest are periodical. Codec 16 says which in its generation type (5 on change, 7 periodical).
    const change = sample.ignition !== "RUNNING";
    return {
      ...base,
      position: { latitude: onGrid(latitude, 1e7), longitude: onGrid(longitude, 1e7) },
      speedKnots: knotsFromKmh(kmh),
      course,
      altitude: 0,
      ignition,
      powerMillivolts: Math.round(Number(datum("GEN_VOLTAGE") ?? 12.6) * 1000),
      attributes: {
        PRIORITY: change ? 1 : 0,
        SATELLITES,
        EVENT_IO: change ? 239 : 0,
        ...(options.codec === CODEC_16 ? { GENERATION_TYPE: change ? 5 : 7 } : {}),
        IO_240: kmh > 0 ? 1 : 0, // movement
      },
    };
  });
}
