import { expect } from "vitest";
import { api, clientToken, createDriver, type Env } from "./api";
import { createPartnerApp } from "./fixtures";
import { dataSet, waypoint } from "./telemetry";
import type { TestApp } from "@/test/integration/global-setup";

// What the event feed's tests start from (event-feed.test.ts, event-stream.test.ts): an app of their
// own with a client-credentials token, and drivers of it whose vehicle notifies on every waypoint.

export type FeedApp = { app: TestApp; env: Env; client: string };

/** A new partner app and a client-credentials token of it in `env`. */
export async function freshApp(env: Env = "sandbox"): Promise<FeedApp> {
  const app = await createPartnerApp();
  return { app, env, client: await clientToken(app[env]) };
}

/** A driver of the app with one vehicle and a WAYPOINT subscription on it: every data set with a waypoint notifies. */
export async function subscribedVehicle({ app, env }: FeedApp, label = "Feed car") {
  const driver = await createDriver(env, app[env]);
  const created = await api(env).post("/vehicle/", { label }, driver.accessToken);
  expect(created.status, created.text).toBe(200);
  const vehicleId = created.body.vehicle.vehicleId as number;
  const sub = await api(env).post(
    `/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`,
    { notificationPeriod: "CONTINUOUS", postUrl: "https://hooks.partner.example/wayline" },
    driver.accessToken,
  );
  expect(sub.status, sub.text).toBe(200);
  return { token: driver.accessToken, vehicleId, subscriptionId: sub.body.subscription.id as number };
}

// Data times a day back, a second apart and never the same twice in a run (ingest refuses one more
// than 5 minutes ahead: an hour back was too little for the eight writers' burst on a fast machine).
let second = 0;

/** Posts `count` data sets with a waypoint (one as an object, several as an array); the stored sets' ids. */
export async function postWaypointSets(env: Env, token: string, vehicleId: number, count = 1) {
  const start = Date.now() - 86_400_000;
  const sets = Array.from({ length: count }, () =>
    dataSet(new Date(start + ++second * 1000), "RUNNING", [waypoint(39.96 + second / 1e5, -82.99)]),
  );
  const res = await api(env).post(`/vehicle/${vehicleId}/dataSet/`, count === 1 ? sets[0] : sets, token);
  expect(res.status, res.text).toBe(200);
  return (count === 1 ? [res.body.dataSet] : res.body.dataSet) as { id: number }[];
}
