import { describe, expect, it } from "vitest";
import { api, clientToken, createDriver, testSql, type Env } from "@/test/helpers/api";
import { hiddenFields } from "@/test/helpers/browser";
import {
  addVehicle,
  apps,
  createPartnerApp,
  DATE_TIME,
  expectApiError,
  expectFieldErrors,
} from "@/test/helpers/fixtures";
import { authorizeCode, codeRequest, exchangeCode, newDriver, webApp } from "@/test/helpers/oauth-flow";
import { dataSet, driverWithVehicle, waypoint, wireTime } from "@/test/helpers/telemetry";

// Event subscriptions and the notifications they produce (docs/subscriptions.md), over real HTTP.
// On the embedded database too: the tests tagged `embedded`, those of ingest and delivery (the
// subscription API's own checks answer the same there: docs/testing.md#which-tests-run-on-the-embedded-database).

const sandbox = api("sandbox");
const RECEIVER = "https://hooks.partner.example/wayline";
const minutesAgo = (m: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - m * 60_000);
const at = (start: Date, minute: number) => new Date(start.getTime() + minute * 60_000);

async function subscribe(path: string, body: Record<string, unknown>, token: string) {
  const res = await sandbox.post(path, body, token);
  expect(res.status, res.text).toBe(200);
  return res.body.subscription as { id: number; [key: string]: any };
}

