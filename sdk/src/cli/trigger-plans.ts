// What `wayline trigger <TYPE>` posts to make an event of that type happen (docs/sdk.md#wayline-trigger):
// the criteria of the subscription it creates when the vehicle has none of that type, and two sandbox data
// sets, one that does not meet the criteria and one, a second later, that does, so that every notification
// period (CONTINUOUS, STATECHANGE, INITIALSTATE, ONETIME) sees the criteria become met.

type Datum = { key: string; value: string | number | boolean };
type Criteria = Record<string, unknown>;
export type DataSetPlan = { ignitionStatus: "ON" | "RUNNING" | "OFF"; datum: Datum[] };
export type TriggerPlan = {
  /** Criteria for a subscription trigger creates; the period is the first CONTINUOUS-like one the type takes. */
  criteria: Criteria;
  period: "CONTINUOUS" | "STATECHANGE";
  /** The two sets, before and after, for a subscription with these criteria. */
  sets(criteria: Criteria): [DataSetPlan, DataSetPlan];
};

type Point = { latitude: number; longitude: number };
const HOME = { latitude: 39.9612, longitude: -82.9988 };

/** The longitude step from a to b the short way round, as the service draws a polygon's edges. */
const step = (from: number, to: number) => {
  const d = (((to - from) % 360) + 360) % 360;
  return d > 180 ? d - 360 : d;
};

/**
 * A point well inside a polygon fence (docs/subscriptions.md#polygons), concave ones included: on the
 * parallel halfway between two of its corners' latitudes, the middle of the widest stretch between
 * two crossings of its edges. Longitudes are unwrapped from the first corner, as the service does.
 */
function insidePolygon(polygon: Point[]): Point {
  const xs: number[] = [polygon[0]!.longitude];
  for (let i = 1; i < polygon.length; i++) xs.push(xs[i - 1]! + step(polygon[i - 1]!.longitude, polygon[i]!.longitude));
  const latitudes = [...new Set(polygon.map((p) => p.latitude))].sort((a, b) => a - b);
  let best = { width: -1, point: polygon[0]! };
  for (let k = 1; k < latitudes.length; k++) {
    const y = (latitudes[k - 1]! + latitudes[k]!) / 2;
    const crossings: number[] = [];
    for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
      const [a, b] = [polygon[j]!, polygon[i]!];
      const [ax, bx] = [xs[j]!, j === polygon.length - 1 ? xs[j]! + step(a.longitude, b.longitude) : xs[i]!];
      if (a.latitude > y !== b.latitude > y)
        crossings.push(ax + ((y - a.latitude) * (bx - ax)) / (b.latitude - a.latitude));
    }
    crossings.sort((a, b) => a - b);
    for (let c = 0; c + 1 < crossings.length; c += 2) {
      const width = crossings[c + 1]! - crossings[c]!;
      const x = (crossings[c]! + crossings[c + 1]!) / 2;
      if (width > best.width)
        best = { width, point: { latitude: y, longitude: ((((x + 180) % 360) + 360) % 360) - 180 } };
    }
  }
  return best.point;
}

/** A point outside a polygon fence: past its corners, away from the pole a ring might go round. */
function beyondPolygon(polygon: Point[]): Point {
  const latitudes = polygon.map((p) => p.latitude);
  const north = latitudes.reduce((a, b) => a + b, 0) / latitudes.length < 0;
  const latitude = north
    ? Math.min(Math.max(...latitudes) + 0.05, 89.9)
    : Math.max(Math.min(...latitudes) - 0.05, -89.9);
  return { latitude, longitude: polygon[0]!.longitude };
}
const at = (p: { latitude: number; longitude: number }): Datum => ({
  key: "GEN_WAYPOINT",
  value: `${p.latitude.toFixed(6)},${p.longitude.toFixed(6)}`,
});
const driving = (datum: Datum[]): DataSetPlan => ({ ignitionStatus: "RUNNING", datum: [at(HOME), ...datum] });

/** A momentary event: a data set without the device's event key, then one with it. */
const momentary = (key: string, ignitionStatus: DataSetPlan["ignitionStatus"] = "RUNNING"): TriggerPlan => ({
  criteria: {},
  period: "CONTINUOUS",
  sets: () => [
    { ignitionStatus, datum: [at(HOME)] },
    { ignitionStatus, datum: [at(HOME), { key, value: true }] },
  ],
});

// A window far from now (UTC): driving now is outside it, which is what TIMEOFDAY reports.
function windowAwayFromNow(): Criteria {
  const hour = (new Date().getUTCHours() + 12) % 24;
  const hh = String(hour).padStart(2, "0");
  return {
    startTime: `${hh}:00`,
    endTime: `${hh}:30`,
    daysOfWeek: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"],
    ignitionStatus: "ANY",
  };
}

