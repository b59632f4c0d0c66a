import { bearing, cumulative, distance, lerp, METERS_PER_MILE, MPS_PER_MPH, turnAngle, type LonLat } from "./geo";
import { seeded } from "./prng";

// The trip model: pure, no database. A route (polyline with a speed limit per segment and the
// junctions along it) and a seed in, a list of data sets out, each with its offset in seconds
// from the ON data set. The same route, parameters and seed always give the same trip.

export type RouteGeometry = {
  /** [longitude, latitude] vertices along the road. */
  points: LonLat[];
  /** Speed limit in mph of each segment (points.length - 1 entries). */
  limitsMph: number[];
  /** Junctions along the route: [vertex index, chance that the driver stops there]. */
  junctions: [number, number][];
};

export const EVENT_KEYS = [
  "GEN_DTC",
  "VEHICLE_EVENT_HARSH_ACCEL",
  "VEHICLE_EVENT_HARSH_DECEL",
  "VEHICLE_EVENT_HARSH_RIGHT",
  "VEHICLE_EVENT_HARSH_LEFT",
  "VEHICLE_EVENT_HARSH_IMPACT",
] as const;
type EventKey = (typeof EVENT_KEYS)[number];
export type InjectedEvent = { at: number; key: EventKey; value: string };

export type TripParams = {
  /** Seconds between RUNNING data sets (1–300). */
  collectionPeriod: number;
  seed: number;
  events?: InjectedEvent[];
  /** Voltage under 12.0 V throughout (a failing alternator and a weak battery). */
  lowBattery?: boolean;
  /** GEN_RPM, GEN_FUELLEVEL, GEN_FUELRATE, GEN_ENGINE_COOLANT_TEMP (default true). */
  engineData?: boolean;
  /** Fuel level at the start, percent; default from the seed (35–95). */
  fuelLevel?: number;
  /**
   * The vehicle's odometer in miles at the ON: when given, every data set reports GEN_ODOMETER,
   * this plus the distance driven so far, as devices do.
   */
  odometer?: number;
};

type Datum = { key: string; value: string };
type Ignition = "ON" | "RUNNING" | "OFF";
export type Sample = {
  /** Whole seconds after the ON data set. */
  offset: number;
  ignition: Ignition;
  /** Share of the route driven, 0–1. */
  progress: number;
  position: LonLat;
  speedMph: number;
  datum: Datum[];
};

export type Trip = { samples: Sample[]; durationSeconds: number; lengthMeters: number; mileage: number };

const GRID_METERS = 10;
const TANK_GALLONS = 14;
const COOLANT_WARM = 90;

type Node = { s: number; vmax: number; dwell: number; segment: number };

/** Distance nodes along the route: every vertex, and at most GRID_METERS apart between them. */
function grid(route: RouteGeometry, cum: number[], rng: ReturnType<typeof seeded>): Node[] {
  const driver = rng.between(0.92, 1.04);
  const cruise = route.limitsMph.map((mph) => mph * MPS_PER_MPH * driver * rng.between(0.97, 1.03));
  const stops = new Map(route.junctions);
  const last = route.points.length - 1;
  const nodes: Node[] = [];
  for (let i = 0; i < last; i++) {
    const length = cum[i + 1]! - cum[i]!;
    // Curves: the sharper the turn at a vertex, the slower through it (a 90° corner at ~12 mph).
    let vertexMax = cruise[i]!;
    if (i > 0) {
      const angle = turnAngle(
        bearing(route.points[i - 1]!, route.points[i]!),
        bearing(route.points[i]!, route.points[i + 1]!),
      );
      if (angle > 10) vertexMax = Math.min(vertexMax, cruise[i - 1]!, Math.max(4.5, 30 * (1 - angle / 110)));
    }
    let dwell = 0;
    const chance = stops.get(i);
    if (i > 0 && chance !== undefined && rng.chance(chance)) {
      vertexMax = 0;
      dwell = Math.round(rng.between(3, 25));
    }
    nodes.push({ s: cum[i]!, vmax: i === 0 ? 0 : vertexMax, dwell, segment: i });
    const pieces = Math.ceil(length / GRID_METERS);
    for (let k = 1; k < pieces; k++)
      nodes.push({ s: cum[i]! + (length * k) / pieces, vmax: cruise[i]!, dwell: 0, segment: i });
  }
  nodes.push({ s: cum[last]!, vmax: 0, dwell: 0, segment: Math.max(0, last - 1) });
  return nodes;
}