async function post(vehicleId: number, token: string, sets: unknown) {
  const res = await sandbox.post(`/vehicle/${vehicleId}/dataSet/`, sets, token);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function notificationsOf(path: string, token: string) {
  const res = await sandbox.get(`${path}?searchLimit=500&sortOrder=asc`, token);
  expect(res.status, res.text).toBe(200);
  return res.body.notifications as any[];
}

describe("subscription API", () => {
  it("creates with the legacy postUrl form, reads by id and by case-insensitive type, lists under `subscriptions`", async () => {
    const { accessToken: token, vehicleId, account } = await driverWithVehicle();
    const sub = await subscribe(
      `/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`,
      {
        notificationPeriod: "CONTINUOUS",
        minimumTime: "0",
        postUrl: RECEIVER,
        postHeaders: { Authorization: "Bearer partner" },
      },
      token,
    );
    expect(sub).toMatchObject({
      _type: "WAYPOINT",
      notificationPeriod: "CONTINUOUS",
      minimumTime: 0,
      creatorClientId: apps().main.sandbox.clientId,
      vehicleId,
      accountId: account.id,
      deletionTimestamp: null,
      postUrl: RECEIVER,
      postHeaders: { Authorization: "Bearer partner" },
      deliveries: [
        {
          id: expect.any(Number),
          type: "HTTP_POST",
          postUrl: RECEIVER,
          postHeaders: { Authorization: "Bearer partner" },
          oauth2: null,
          active: true,
          deactivationReason: null,
        },
      ],
    });
    expect(sub.creationTimestamp).toMatch(DATE_TIME);
    expect(sub._timestamp).toBe(sub.creationTimestamp);

    for (const path of [`${sub.id}`, `WAYPOINT/${sub.id}`, `wayPoint/${sub.id}/`]) {
      const res = await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/${path}`, token);
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual({ subscription: sub, totalRecords: null, actions: [] });
    }
    expectApiError(
      await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/GEOFENCE/${sub.id}`, token),
      404,
      "NOT_FOUND",
    );
    expectApiError(await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/NOSUCHTYPE/`, token), 404, "NOT_FOUND");

    const listed = await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/`, token);
    expect(listed.body).toEqual({ subscriptions: [sub], totalRecords: 1, actions: [] });
    expect((await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/geofence/`, token)).body.subscriptions).toEqual(
      [],
    );
  });

  it("takes a deliveries array (POST_HTTP as HTTP_POST, oauth2, EMAIL), INITIAL as INITIALSTATE, the type's criteria", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const oauth2 = {
      access_token: "at",
      client_id: "cid",
      client_secret: "cs",
      refresh_token: "rt",
      redirect_uri: "https://auth.partner.example/token",
    };
    const sub = await subscribe(
      `/vehicle/${vehicleId}/eventSubscription/geofence/`,
      {
        notificationPeriod: "initial",
        origin: { latitude: "39.96", longitude: -83.0 },
        radius: 1.5,
        boundaryCondition: "inside",
        deliveries: [
          { type: "POST_HTTP", postUrl: RECEIVER, oauth2 },
          { type: "EMAIL", recipient: "ops@partner.example", subscriberSubject: "Arrived" },
        ],
      },
      token,
    );
    expect(sub).toMatchObject({
      _type: "GEOFENCE",
      notificationPeriod: "INITIALSTATE",
      origin: { latitude: 39.96, longitude: -83 },
      radius: 1.5,
      boundaryCondition: "INSIDE",
      ignitionStatus: "ANY",
      postUrl: null,
      deliveries: [
        { type: "HTTP_POST", postUrl: RECEIVER, oauth2, active: true },
        {
          type: "EMAIL",
          recipient: "ops@partner.example",
          subscriberSubject: "Arrived",
          subscriberContent: null,
          active: true,
          deactivationReason: null,
        },
      ],
    });
  });

  it("updates the fields sent; an echoed read changes nothing; deliveries keep their ids", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const sub = await subscribe(
      `/vehicle/${vehicleId}/eventSubscription/LOWBATTERY/`,
      { notificationPeriod: "STATECHANGE", postUrl: RECEIVER },
      token,
    );

    const echoed = await sandbox.post(`/vehicle/${vehicleId}/eventSubscription/${sub.id}`, sub, token);
    expect(echoed.status, echoed.text).toBe(200);
    expect(echoed.body.subscription).toEqual(sub);

    const changed = await sandbox.post(
      `/vehicle/${vehicleId}/eventSubscription/LOWBATTERY/${sub.id}/`,
      { minimumTime: 15, postUrl: "https://new.partner.example/hook" },
      token,
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.subscription).toMatchObject({
      minimumTime: 15,
      notificationPeriod: "STATECHANGE",
      postUrl: "https://new.partner.example/hook",
    });
    expect(changed.body.subscription.deliveries).toEqual([
      { ...sub.deliveries[0], postUrl: "https://new.partner.example/hook" },
    ]);

    const added = await sandbox.post(
      `/vehicle/${vehicleId}/eventSubscription/${sub.id}`,
      { deliveries: [...changed.body.subscription.deliveries, { type: "EMAIL", recipient: "a@b.example" }] },
      token,
    );
    expect(added.body.subscription.deliveries.map((d: { id: number; type: string }) => d.type)).toEqual([
      "HTTP_POST",
      "EMAIL",
    ]);
    expect(added.body.subscription.deliveries[0].id).toBe(sub.deliveries[0].id);

    expectFieldErrors(
      await sandbox.post(
        `/vehicle/${vehicleId}/eventSubscription/${sub.id}`,
        {
          notificationPeriod: "CONTINUOUS",
          radius: 5,
          deliveries: [{ id: 999999999, type: "EMAIL", recipient: "x@y.example" }],
        },
        token,
      ),
      {
        "deliveries.0.id": "INVALID",
      },
    );
  });

  it("DELETE marks it deleted: still listed, with deletionTimestamp; it can no longer be changed", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const sub = await subscribe(`/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, { postUrl: RECEIVER }, token);
    const res = await sandbox.del(`/vehicle/${vehicleId}/eventSubscription/waypoint/${sub.id}`, token);
    expect(res.body).toEqual({ result: "OK", totalRecords: 1, actions: [] });
    const listed = (await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/`, token)).body.subscriptions;
    expect(listed).toHaveLength(1);
    expect(listed[0].deletionTimestamp).toMatch(DATE_TIME);
    expectApiError(
      await sandbox.post(`/vehicle/${vehicleId}/eventSubscription/${sub.id}`, { minimumTime: 5 }, token),
      400,
      "VALIDATION",
    );
  });

  it("refuses bad bodies with field errors", async () => {
    const { accessToken: token, vehicleId, account } = await driverWithVehicle();
    const base = `/vehicle/${vehicleId}/eventSubscription`;
    expectFieldErrors(await sandbox.post(`${base}/IGNITIONSTATUS/`, { notificationPeriod: "CONTINUOUS" }, token), {
      notificationPeriod: "INVALID",
    });
    expectFieldErrors(await sandbox.post(`${base}/WAYPOINT/`, { notificationPeriod: "SOMETIMES" }, token), {
      notificationPeriod: "INVALID",
    });
    expectFieldErrors(await sandbox.post(`${base}/GEOFENCE/`, { postUrl: RECEIVER }, token), {
      origin: "REQUIRED",
      radius: "REQUIRED",
      boundaryCondition: "REQUIRED",
    });
    expectFieldErrors(
      await sandbox.post(
        `${base}/GEOFENCE/`,
        { origin: { latitude: 91, longitude: 0 }, radius: -1, boundaryCondition: "NEAR" },
        token,
      ),
      {
        "origin.latitude": "INVALID",
        radius: "INVALID",
        boundaryCondition: "INVALID",
      },
    );
    expectFieldErrors(
      await sandbox.post(`${base}/NUMERICDATAKEY/`, { dataKey: "GEN_SPEED", relationship: "ABOVE" }, token),
      { thresholdValue: "REQUIRED" },
    );
    expectFieldErrors(
      await sandbox.post(
        `${base}/TIMEOFDAY/`,
        { startTime: "25:00", endTime: "06:00", daysOfWeek: ["MON", "FUNDAY"] },
        token,
      ),
      { startTime: "INVALID", "daysOfWeek.1": "INVALID" },
    );
    expectFieldErrors(await sandbox.post(`${base}/WAYPOINT/`, { postUrl: "http://plain.example/hook" }, token), {
      postUrl: "INVALID",
    });
    expectFieldErrors(
      await sandbox.post(`${base}/WAYPOINT/`, { postUrl: "https://user:pw@partner.example/hook" }, token),
      { postUrl: "INVALID" },
    );
    expectFieldErrors(
      await sandbox.post(
        `${base}/WAYPOINT/`,
        { postUrl: RECEIVER, postHeaders: { "Content-Length": "1", "Bad Name": "x", Ok: "a\r\nInjected: 1" } },
        token,
      ),
      {
        "postHeaders.Content-Length": "INVALID",
        "postHeaders.Bad Name": "INVALID",
        "postHeaders.Ok": "INVALID",
      },
    );
    expectFieldErrors(
      await sandbox.post(
        `${base}/WAYPOINT/`,
        {
          deliveries: [
            { type: "EMAIL", recipient: "not-an-address" },
            { type: "HTTP_POST" },
            { type: "EMAIL" },
            { type: "FAX" },
            { type: "HTTP_POST", postUrl: RECEIVER, oauth2: { access_token: "a" } },
          ],
        },
        token,
      ),
      {
        "deliveries.0.recipient": "INVALID",
        "deliveries.1.postUrl": "REQUIRED",
        "deliveries.2.recipient": "REQUIRED",
        "deliveries.3.type": "INVALID",
        "deliveries.4.oauth2.client_id": "REQUIRED",
        "deliveries.4.oauth2.client_secret": "REQUIRED",
        "deliveries.4.oauth2.refresh_token": "REQUIRED",
        "deliveries.4.oauth2.redirect_uri": "REQUIRED",
      },
    );
    expectFieldErrors(await sandbox.post(`${base}/WAYPOINT/`, { minimumTime: -1 }, token), { minimumTime: "INVALID" });
    // Types in the wrong scope, and the system scope with a user token.
    expectApiError(await sandbox.post(`${base}/VEHICLECREATED/`, {}, token), 400, "VALIDATION");
    expectApiError(
      await sandbox.post(`/account/${account.id}/eventSubscription/AUTHORIZATIONSTATUS/`, {}, token),
      400,
      "VALIDATION",
    );
    expectApiError(await sandbox.post(`/system/eventSubscription/AUTHORIZATIONSTATUS/`, {}, token), 403, "FORBIDDEN");
    expectApiError(
      await sandbox.post(`/system/eventSubscription/WAYPOINT/`, {}, await clientToken(apps().main.sandbox)),
      400,
      "VALIDATION",
    );
    // Not JSON, and a method the path does not serve.
    expectApiError(await sandbox.post(`${base}/WAYPOINT/`, [1, 2], token), 400, "VALIDATION");
    expectApiError(await sandbox.del(`${base}/`, token), 405, "METHOD_NOT_ALLOWED");
    expect((await sandbox.get(`${base}/`, token)).body.subscriptions).toEqual([]);
  });

  it("is visible only to the app that created it; another account's vehicle is 404", async () => {
    const { accessToken: token, vehicleId, account, clientToken: mainClient } = await driverWithVehicle();
    const sub = await subscribe(`/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, { postUrl: RECEIVER }, token);
    await post(vehicleId, token, dataSet(minutesAgo(5), "ON", [waypoint(39.9, -83)]));
    expect(await notificationsOf(`/vehicle/${vehicleId}/eventNotification/`, token)).toHaveLength(1);

    // The other app, authorized for the same account through its client-credentials view? It
    // cannot see the account at all, so every path under it is 404.
    const otherToken = await clientToken(apps().other.sandbox);
    expectApiError(
      await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/${sub.id}`, otherToken),
      404,
      "NOT_FOUND",
    );
    expectApiError(await sandbox.get(`/vehicle/${vehicleId}/eventNotification/`, otherToken), 404, "NOT_FOUND");

    // A second app that the account authorized sees the vehicle, but not the first app's subscriptions.
    const second = await createPartnerApp();
    const secondToken = await clientToken(second.sandbox);
    await testSql()`insert into account_grants (account_id, app_id, source) select ${account.id},
      app_id, 'authorized' from app_credentials where client_id = ${second.sandbox.clientId}`;
    expect((await sandbox.get(`/vehicle/${vehicleId}`, secondToken)).status).toBe(200);
    expectApiError(
      await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/${sub.id}`, secondToken),
      404,
      "NOT_FOUND",
    );
    expectApiError(
      await sandbox.del(`/vehicle/${vehicleId}/eventSubscription/${sub.id}`, secondToken),
      404,
      "NOT_FOUND",
    );
    expect((await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/`, secondToken)).body.subscriptions).toEqual([]);
    expect(await notificationsOf(`/vehicle/${vehicleId}/eventNotification/`, secondToken)).toEqual([]);
    const firstNote = (await notificationsOf(`/vehicle/${vehicleId}/eventNotification/`, token))[0];
    expectApiError(
      await sandbox.get(`/vehicle/${vehicleId}/eventNotification/${firstNote.id}`, secondToken),
      404,
      "NOT_FOUND",
    );

    // A user token of another account of the same app.
    const stranger = await createDriver("sandbox", apps().main.sandbox);
    expectApiError(
      await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/`, stranger.accessToken),
      404,
      "NOT_FOUND",
    );
    expectApiError(
      await sandbox.get(`/account/${account.id}/eventNotification/`, stranger.accessToken),
      404,
      "NOT_FOUND",
    );
    // The app's own client token sees it.
    expect((await sandbox.get(`/vehicle/${vehicleId}/eventSubscription/${sub.id}`, mainClient)).status).toBe(200);
  });
});

