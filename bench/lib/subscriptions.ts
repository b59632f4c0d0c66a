// Ten event subscriptions of mixed types and periods per vehicle, for the batches that are
// measured subscribed (bench:ingest (c), bench:ingest-cpu with BENCH_SUBSCRIBED=1). The benches'
// sets are RUNNING, along a line from 39.5,-83, with GEN_SPEED 20–69 and GEN_HEADING, so
// WAYPOINT fires on every set. Each has one HTTP_POST delivery; the services the benches start
// run no delivery worker, so nothing is ever sent to its address.
export const MIXED_SUBSCRIPTIONS: [string, Record<string, unknown>][] = [
  ["WAYPOINT", { notificationPeriod: "CONTINUOUS" }],
  [
    "GEOFENCE",
    {
      notificationPeriod: "STATECHANGE",
      origin: { latitude: 39.5, longitude: -83 },
      radius: 0.5,
      boundaryCondition: "INSIDE",
    },
  ],
  [
    "GEOFENCE",
    {
      notificationPeriod: "INITIALSTATE",
      origin: { latitude: 39.6, longitude: -82.9 },
      radius: 2,
      boundaryCondition: "OUTSIDE",
      ignitionStatus: "ON",
    },
  ],
  ["IGNITIONSTATUS", { notificationPeriod: "STATECHANGE" }],
  ["LOWBATTERY", { notificationPeriod: "INITIALSTATE" }],
  [
    "NUMERICDATAKEY",
    { notificationPeriod: "STATECHANGE", dataKey: "GEN_SPEED", thresholdValue: 60, relationship: "ABOVE" },
  ],
  [
    "TIMEOFDAY",
    {
      notificationPeriod: "INITIALSTATE",
      startTime: "06:00",
      endTime: "22:00",
      daysOfWeek: ["MON", "TUE", "WED", "THU", "FRI"],
    },
  ],
  ["TROUBLECODE", { notificationPeriod: "CONTINUOUS" }],
  ["VEHICLEHARSHDECEL", { notificationPeriod: "CONTINUOUS", minimumTime: 5 }],
  ["VEHICLETOWED", { notificationPeriod: "CONTINUOUS" }],
];

/** Makes the ten subscriptions on the vehicle, through the API as a partner would. */
export async function subscribeMixed(base: string, auth: Record<string, string>, vehicle: number): Promise<void> {
  for (const [type, body] of MIXED_SUBSCRIPTIONS) {
    const res = await fetch(`${base}/v1/api/vehicle/${vehicle}/eventSubscription/${type}/`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ ...body, postUrl: "https://receiver.bench.example/hook" }),
    });
    if (res.status !== 200) throw new Error(`subscribe ${type}: ${res.status} ${await res.text()}`);
  }
}
