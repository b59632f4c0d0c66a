import { describe, expect, it } from "vitest";
import { api, apiBase, clientToken, type Credentials } from "@/test/helpers/api";
import { ConsolePartner } from "@/test/helpers/console-partner";
import { driverGranting, revokeOnlyApp } from "@/test/helpers/grants";
import { openSse } from "@/test/helpers/sse";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// A driver who revokes an app takes their account's events out of the app's event feed and its
// stream, as out of its notification reads (docs/event-feed.md): a client-credentials token, which
// outlives the revocation, reads no more of them, from the start or from any cursor, while the
// app's other accounts' events flow on. What tells the app of the revocation (ACCESSREVOKED) stays.
// The console, the app's partner, shows the revoked account's notifications without a position.

const sandbox = api("sandbox");

type FeedEvent = { _type: string; eventId: string; accountId: number | null; recordedWaypoint?: unknown };

/** A driver who authorized the app, with a vehicle notifying on every waypoint, and one position posted. */
async function driverWithEvent(creds: Credentials, label: string, latitude: number) {
  const driver = await driverGranting(creds, "location:precise data account");
  const created = await sandbox.post("/vehicle/", { label }, driver.token);
  expect(created.status, created.text).toBe(200);
  const { vehicleId, accountId } = created.body.vehicle as { vehicleId: number; accountId: number };
  const sub = await sandbox.post(
    `/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`,
    { notificationPeriod: "CONTINUOUS" },
    driver.token,
  );
  expect(sub.status, sub.text).toBe(200);
  const post = async (lat: number, at = new Date(Date.now() - 60_000)) => {
    const posted = await sandbox.post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(at, "RUNNING", [waypoint(lat, -83.001234)]),
      driver.token,
    );
    expect(posted.status, posted.text).toBe(200);
  };
  await post(latitude);
  return { ...driver, vehicleId, accountId, post };
}

/** The app's whole feed from the start (one page holds it). */
async function feed(client: string): Promise<FeedEvent[]> {
  const page = await sandbox.get("/eventFeed/?searchLimit=1000", client);
  expect(page.status, page.text).toBe(200);
  return page.body.events;
}

/** The feed once `done` holds of it: the feed hands out an event once every older transaction has ended. */
async function feedWhen(client: string, done: (events: FeedEvent[]) => boolean): Promise<FeedEvent[]> {
  let events: FeedEvent[] = [];
  await expect.poll(async () => done((events = await feed(client))), { timeout: 15_000 }).toBe(true);
  return events;
}

describe("after the driver revokes, the account's events leave the app's feed", () => {
  it("the page from the start, a cursor from before, and a fresh stream carry none of them; another account's flow on", async () => {
    const partner = await new ConsolePartner().signUp();
    const app = await partner.createApp();
    const client = await clientToken(app);
    // A cursor handed out before any event of the app.
    const start = await sandbox.get("/eventFeed/", client);
    expect(start.status, start.text).toBe(200);
    const revoking = await driverWithEvent(app, "Revoking car", 39.951234);
    const staying = await driverWithEvent(app, "Staying car", 39.941234);
    const of = (events: FeedEvent[], who: { accountId: number }) => events.filter((e) => e.accountId === who.accountId);

    const before = await feedWhen(client, (e) => of(e, revoking).length === 1 && of(e, staying).length === 1);
    expect(of(before, revoking)[0]).toMatchObject({ _type: "WAYPOINT", recordedWaypoint: { latitude: 39.951234 } });
    const [revokedEvent] = of(before, revoking);

    await revokeOnlyApp(revoking.browser);
    await staying.post(39.941235, new Date());

    const after = await feedWhen(client, (e) => of(e, staying).length === 2 && of(e, revoking).length > 0);
    // What tells the app it lost the account stays; nothing of the account's data does.
    expect(of(after, revoking).map((e) => e._type)).toEqual(["ACCESSREVOKED"]);
    expect(JSON.stringify(after)).not.toContain("39.951234");
    expect(of(after, staying).map((e) => e._type)).toEqual(["WAYPOINT", "WAYPOINT"]);
    // From the cursor handed out before the revoked account's event: the same events.
    const fromCursor = await sandbox.get(`/eventFeed/?after=${encodeURIComponent(start.body.nextCursor)}`, client);
    expect(fromCursor.status, fromCursor.text).toBe(200);
    expect(fromCursor.body.events.map((e: FeedEvent) => e.eventId)).toEqual(after.map((e) => e.eventId));

    // A fresh stream from the start: the same events, in the same order.
    const stream = await openSse(`${apiBase("sandbox")}/eventFeed/stream`, { token: client });
    try {
      expect(stream.status, stream.text).toBe(200);
      const streamed = (await stream.waitForMessages(after.length)).map((m) => m.data as FeedEvent);
      expect(streamed.map((e) => e.eventId)).toEqual(after.map((e) => e.eventId));
      expect(JSON.stringify(stream.messages)).not.toContain("39.951234");
    } finally {
      stream.close();
    }

    // The console's notification of the revoked account keeps no position (its grant shows none now).
    const shown = await partner.get(`/console/apps/${app.appId}/notifications/${revokedEvent!.eventId}`);
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain("39.951234");
    const kept = of(after, staying)[0]!;
    expect((await partner.get(`/console/apps/${app.appId}/notifications/${kept.eventId}`)).text).toContain("39.941234");
  });
});
