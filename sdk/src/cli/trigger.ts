import { unwrap } from "../errors.js";
import type { WaylineClient } from "../client.js";
import type { paths } from "../generated/openapi.js";
import { UsageError } from "./config.js";
import { fromWire, toWire } from "./wire-time.js";
import { NOT_FROM_DATA, TRIGGER_PLANS, type DataSetPlan } from "./trigger-plans.js";

// wayline trigger <TYPE> --vehicle <id> (docs/sdk.md#wayline-trigger): makes a real sandbox event of that
// type for the vehicle, so it reaches the app's deliveries, the event feed and `wayline listen` like any
// other. (The API's test notification, GET test/vehicle/…, is not an event: the feed leaves it out, so
// `listen` would never see it.) It uses the vehicle's live subscription of the type, or creates one with
// no delivery (the event feed carries its events), and posts two sandbox data sets that make the
// subscription's criteria become met.

type EventType =
  paths["/vehicle/{vehicleId}/eventSubscription/{eventType}/"]["post"]["parameters"]["path"]["eventType"];

export async function trigger(
  api: WaylineClient,
  typeArg: string | undefined,
  vehicleArg: string | undefined,
  print: (line: string) => void,
): Promise<void> {
  const type = (typeArg ?? "").toUpperCase();
  if (!type) throw new UsageError("Name the event type: wayline trigger <TYPE> --vehicle <id>.");
  if (NOT_FROM_DATA[type]) throw new UsageError(`${type} cannot be triggered: ${NOT_FROM_DATA[type]}`);
  const plan = TRIGGER_PLANS[type];
  if (!plan) throw new UsageError(`Unknown event type ${type}. One of: ${Object.keys(TRIGGER_PLANS).join(", ")}.`);
  const vehicleId = Number(vehicleArg);
  if (!Number.isInteger(vehicleId) || vehicleId <= 0)
    throw new UsageError("--vehicle <id> is a vehicle id (a number).");
  const path = { vehicleId: String(vehicleId), eventType: type as EventType };

  const { subscriptions } = unwrap(
    await api.GET("/vehicle/{vehicleId}/eventSubscription/{eventType}/", {
      params: { path, query: { searchLimit: 500 } },
    }),
  );
  type Subscription = { id: number; deletionTimestamp: string | null; [k: string]: unknown };
  let subscription: Subscription | undefined = (subscriptions as Subscription[]).find(
    (s) => s.deletionTimestamp === null,
  );
  if (!subscription) {
    subscription = unwrap(
      await api.POST("/vehicle/{vehicleId}/eventSubscription/{eventType}/", {
        params: { path },
        body: { notificationPeriod: plan.period, ...plan.criteria } as never,
      }),
    ).subscription as Subscription;
    print(`Subscribed the app to ${type} on vehicle ${vehicleId} (subscription ${subscription!.id}, no delivery).`);
  }

  // The two data sets must be new to the vehicle: one at a timestamp it already has is a duplicate,
  // answered with the stored one and evaluated no more (docs/device-data.md). Timestamps on the wire
  // are whole seconds, so a trigger within a second of the last one would post that one's two again:
  // the second set goes after the vehicle's latest, now or a second or two ahead (the API takes up to
  // five minutes ahead).
  const latestMs = await latestDataAt(api, String(vehicleId));
  const [before, after] = plan.sets(subscription!);
  const now = Math.max(Math.floor(Date.now() / 1000) * 1000, latestMs + 2000);
  const dataSet = (set: DataSetPlan, at: Date) => ({
    timestamp: toWire(at),
    ignitionStatus: set.ignitionStatus,
    datum: set.datum.map((d) => ({ ...d, timestamp: toWire(at) })),
  });
  unwrap(
    await api.POST("/vehicle/{vehicleId}/dataSet/", {
      params: { path: { vehicleId: String(vehicleId) } },
      body: [dataSet(before, new Date(now - 1000)), dataSet(after, new Date(now))] as never,
    }),
  );
  print(`Triggered ${type} on vehicle ${vehicleId} (subscription ${subscription!.id}).`);
}

/**
 * When the vehicle's latest data set was recorded (epoch ms; 0 when it has none), as far as the app may see.
 * An app whose grant lacks `data` may not list data sets (403: a location-only app triggering WAYPOINT or
 * GEOFENCE); the vehicle's last position and last running time stand in, which the second data set of every
 * trigger sets (each carries a position).
 */
async function latestDataAt(api: WaylineClient, vehicleId: string): Promise<number> {
  const sets = await api.GET("/vehicle/{vehicleId}/dataSet/", {
    params: { path: { vehicleId }, query: { searchLimit: 1 } },
  });
  if (sets.response.status !== 403) {
    const [latest] = unwrap(sets).dataSet;
    return latest ? fromWire(latest.timestamp) : 0;
  }
  const { vehicle } = unwrap(await api.GET("/vehicle/{vehicleId}", { params: { path: { vehicleId } } }));
  const times = [vehicle.lastWaypoint?.timestamp, vehicle.lastRunningTimestamp].flatMap((t) =>
    t ? [fromWire(t)] : [],
  );
  return Math.max(0, ...times);
}