describe("notifications from data sets", { tags: ["embedded"] }, () => {
  it("a trip produces exactly the WAYPOINT, IGNITIONSTATUS and GEOFENCE notifications asked for, with the documented fields", async () => {
    const { accessToken: token, vehicleId, account } = await driverWithVehicle();
    const base = `/vehicle/${vehicleId}/eventSubscription`;
    const waypoints = await subscribe(`${base}/WAYPOINT/`, { postUrl: RECEIVER }, token);
    const ignition = await subscribe(
      `${base}/IGNITIONSTATUS/`,
      { notificationPeriod: "STATECHANGE", postUrl: RECEIVER },
      token,
    );
    const fence = await subscribe(
      `${base}/GEOFENCE/`,
      {
        notificationPeriod: "STATECHANGE",
        origin: { latitude: 39.96, longitude: -83.0 },
        radius: 1,
        boundaryCondition: "INSIDE",
        postUrl: RECEIVER,
      },
      token,
    );

    const start = minutesAgo(30);
    // Inside the 1-mile fence for three sets, then 0.1° (about 7 miles) north.
    const sets = [
      dataSet(at(start, 0), "ON", [waypoint(39.96, -83.0), { key: "GEN_VOLTAGE", value: 13.9 }]),
      dataSet(at(start, 1), "RUNNING", [waypoint(39.961, -83.0)]),
      dataSet(at(start, 2), "RUNNING", [{ key: "GEN_SPEED", value: 30 }]),
      dataSet(at(start, 3), "RUNNING", [waypoint(40.06, -83.0)]),
      dataSet(at(start, 4), "OFF", [waypoint(40.06, -83.0), { key: "GEN_TRIP_MILEAGE", value: 7 }]),
    ];
    const stored = (await post(vehicleId, token, sets)).dataSet as { id: number; tripId: number }[];

    const all = await notificationsOf(`/vehicle/${vehicleId}/eventNotification/`, token);
    expect(all.filter((n) => n._type === "WAYPOINT").map((n) => n._timestamp)).toEqual(
      [0, 1, 3, 4].map((m) => wireTime(at(start, m))),
    );
    expect(all.filter((n) => n._type === "IGNITIONSTATUS").map((n) => [n._timestamp, n.ignitionStatus])).toEqual([
      [wireTime(at(start, 0)), "ON"],
      [wireTime(at(start, 4)), "OFF"],
    ]);
    expect(all.filter((n) => n._type === "GEOFENCE").map((n) => [n._timestamp, n.recordedBoundaryCondition])).toEqual([
      [wireTime(at(start, 0)), "INSIDE"],
      [wireTime(at(start, 3)), "OUTSIDE"],
    ]);

    const first = all.find((n) => n._type === "WAYPOINT")!;
    expect(first).toEqual({
      id: expect.any(Number),
      eventId: String(first.id),
      subscriptionId: waypoints.id,
      accountId: account.id,
      vehicleId,
      dataSetId: stored[0]!.id,
      tripId: stored[0]!.tripId,
      _domain: "wayline",
      _type: "WAYPOINT",
      _name: "WAYPOINT",
      _timestamp: wireTime(at(start, 0)),
      eventTimestamp: expect.stringMatching(DATE_TIME),
      minimumTime: 0,
      notificationPeriod: "CONTINUOUS",
      creatorClientId: apps().main.sandbox.clientId,
      httpStatusCode: 0,
      recordedWaypoint: { timestamp: wireTime(at(start, 0)), latitude: 39.96, longitude: -83 },
    });

    // The same notifications under each subscription, by type, and one by one.
    expect(await notificationsOf(`${base}/${ignition.id}/eventNotification/`, token)).toEqual(
      all.filter((n) => n.subscriptionId === ignition.id),
    );
    expect(await notificationsOf(`${base}/${fence.id}/eventNotification/GEOFENCE/`, token)).toHaveLength(2);
    expect(await notificationsOf(`/vehicle/${vehicleId}/eventNotification/ignitionStatus/`, token)).toHaveLength(2);
    expect(await notificationsOf(`/account/${account.id}/eventNotification/`, token)).toHaveLength(all.length);
    const one = await sandbox.get(`/vehicle/${vehicleId}/eventNotification/WAYPOINT/${first.id}`, token);
    expect(one.body).toEqual({ notification: first, totalRecords: null, actions: [] });
    expectApiError(
      await sandbox.get(`/vehicle/${vehicleId}/eventNotification/GEOFENCE/${first.id}`, token),
      404,
      "NOT_FOUND",
    );
    expectApiError(await sandbox.get(`${base}/${fence.id}/eventNotification/${first.id}`, token), 404, "NOT_FOUND");

    // Paging: newest first by default, with next/previous links.
    const page = await sandbox.get(`/vehicle/${vehicleId}/eventNotification/?searchLimit=2`, token);
    expect(page.body.totalRecords).toBe(all.length);
    expect(page.body.notifications.map((n: { _timestamp: string }) => n._timestamp)).toEqual([
      wireTime(at(start, 4)),
      wireTime(at(start, 4)),
    ]);
    expect(page.body.actions.map((a: { name: string }) => a.name)).toEqual(["next"]);
  });

  it("writes one pending delivery per active delivery, in the same transaction as the notification", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const sub = await subscribe(
      `/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`,
      {
        deliveries: [
          { type: "HTTP_POST", postUrl: RECEIVER },
          { type: "EMAIL", recipient: "x@partner.example" },
          { type: "EMAIL", recipient: "y@partner.example" },
        ],
      },
      token,
    );
    await testSql()`update subscription_deliveries set active = false, deactivation_reason = 'test' where id = ${sub.deliveries[2].id}`;
    await post(vehicleId, token, [
      dataSet(minutesAgo(3), "ON", [waypoint(39.9, -83)]),
      dataSet(minutesAgo(2), "RUNNING", [waypoint(39.91, -83)]),
    ]);
    const rows =
      await testSql()`select n.id, array_agg(nd.delivery_id order by nd.delivery_id) as deliveries, bool_and(nd.status = 'PENDING') as pending
                                   from notifications n join notification_deliveries nd on nd.notification_id = n.id
                                  where n.subscription_id = ${sub.id} group by n.id`;
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.deliveries.map(Number)).toEqual([sub.deliveries[0].id, sub.deliveries[1].id]);
      expect(row.pending).toBe(true);
    }
  });

  it("an account subscription covers vehicles added later; VEHICLECREATED and VEHICLEDELETED come from the vehicle API", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    const accountPath = `/account/${driver.account.id}/eventSubscription`;
    const waypoints = await subscribe(`${accountPath}/WAYPOINT/`, { postUrl: RECEIVER }, driver.clientToken);
    const created = await subscribe(`${accountPath}/VEHICLECREATED/`, { postUrl: RECEIVER }, driver.clientToken);
    const removed = await subscribe(`${accountPath}/vehicledeleted/`, { postUrl: RECEIVER }, driver.clientToken);
    expect(waypoints).toMatchObject({ accountId: driver.account.id, vehicleId: null });

    const vehicle = await addVehicle("sandbox", driver.accessToken, { label: "Later" });
    await post(vehicle.vehicleId, driver.accessToken, dataSet(minutesAgo(4), "ON", [waypoint(39.9, -83)]));
    const notes = await notificationsOf(`/account/${driver.account.id}/eventNotification/`, driver.clientToken);
    expect(notes.map((n) => [n._type, n.subscriptionId, n.vehicleId])).toEqual(
      expect.arrayContaining([
        ["VEHICLECREATED", created.id, vehicle.vehicleId],
        ["WAYPOINT", waypoints.id, vehicle.vehicleId],
      ]),
    );
    expect(notes).toHaveLength(2);
    expect(await notificationsOf(`${accountPath}/${waypoints.id}/eventNotification/`, driver.clientToken)).toHaveLength(
      1,
    );

    expect((await sandbox.del(`/vehicle/${vehicle.vehicleId}`, driver.accessToken)).status).toBe(200);
    const after = await notificationsOf(`/account/${driver.account.id}/eventNotification/`, driver.clientToken);
    // The vehicle's data went with it; the account subscriptions' notifications stay (docs/subscriptions.md#who-keeps-which-notifications).
    expect(after.map((n) => [n._type, n.subscriptionId, n.vehicleId])).toEqual(
      expect.arrayContaining([
        ["WAYPOINT", waypoints.id, vehicle.vehicleId],
        ["VEHICLECREATED", created.id, vehicle.vehicleId],
        ["VEHICLEDELETED", removed.id, vehicle.vehicleId],
      ]),
    );
    expect(after).toHaveLength(3);
  });

  it("ONETIME fires once and deletes the subscription, even with two vehicles of the account posting at once", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    const [a, b] = [await addVehicle("sandbox", driver.accessToken), await addVehicle("sandbox", driver.accessToken)];
    const sub = await subscribe(
      `/account/${driver.account.id}/eventSubscription/WAYPOINT/`,
      { notificationPeriod: "ONETIME", postUrl: RECEIVER },
      driver.clientToken,
    );
    const start = minutesAgo(20);
    await Promise.all(
      [a!, b!].flatMap((v) =>
        [0, 1, 2].map((m) =>
          sandbox.post(
            `/vehicle/${v.vehicleId}/dataSet/`,
            dataSet(at(start, m), "RUNNING", [waypoint(39.9 + m / 100, -83)]),
            driver.accessToken,
          ),
        ),
      ),
    );
    expect(
      await notificationsOf(
        `/account/${driver.account.id}/eventSubscription/${sub.id}/eventNotification/`,
        driver.clientToken,
      ),
    ).toHaveLength(1);
    const read = (await sandbox.get(`/account/${driver.account.id}/eventSubscription/${sub.id}`, driver.clientToken))
      .body.subscription;
    expect(read.deletionTimestamp).toMatch(DATE_TIME);
  });

  it("concurrent posts for one vehicle neither double-fire nor miss: INITIALSTATE once, CONTINUOUS every time, STATECHANGE edges alternate", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const base = `/vehicle/${vehicleId}/eventSubscription`;
    const initial = await subscribe(`${base}/LOWBATTERY/`, { notificationPeriod: "INITIALSTATE" }, token);
    const continuous = await subscribe(`${base}/WAYPOINT/`, {}, token);
    const edges = await subscribe(`${base}/IGNITIONSTATUS/`, { notificationPeriod: "STATECHANGE" }, token);
    const start = minutesAgo(50);
    const replies = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        sandbox.post(
          `/vehicle/${vehicleId}/dataSet/`,
          dataSet(at(start, i), i % 4 < 2 ? "RUNNING" : "OFF", [
            waypoint(39.9 + i / 1000, -83),
            { key: "GEN_VOLTAGE", value: 11.2 },
          ]),
          token,
        ),
      ),
    );
    for (const r of replies) expect(r.status, r.text).toBe(200);
    expect(await notificationsOf(`${base}/${initial.id}/eventNotification/`, token)).toHaveLength(1);
    expect(await notificationsOf(`${base}/${continuous.id}/eventNotification/`, token)).toHaveLength(24);
    const states = (await notificationsOf(`${base}/${edges.id}/eventNotification/`, token)).map(
      (n) => n.ignitionStatus,
    );
    expect(states.length).toBeGreaterThan(0);
    states.forEach((s, i) => expect(s).toBe(i % 2 === 0 ? "ON" : "OFF"));
  });

  it("minimumTime drops notifications that come sooner than its minutes", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const sub = await subscribe(`/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, { minimumTime: 5 }, token);
    const start = minutesAgo(40);
    await post(
      vehicleId,
      token,
      Array.from({ length: 12 }, (_, i) => dataSet(at(start, i), "RUNNING", [waypoint(39.9, -83 + i / 1000)])),
    );
    const times = (
      await notificationsOf(`/vehicle/${vehicleId}/eventSubscription/${sub.id}/eventNotification/`, token)
    ).map((n) => n._timestamp);
    expect(times).toEqual([0, 5, 10].map((m) => wireTime(at(start, m))));
  });

  it("GET test/vehicle/…/eventSubscription/{id} makes a test notification with null recorded values and queues its deliveries", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const sub = await subscribe(`/vehicle/${vehicleId}/eventSubscription/LOWBATTERY/`, { postUrl: RECEIVER }, token);
    const res = await sandbox.get(`/test/vehicle/${vehicleId}/eventSubscription/${sub.id}`, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.notification).toMatchObject({
      subscriptionId: sub.id,
      vehicleId,
      _type: "LOWBATTERY",
      test: true,
      recordedWaypoint: null,
      recordedVoltage: null,
      thresholdVoltage: 12,
      dataSetId: null,
    });
    const [row] =
      await testSql()`select count(*)::int as n from notification_deliveries where notification_id = ${res.body.notification.id}`;
    expect(row!.n).toBe(1);
    expectApiError(
      await sandbox.get(`/test/vehicle/${vehicleId}/eventSubscription/999999999`, token),
      404,
      "NOT_FOUND",
    );
    const other = await driverWithVehicle();
    expectApiError(
      await sandbox.get(`/test/vehicle/${other.vehicleId}/eventSubscription/${sub.id}`, other.accessToken),
      404,
      "NOT_FOUND",
    );
  });

  it("AUTHORIZATIONSTATUS: a driver revoking the app on the connected-apps page notifies its system subscription", async () => {
    const appToken = await clientToken(webApp());
    const sub = await subscribe(`/system/eventSubscription/AUTHORIZATIONSTATUS/`, { postUrl: RECEIVER }, appToken);
    expect(sub).toMatchObject({
      vehicleId: null,
      accountId: null,
      _type: "AUTHORIZATIONSTATUS",
      notificationPeriod: "CONTINUOUS",
    });

    const driver = await newDriver();
    const { code } = await authorizeCode(driver.browser, codeRequest(webApp()));
    const tokens = await exchangeCode(webApp(), code);
    const accountId = (await sandbox.get("/account/", tokens.body.access_token)).body.account[0].id as number;
    const page = await driver.browser.get("/connected-apps");
    expect((await driver.browser.post("/connected-apps/revoke", hiddenFields(page.text))).status).toBe(303);

    // The subscription is the shared web app's: a driver of another test file revoking the same app
    // at the same time notifies it too (seen with four files at once), so the test reads its own driver's.
    const notes = (await notificationsOf(`/system/eventSubscription/${sub.id}/eventNotification/`, appToken)).filter(
      (n) => n.accountId === accountId,
    );
    expect(notes).toEqual([
      expect.objectContaining({
        _type: "AUTHORIZATIONSTATUS",
        authorizationStatus: "REVOKED",
        accountId,
        vehicleId: null,
        subscriptionId: sub.id,
      }),
    ]);
  });

  it("keeps production and sandbox apart", async () => {
    const env: Env = "production";
    const driver = await createDriver(env, apps().main.production);
    const vehicle = await addVehicle(env, driver.accessToken);
    const res = await api(env).post(
      `/vehicle/${vehicle.vehicleId}/eventSubscription/WAYPOINT/`,
      { postUrl: RECEIVER },
      driver.accessToken,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.subscription.creatorClientId).toBe(apps().main.production.clientId);
    expectApiError(
      await sandbox.get(`/vehicle/${vehicle.vehicleId}/eventSubscription/`, driver.accessToken),
      401,
      "UNAUTHORIZED",
    );
  });
});
