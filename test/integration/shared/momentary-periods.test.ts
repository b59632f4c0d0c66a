import { describe, expect, it } from "vitest";
import { api, clientToken, createDriver, testSql } from "@/test/helpers/api";
import { addVehicle, apps, DATE_TIME, expectFieldErrors } from "@/test/helpers/fixtures";
import { webApp } from "@/test/helpers/oauth-flow";
import { dataSet, driverWithVehicle, waypoint, wireTime, type Datum } from "@/test/helpers/telemetry";

// The notification periods of the momentary event types (docs/subscriptions.md#momentary-events), over
// real HTTP: every one the original API accepted is accepted, and data sets with and without the
// event notify exactly as each period says.

const sandbox = api("sandbox");
const RECEIVER = "https://hooks.partner.example/wayline";
const MOMENTARY = [
  "VEHICLEHARSHACCEL",
  "VEHICLEHARSHDECEL",
  "VEHICLEHARSHRIGHT",
  "VEHICLEHARSHLEFT",
  "VEHICLEIMPACT",
  "VEHICLECONNECTED",
  "VEHICLEDISCONNECTED",
  "VEHICLETOWED",
];
const PERIODS = ["CONTINUOUS", "INITIALSTATE", "STATECHANGE", "ONETIME"];
const minutesAgo = (m: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - m * 60_000);
const at = (start: Date, minute: number) => new Date(start.getTime() + minute * 60_000);
const HARSH: Datum = { key: "VEHICLE_EVENT_HARSH_ACCEL", value: "true" };

async function subscribe(path: string, body: Record<string, unknown>, token: string) {
  const res = await sandbox.post(path, body, token);
  expect(res.status, res.text).toBe(200);
  return res.body.subscription as { id: number; [key: string]: any };
}

async function notificationsOf(path: string, token: string) {
  const res = await sandbox.get(`${path}?searchLimit=500&sortOrder=asc`, token);
  expect(res.status, res.text).toBe(200);
  return { notifications: res.body.notifications as any[], text: res.text };
}

describe("momentary event types: which periods they take", () => {
  it.each(MOMENTARY)(
    "POST …/eventSubscription/%s/ with each of CONTINUOUS, INITIALSTATE (and INITIAL), STATECHANGE, ONETIME → 200; none sent → CONTINUOUS",
    async (type) => {
      const { accessToken: token, vehicleId } = await driverWithVehicle();
      for (const period of [...PERIODS, "initial"]) {
        const sub = await subscribe(
          `/vehicle/${vehicleId}/eventSubscription/${type}/`,
          { notificationPeriod: period, postUrl: RECEIVER },
          token,
        );
        expect(sub).toMatchObject({
          _type: type,
          notificationPeriod: period === "initial" ? "INITIALSTATE" : period,
          vehicleId,
        });
      }
      expect(await subscribe(`/vehicle/${vehicleId}/eventSubscription/${type}/`, {}, token)).toMatchObject({
        notificationPeriod: "CONTINUOUS",
      });
      const driver = await createDriver("sandbox", apps().main.sandbox);
      expect(
        await subscribe(
          `/account/${driver.account.id}/eventSubscription/${type}/`,
          { notificationPeriod: "INITIALSTATE" },
          driver.clientToken,
        ),
      ).toMatchObject({ accountId: driver.account.id, notificationPeriod: "INITIALSTATE" });
    },
  );

  it("an existing CONTINUOUS subscription can be updated to INITIALSTATE and STATECHANGE", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const sub = await subscribe(`/vehicle/${vehicleId}/eventSubscription/VEHICLEIMPACT/`, {}, token);
    for (const period of ["INITIALSTATE", "STATECHANGE"]) {
      const res = await sandbox.post(
        `/vehicle/${vehicleId}/eventSubscription/VEHICLEIMPACT/${sub.id}`,
        { notificationPeriod: period },
        token,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.subscription.notificationPeriod).toBe(period);
    }
  });

  it("refused combinations → 400 with the field error on notificationPeriod (WAYPOINT, the account and system types keep CONTINUOUS and ONETIME)", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    expectFieldErrors(
      await sandbox.post(
        `/vehicle/${vehicleId}/eventSubscription/VEHICLEHARSHACCEL/`,
        { notificationPeriod: "SOMETIMES" },
        token,
      ),
      { notificationPeriod: "INVALID" },
    );
    expectFieldErrors(
      await sandbox.post(
        `/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`,
        { notificationPeriod: "INITIALSTATE" },
        token,
      ),
      { notificationPeriod: "INVALID" },
    );
    expectFieldErrors(
      await sandbox.post(
        `/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`,
        { notificationPeriod: "STATECHANGE" },
        token,
      ),
      { notificationPeriod: "INVALID" },
    );
    const driver = await createDriver("sandbox", apps().main.sandbox);
    for (const type of ["VEHICLECREATED", "VEHICLEDELETED"]) {
      for (const period of ["INITIALSTATE", "STATECHANGE"]) {
        expectFieldErrors(
          await sandbox.post(
            `/account/${driver.account.id}/eventSubscription/${type}/`,
            { notificationPeriod: period },
            driver.clientToken,
          ),
          { notificationPeriod: "INVALID" },
        );
      }
    }
    const appToken = await clientToken(webApp());
    expectFieldErrors(
      await sandbox.post(
        `/system/eventSubscription/AUTHORIZATIONSTATUS/`,
        { notificationPeriod: "INITIALSTATE" },
        appToken,
      ),
      { notificationPeriod: "INVALID" },
    );
  });
});

