// @module-tag embedded
import { describe, expect, it } from "vitest";
import { api, clientToken, createDriver, testSql } from "@/test/helpers/api";
import { addVehicle, apps } from "@/test/helpers/fixtures";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// Notifications and their pending deliveries (the queue) have no foreign keys to
// what they hang on; statement triggers (wayline_delete_dependents, db/migrations/0012 and 0032)
// delete them with it. What each deletion must take along, and leave.

const sandbox = api("sandbox");
const RECEIVER = "https://hooks.partner.example/wayline";
const minutesAgo = (m: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - m * 60_000);

/** A driver whose vehicle has a vehicle and an account subscription, each notified once, with pending deliveries. */
async function notifiedDriver() {
  const driver = await createDriver("sandbox", apps().main.sandbox);
  const client = await clientToken(apps().main.sandbox);
  const vehicle = await addVehicle("sandbox", driver.accessToken);
  for (const path of [
    `/vehicle/${vehicle.vehicleId}/eventSubscription/WAYPOINT/`,
    `/account/${driver.account.id}/eventSubscription/WAYPOINT/`,
  ]) {
    const res = await sandbox.post(path, { postUrl: RECEIVER }, client);
    expect(res.status, res.text).toBe(200);
  }
  const posted = await sandbox.post(
    `/vehicle/${vehicle.vehicleId}/dataSet/`,
    dataSet(minutesAgo(2), "ON", [waypoint(39.9, -83)]),
    driver.accessToken,
  );
  expect(posted.status, posted.text).toBe(200);
  return { ...driver, client, vehicleId: vehicle.vehicleId };
}

/** No pending delivery without its notification: in every count below. */
const noOrphans = { orphans: 0 };

// The app events an account's deletion makes (ACCOUNTDELETED: the bare account id, for the apps that
// could reach it; docs/delivery.md#app-events) are not the account's notifications, and stay.
async function left(accountId: number) {
  const [row] = await testSql()`select (select count(*) from notifications where account_id = ${accountId}
        and type not in ('ACCESSREVOKED', 'ACCOUNTDELETED'))::int as notifications,
      (select count(*) from notification_deliveries nd where not exists (select 1 from notifications n where n.id = nd.notification_id))::int as orphans,
      (select count(*) from notification_deliveries nd join notifications n on n.id = nd.notification_id where n.account_id = ${accountId})::int as deliveries,
      (select count(*) from notification_deliveries nd join notifications n on n.id = nd.notification_id
        where n.account_id = ${accountId} and nd.status = 'PENDING')::int as queued`;
  return row;
}

describe("deleting what notifications hang on", () => {
  it("an account takes its notifications and their deliveries along, and leaves another account's", async () => {
    const gone = await notifiedDriver();
    const kept = await notifiedDriver();
    // An app-wide subscription's notification about the account (as revoking the app writes
    // one): the account's own subscriptions do not take it along.
    const system = await sandbox.post(
      `/system/eventSubscription/AUTHORIZATIONSTATUS/`,
      { postUrl: RECEIVER },
      gone.client,
    );
    expect(system.status, system.text).toBe(200);
    await testSql()`insert into notifications (environment, subscription_id, app_id, account_id, type, event_at, body)
      select 'sandbox', id, app_id, ${gone.account.id}, 'AUTHORIZATIONSTATUS', now(), '{}'::jsonb from subscriptions where id = ${system.body.subscription.id}`;
    expect(await left(gone.account.id)).toEqual({ notifications: 3, deliveries: 2, queued: 2, ...noOrphans });

    const res = await sandbox.del(`/account/${gone.account.id}`, gone.client);
    expect(res.status, res.text).toBe(200);
    expect(await left(gone.account.id)).toEqual({ notifications: 0, deliveries: 0, queued: 0, ...noOrphans });
    expect(await left(kept.account.id)).toEqual({ notifications: 2, deliveries: 2, queued: 2, ...noOrphans });
  });

  it("a vehicle takes its own subscriptions' notifications and their deliveries along; the account subscriptions' (WAYPOINT, VEHICLEDELETED) stay with theirs", async () => {
    const driver = await notifiedDriver();
    const removed = await sandbox.post(
      `/account/${driver.account.id}/eventSubscription/VEHICLEDELETED/`,
      { postUrl: RECEIVER },
      driver.client,
    );
    expect(removed.status, removed.text).toBe(200);
    expect((await sandbox.del(`/vehicle/${driver.vehicleId}`, driver.accessToken)).status).toBe(200);
    const notes =
      await testSql()`select n.type, s.scope from notifications n join subscriptions s on s.id = n.subscription_id
      where n.account_id = ${driver.account.id} order by n.id`;
    expect(notes.map((n) => [n.type, n.scope])).toEqual([
      ["WAYPOINT", "ACCOUNT"],
      ["VEHICLEDELETED", "ACCOUNT"],
    ]);
    expect(await left(driver.account.id)).toEqual({ notifications: 2, deliveries: 2, queued: 2, ...noOrphans });
  });

  it("a delivery removed takes its pending rows along; the other subscription's stay", async () => {
    const driver = await notifiedDriver();
    const [sub] = await testSql()`select id from subscriptions where vehicle_id = ${driver.vehicleId}`;
    expect(await left(driver.account.id)).toEqual({ notifications: 2, deliveries: 2, queued: 2, ...noOrphans });
    // As replaceDeliveries removes a delivery the subscription's new list does not name.
    await testSql()`delete from subscription_deliveries where subscription_id = ${sub!.id}`;
    expect(await left(driver.account.id)).toEqual({ notifications: 2, deliveries: 1, queued: 1, ...noOrphans });
  });

  it("a subscription deleted outright (as its vehicle's deletion cascades) takes its notifications and their deliveries along", async () => {
    const driver = await notifiedDriver();
    const [sub] = await testSql()`select id from subscriptions where vehicle_id = ${driver.vehicleId}`;
    await testSql()`delete from subscriptions where id = ${sub!.id}`;
    const notes = await testSql()`select subscription_id from notifications where account_id = ${driver.account.id}`;
    expect(notes.map((n) => Number(n.subscription_id))).not.toContain(Number(sub!.id));
    expect(await left(driver.account.id)).toEqual({ notifications: 1, deliveries: 1, queued: 1, ...noOrphans });
  });
});