/** Speeds at each node within the limits, reachable with the car's acceleration and braking. */
function speedProfile(nodes: Node[], accel: number, brake: number): number[] {
  const v = nodes.map((n) => n.vmax);
  for (let i = 1; i < v.length; i++)
    v[i] = Math.min(v[i]!, Math.sqrt(v[i - 1]! ** 2 + 2 * accel * (nodes[i]!.s - nodes[i - 1]!.s)));
  for (let i = v.length - 2; i >= 0; i--)
    v[i] = Math.min(v[i]!, Math.sqrt(v[i + 1]! ** 2 + 2 * brake * (nodes[i + 1]!.s - nodes[i]!.s)));
  return v;
}

/** Miles to the hundredth, as GEN_TRIP_MILEAGE and GEN_ODOMETER carry them. */
export const roundMiles = (miles: number) => Math.round(miles * 100) / 100;

export function routeLength(route: RouteGeometry): number {
  return cumulative(route.points).at(-1)!;
}

export function generateTrip(route: RouteGeometry, params: TripParams): Trip {
  if (route.points.length < 2) throw new Error("A route needs at least two points.");
  const rng = seeded(params.seed);
  const cum = cumulative(route.points);
  const lengthMeters = cum.at(-1)!;
  const accel = rng.between(1.6, 2.4);
  const brake = rng.between(2.2, 3.0);
  const nodes = grid(route, cum, rng);
  const v = speedProfile(nodes, accel, brake);

  // Arrival and departure time at each node.
  const arrive: number[] = [0];
  const depart: number[] = [nodes[0]!.dwell];
  for (let i = 1; i < nodes.length; i++) {
    const ds = nodes[i]!.s - nodes[i - 1]!.s;
    const avg = Math.max(0.3, (v[i - 1]! + v[i]!) / 2);
    arrive.push(depart[i - 1]! + ds / avg);
    depart.push(arrive[i]! + nodes[i]!.dwell);
  }
  const durationSeconds = arrive.at(-1)!;

  // Where the car is at time t: node index, position, speed (m/s), distance driven.
  let cursor = 0;
  const at = (t: number) => {
    while (cursor < nodes.length - 1 && arrive[cursor + 1]! <= t) cursor++;
    const i = cursor;
    const node = nodes[i]!;
    if (i === nodes.length - 1 || t <= depart[i]!)
      return { s: node.s, speed: t < depart[i]! && node.dwell > 0 ? 0 : v[i]!, segment: node.segment };
    const f = (t - depart[i]!) / (arrive[i + 1]! - depart[i]!);
    return {
      s: node.s + (nodes[i + 1]!.s - node.s) * f,
      speed: v[i]! + (v[i + 1]! - v[i]!) * f,
      segment: nodes[i + 1]!.segment,
    };
  };
  let seg = 0;
  const positionAt = (s: number): { position: LonLat; heading: number } => {
    while (seg < route.points.length - 2 && cum[seg + 1]! <= s) seg++;
    const a = route.points[seg]!;
    const b = route.points[seg + 1]!;
    const len = cum[seg + 1]! - cum[seg]!;
    const f = len > 0 ? Math.min(1, Math.max(0, (s - cum[seg]!) / len)) : 0;
    return { position: lerp(a, b, f), heading: bearing(a, b) };
  };

  const period = params.collectionPeriod;
  const offsets = [0];
  for (let t = period; t < durationSeconds; t += period) offsets.push(t);
  offsets.push(Math.max(Math.ceil(durationSeconds), offsets.at(-1)! + 1));

  const engine = params.engineData ?? true;
  const ambient = rng.between(12, 24);
  let fuel = params.fuelLevel ?? rng.between(35, 95);
  const events = [...(params.events ?? [])].sort((a, b) => a.at - b.at);
  let nextEvent = 0;
  const mileage = roundMiles(lengthMeters / METERS_PER_MILE);

  const samples: Sample[] = [];
  let previousT = 0;
  let previousSpeed = 0;
  offsets.forEach((t, n) => {
    const ignition: Ignition = n === 0 ? "ON" : n === offsets.length - 1 ? "OFF" : "RUNNING";
    const state = ignition === "OFF" ? { s: lengthMeters, speed: 0 } : at(t);
    const { position, heading } = positionAt(state.s);
    const speedMph = state.speed / MPS_PER_MPH;
    const progress = lengthMeters > 0 ? state.s / lengthMeters : 1;

    const voltage = params.lowBattery
      ? ignition === "OFF"
        ? rng.between(11.3, 11.7)
        : rng.between(11.4, 11.9)
      : ignition === "OFF"
        ? rng.between(12.4, 12.7)
        : rng.between(13.6, 14.4);
    const datum: Datum[] = [
      { key: "GEN_WAYPOINT", value: `${position[1].toFixed(6)},${position[0].toFixed(6)}` },
      { key: "GEN_SPEED", value: speedMph.toFixed(1) },
      { key: "GEN_HEADING", value: String(Math.round(heading) % 360) },
      { key: "GEN_VOLTAGE", value: voltage.toFixed(1) },
    ];
    if (engine) {
      const dt = t - previousT;
      const accelerating = speedMph > previousSpeed + 2;
      const rpm =
        ignition === "OFF"
          ? 0
          : speedMph < 1
            ? rng.between(650, 800)
            : Math.min(3200, 800 + speedMph * 32 + (accelerating ? 400 : 0) + rng.between(-60, 60));
      const rate = ignition === "OFF" ? 0 : 0.25 + speedMph * 0.018 + (accelerating ? 0.6 : 0);
      fuel = Math.max(0, fuel - ((rate * dt) / 3600 / TANK_GALLONS) * 100);
      const coolant = COOLANT_WARM - (COOLANT_WARM - ambient) * Math.exp(-t / 300);
      datum.push(
        { key: "GEN_RPM", value: String(Math.round(rpm)) },
        { key: "GEN_FUELLEVEL", value: fuel.toFixed(1) },
        { key: "GEN_FUELRATE", value: rate.toFixed(2) },
        { key: "GEN_ENGINE_COOLANT_TEMP", value: coolant.toFixed(1) },
      );
    }
    if (params.odometer !== undefined) {
      const driven = ignition === "OFF" ? mileage : state.s / METERS_PER_MILE;
      datum.push({ key: "GEN_ODOMETER", value: String(roundMiles(params.odometer + driven)) });
    }
    if (ignition === "OFF") datum.push({ key: "GEN_TRIP_MILEAGE", value: String(mileage) });
    // Injected events ride on the first data set at or past their point of the route.
    while (nextEvent < events.length && (events[nextEvent]!.at <= progress + 1e-9 || ignition === "OFF")) {
      const e = events[nextEvent++]!;
      datum.push({ key: e.key, value: e.value });
    }
    samples.push({ offset: t, ignition, progress: ignition === "OFF" ? 1 : progress, position, speedMph, datum });
    previousT = t;
    previousSpeed = speedMph;
  });

  return { samples, durationSeconds: offsets.at(-1)!, lengthMeters, mileage };
}

/** The route driven backwards (for repeating runs whose end is not their start). */
export function reverseRoute(route: RouteGeometry): RouteGeometry {
  const last = route.points.length - 1;
  return {
    points: [...route.points].reverse(),
    limitsMph: [...route.limitsMph].reverse(),
    junctions: route.junctions.map(([i, c]) => [last - i, c] as [number, number]),
  };
}

/** Whether a route ends where it starts (within 50 m): a loop can be driven again as it is. */
export const isLoop = (route: RouteGeometry) => distance(route.points[0]!, route.points.at(-1)!) <= 50;