describe("momentary event types: what each period notifies", () => {
  // E E _ E _ _ E: sets carrying VEHICLE_EVENT_HARSH_ACCEL (E) or not (_).
  const RUNS = [true, true, false, true, false, false, true];
  const EXPECTED: Record<string, [number, boolean][]> = {
    CONTINUOUS: [
      [0, true],
      [1, true],
      [3, true],
      [6, true],
    ],
    INITIALSTATE: [
      [0, true],
      [3, true],
      [6, true],
    ],
    STATECHANGE: [
      [0, true],
      [2, false],
      [3, true],
      [4, false],
      [6, true],
    ],
    ONETIME: [[0, true]],
  };

  it.each([
    ["one post per data set", false],
    ["one batch", true],
  ])("VEHICLEHARSHACCEL under each period, %s: exactly the expected notifications", async (_, batch) => {
    const { accessToken: token, vehicleId, account } = await driverWithVehicle();
    const base = `/vehicle/${vehicleId}/eventSubscription`;
    const subs = Object.fromEntries(
      await Promise.all(
        PERIODS.map(
          async (p) =>
            [
              p,
              await subscribe(`${base}/VEHICLEHARSHACCEL/`, { notificationPeriod: p, postUrl: RECEIVER }, token),
            ] as const,
        ),
      ),
    );
    const start = minutesAgo(30);
    const sets = RUNS.map((carries, i) =>
      dataSet(at(start, i), "RUNNING", [waypoint(39.96 + i / 1000, -83), ...(carries ? [HARSH] : [])]),
    );
    if (batch) expect((await sandbox.post(`/vehicle/${vehicleId}/dataSet/`, sets, token)).status).toBe(200);
    else
      for (const s of sets) expect((await sandbox.post(`/vehicle/${vehicleId}/dataSet/`, s, token)).status).toBe(200);

    for (const period of PERIODS) {
      const { notifications } = await notificationsOf(`${base}/${subs[period]!.id}/eventNotification/`, token);
      expect(
        notifications.map((n) => [n._timestamp, n.recordedEvent]),
        period,
      ).toEqual(EXPECTED[period]!.map(([i, event]) => [wireTime(at(start, i)), event]));
      for (const n of notifications)
        expect(n).toMatchObject({
          _type: "VEHICLEHARSHACCEL",
          notificationPeriod: period,
          vehicleId,
          accountId: account.id,
        });
    }
    const read = await sandbox.get(`${base}/${subs.ONETIME!.id}`, token);
    expect(read.body.subscription.deletionTimestamp).toMatch(DATE_TIME);
    expect(
      (await sandbox.get(`${base}/${subs.INITIALSTATE!.id}`, token)).body.subscription.deletionTimestamp,
    ).toBeNull();
  });

  it('an INITIALSTATE notification says "notificationPeriod":"INITIALSTATE" on the wire, in its stored body, with the documented fields', async () => {
    const { accessToken: token, vehicleId, account } = await driverWithVehicle();
    const sub = await subscribe(
      `/vehicle/${vehicleId}/eventSubscription/VEHICLEHARSHACCEL/`,
      { notificationPeriod: "INITIALSTATE", postUrl: RECEIVER },
      token,
    );
    const when = minutesAgo(5);
    const posted = await sandbox.post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(when, "RUNNING", [waypoint(39.96, -83), HARSH]),
      token,
    );
    expect(posted.status, posted.text).toBe(200);
    const { notifications, text } = await notificationsOf(
      `/vehicle/${vehicleId}/eventSubscription/${sub.id}/eventNotification/`,
      token,
    );
    expect(text).toContain('"notificationPeriod":"INITIALSTATE"');
    expect(notifications).toEqual([
      {
        id: expect.any(Number),
        eventId: String(notifications[0]?.id),
        subscriptionId: sub.id,
        accountId: account.id,
        vehicleId,
        dataSetId: posted.body.dataSet.id,
        tripId: posted.body.dataSet.tripId ?? null,
        _domain: "wayline",
        _type: "VEHICLEHARSHACCEL",
        _name: "VEHICLEHARSHACCEL",
        _timestamp: wireTime(when),
        eventTimestamp: expect.stringMatching(DATE_TIME),
        minimumTime: 0,
        notificationPeriod: "INITIALSTATE",
        creatorClientId: apps().main.sandbox.clientId,
        httpStatusCode: 0,
        recordedWaypoint: { timestamp: wireTime(when), latitude: 39.96, longitude: -83 },
        recordedEvent: true,
      },
    ]);
    const [row] = await testSql()`select body from notifications where id = ${notifications[0].id}`;
    expect(row!.body).toMatchObject({ notificationPeriod: "INITIALSTATE", recordedEvent: true });
    const [pending] =
      await testSql()`select count(*)::int as n from notification_deliveries where notification_id = ${notifications[0].id}`;
    expect(pending!.n).toBe(1);
  });

  it("concurrent posts for one vehicle: INITIALSTATE notifies one run once, STATECHANGE's starts and stops alternate", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const base = `/vehicle/${vehicleId}/eventSubscription`;
    const initial = await subscribe(`${base}/VEHICLEHARSHACCEL/`, { notificationPeriod: "INITIALSTATE" }, token);
    const edges = await subscribe(`${base}/VEHICLEHARSHACCEL/`, { notificationPeriod: "STATECHANGE" }, token);
    const onetime = await subscribe(`${base}/VEHICLEHARSHACCEL/`, { notificationPeriod: "ONETIME" }, token);
    const start = minutesAgo(50);
    const replies = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        sandbox.post(
          `/vehicle/${vehicleId}/dataSet/`,
          dataSet(at(start, i), "RUNNING", [waypoint(39.9 + i / 1000, -83), HARSH]),
          token,
        ),
      ),
    );
    for (const r of replies) expect(r.status, r.text).toBe(200);
    expect((await notificationsOf(`${base}/${initial.id}/eventNotification/`, token)).notifications).toHaveLength(1);
    expect((await notificationsOf(`${base}/${onetime.id}/eventNotification/`, token)).notifications).toHaveLength(1);

    // Then alternating runs, posted at once: whatever order they land in, edges alternate.
    const more = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        sandbox.post(
          `/vehicle/${vehicleId}/dataSet/`,
          dataSet(at(start, 24 + i), "RUNNING", i % 4 < 2 ? [] : [HARSH]),
          token,
        ),
      ),
    );
    for (const r of more) expect(r.status, r.text).toBe(200);
    const events = (await notificationsOf(`${base}/${edges.id}/eventNotification/`, token)).notifications.map(
      (n) => n.recordedEvent,
    );
    expect(events[0]).toBe(true);
    events.forEach((e, i) => expect(e).toBe(i % 2 === 0));
    const initials = (await notificationsOf(`${base}/${initial.id}/eventNotification/`, token)).notifications;
    // Each start after a stop is one more INITIALSTATE notification.
    expect(initials).toHaveLength(events.filter((e) => e).length);
  });

  it("an account INITIALSTATE subscription keeps the edges of each vehicle apart", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    const [a, b] = [await addVehicle("sandbox", driver.accessToken), await addVehicle("sandbox", driver.accessToken)];
    const sub = await subscribe(
      `/account/${driver.account.id}/eventSubscription/VEHICLEHARSHACCEL/`,
      { notificationPeriod: "INITIALSTATE" },
      driver.clientToken,
    );
    const start = minutesAgo(20);
    for (const m of [0, 1, 2]) {
      for (const v of [a!, b!])
        expect(
          (
            await sandbox.post(
              `/vehicle/${v.vehicleId}/dataSet/`,
              dataSet(at(start, m), "RUNNING", [HARSH]),
              driver.accessToken,
            )
          ).status,
        ).toBe(200);
    }
    const { notifications } = await notificationsOf(
      `/account/${driver.account.id}/eventSubscription/${sub.id}/eventNotification/`,
      driver.clientToken,
    );
    expect(notifications.map((n) => [n.vehicleId, n._timestamp]).sort()).toEqual(
      [
        [a!.vehicleId, wireTime(start)],
        [b!.vehicleId, wireTime(start)],
      ].sort(),
    );
  });

  it("VEHICLETOWED STATECHANGE: a reported tow starts, a parked set within 1,500 m says it stopped, towing 1,500 m starts again", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const sub = await subscribe(
      `/vehicle/${vehicleId}/eventSubscription/VEHICLETOWED/`,
      { notificationPeriod: "STATECHANGE" },
      token,
    );
    const start = minutesAgo(15);
    // 0.0145° of latitude is about 1,610 m.
    const sets = [
      dataSet(at(start, 0), "OFF", [waypoint(40, -83), { key: "VEHICLE_EVENT_TOWED", value: true }]),
      dataSet(at(start, 1), "OFF", [waypoint(40.001, -83)]),
      dataSet(at(start, 2), "OFF", [waypoint(40.0155, -83)]),
    ];
    for (const s of sets) expect((await sandbox.post(`/vehicle/${vehicleId}/dataSet/`, s, token)).status).toBe(200);
    const { notifications } = await notificationsOf(
      `/vehicle/${vehicleId}/eventSubscription/${sub.id}/eventNotification/`,
      token,
    );
    expect(notifications.map((n) => [n._timestamp, n.recordedEvent])).toEqual([
      [wireTime(at(start, 0)), true],
      [wireTime(at(start, 1)), false],
      [wireTime(at(start, 2)), true],
    ]);
  });

  it("a test notification of a momentary type carries recordedEvent null", async () => {
    const { accessToken: token, vehicleId } = await driverWithVehicle();
    const sub = await subscribe(
      `/vehicle/${vehicleId}/eventSubscription/VEHICLEHARSHACCEL/`,
      { notificationPeriod: "INITIALSTATE" },
      token,
    );
    const res = await sandbox.get(`/test/vehicle/${vehicleId}/eventSubscription/${sub.id}`, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.notification).toMatchObject({
      _type: "VEHICLEHARSHACCEL",
      notificationPeriod: "INITIALSTATE",
      test: true,
      recordedWaypoint: null,
      recordedEvent: null,
    });
  });
});