export const TRIGGER_PLANS: Record<string, TriggerPlan> = {
  WAYPOINT: {
    criteria: {},
    period: "CONTINUOUS",
    sets: () => [{ ignitionStatus: "RUNNING", datum: [{ key: "GEN_SPEED", value: 30 }] }, driving([])],
  },
  GEOFENCE: {
    criteria: { origin: HOME, radius: 1, boundaryCondition: "INSIDE", ignitionStatus: "ANY" },
    period: "CONTINUOUS",
    sets: (c) => {
      const polygon = c.polygon as Point[] | undefined;
      const origin = polygon ? insidePolygon(polygon) : ((c.origin as Point | undefined) ?? HOME);
      const radius = Number(c.radius ?? 1);
      // A point about twice the radius north (69 miles a degree of latitude), capped at the pole; for a
      // polygon, beyond its corners on the side away from the pole it might go round.
      const far = polygon
        ? beyondPolygon(polygon)
        : { latitude: Math.min(origin.latitude + (radius * 2) / 69 + 0.05, 89.9), longitude: origin.longitude };
      const [outside, inside] = [
        { ignitionStatus: "RUNNING" as const, datum: [at(far)] },
        { ignitionStatus: "RUNNING" as const, datum: [at(origin)] },
      ];
      return c.boundaryCondition === "OUTSIDE" ? [inside, outside] : [outside, inside];
    },
  },
  IGNITIONSTATUS: {
    criteria: {},
    period: "STATECHANGE",
    sets: () => [
      { ignitionStatus: "OFF", datum: [at(HOME)] },
      { ignitionStatus: "ON", datum: [at(HOME)] },
    ],
  },
  LOWBATTERY: {
    criteria: {},
    period: "CONTINUOUS",
    sets: () => [driving([{ key: "GEN_VOLTAGE", value: 13.9 }]), driving([{ key: "GEN_VOLTAGE", value: 11.4 }])],
  },
  NUMERICDATAKEY: {
    criteria: { dataKey: "GEN_SPEED", thresholdValue: 70, relationship: "ABOVE" },
    period: "CONTINUOUS",
    sets: (c) => {
      const key = String(c.dataKey ?? "GEN_SPEED");
      const threshold = Number(c.thresholdValue ?? 70);
      const meets =
        c.relationship === "BELOW" ? threshold - 10 : c.relationship === "EQUALTO" ? threshold : threshold + 10;
      const misses =
        c.relationship === "BELOW" ? threshold + 10 : c.relationship === "EQUALTO" ? threshold + 10 : threshold - 10;
      return [driving([{ key, value: misses }]), driving([{ key, value: meets }])];
    },
  },
  TIMEOFDAY: {
    criteria: windowAwayFromNow(),
    period: "CONTINUOUS",
    sets: () => [
      { ignitionStatus: "OFF", datum: [at(HOME)] },
      { ignitionStatus: "RUNNING", datum: [at(HOME)] },
    ],
  },
  TROUBLECODE: {
    criteria: {},
    period: "CONTINUOUS",
    sets: () => [driving([]), driving([{ key: "GEN_DTC", value: "P0300" }])],
  },
  VEHICLEHARSHACCEL: momentary("VEHICLE_EVENT_HARSH_ACCEL"),
  VEHICLEHARSHDECEL: momentary("VEHICLE_EVENT_HARSH_DECEL"),
  VEHICLEHARSHRIGHT: momentary("VEHICLE_EVENT_HARSH_RIGHT"),
  VEHICLEHARSHLEFT: momentary("VEHICLE_EVENT_HARSH_LEFT"),
  VEHICLEIMPACT: momentary("VEHICLE_EVENT_HARSH_IMPACT"),
  VEHICLECONNECTED: momentary("VEHICLE_EVENT_CONNECTED"),
  VEHICLEDISCONNECTED: momentary("VEHICLE_EVENT_DISCONNECTED"),
  VEHICLETOWED: momentary("VEHICLE_EVENT_TOWED", "OFF"),
};

/** Why a type cannot be triggered from data, for the one line the command prints. */
export const NOT_FROM_DATA: Record<string, string> = {
  VEHICLECREATED:
    "VEHICLECREATED happens when a vehicle is added to an account: POST /vehicle/ with the driver's token.",
  VEHICLEDELETED: "VEHICLEDELETED happens when a vehicle is deleted: DELETE /vehicle/{id} with the driver's token.",
  AUTHORIZATIONSTATUS: "AUTHORIZATIONSTATUS happens when a driver revokes the app on the driver site's Connected apps.",
};
