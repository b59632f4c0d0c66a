import { createHmac } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { inject } from "vitest";
import { api, apiBase, clientToken, testSql, type Env } from "@/test/helpers/api";
import { expectApiError, expectFieldErrors } from "@/test/helpers/fixtures";
import { wireTime } from "@/test/helpers/telemetry";
import { encodeFeedCursor } from "@/server/notifications/feed-cursor";
import { openSse } from "@/test/helpers/sse";
import { freshApp, postWaypointSets, subscribedVehicle, type FeedApp } from "@/test/helpers/event-feed-fixture";

// GET /eventFeed/ (docs/event-feed.md) over real HTTP: paging by nextCursor, filters, user and
// client tokens, cursors of other apps and environments, expiry, since, and exactly-once reading
// while many transactions commit at once, by a poller and by a stream (GET /eventFeed/stream)
// side by side.
// On the embedded database too: the tests tagged `embedded`, those of the feed's commit order and
// paging (the filters' and cursors' checks answer the same there).

const feed = (env: Env, query: string, token: string) => api(env).get(`/eventFeed/${query}`, token);

const post = postWaypointSets;

/**
 * Reads the feed to its end from `after`, page by page, and the last nextCursor. With `until`, it
 * reads on (an empty page, a pause, the next page from its cursor) until the events read so far
 * satisfy it, for up to 15 s: the feed hands out an event once every transaction older than it has
 * ended, on the whole PostgreSQL server (server/notifications/feed.ts), so a write of another test
 * file still running when this one reads holds its events back for that long. Only a test that
 * reads right after its own posts needs it; what it then checks is what arrived.
 */
async function readAll(
  env: Env,
  token: string,
  query = "",
  after?: string,
  limit = 3,
  until: (events: any[]) => boolean = () => true,
) {
  const events: any[] = [];
  let cursor = after;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await feed(
      env,
      `?searchLimit=${limit}${cursor ? `&after=${encodeURIComponent(cursor)}` : ""}${query}`,
      token,
    );
    expect(res.status, res.text).toBe(200);
    expect(typeof res.body.nextCursor).toBe("string");
    expect(res.body.totalRecords).toBe(res.body.events.length);
    events.push(...res.body.events);
    cursor = res.body.nextCursor;
    if (res.body.events.length > 0) continue;
    if (until(events) || Date.now() > deadline) return { events, cursor: cursor! };
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `until` for readAll: at least `n` events read. */
const atLeast = (n: number) => (events: unknown[]) => events.length >= n;

describe("GET /eventFeed/", () => {
  let a: FeedApp;
  let car: Awaited<ReturnType<typeof subscribedVehicle>>;
  beforeAll(async () => {
    a = await freshApp();
    car = await subscribedVehicle(a);
  }, 60_000);

  test(
    "pages by nextCursor: every event once, in order, with eventId and cursor; an empty page still has nextCursor",
    { tags: ["embedded"] },
    async () => {
      const empty = await feed("sandbox", "", a.client);
      expect(empty.status, empty.text).toBe(200);
      expect(empty.body).toMatchObject({ events: [], totalRecords: 0, actions: [] });
      expect(typeof empty.body.nextCursor).toBe("string");

      const sets = await post("sandbox", car.token, car.vehicleId, 7);
      const { events, cursor } = await readAll("sandbox", a.client, "", empty.body.nextCursor, 3, atLeast(sets.length));
      expect(events.map((e) => e.dataSetId)).toEqual(sets.map((s) => s.id));
      for (const e of events) {
        expect(e.eventId).toBe(String(e.id));
        expect(typeof e.cursor).toBe("string");
        expect(e).toMatchObject({ _type: "WAYPOINT", vehicleId: car.vehicleId, httpStatusCode: 0 });
      }
      // The same event as the notification read shows it, with the same eventId.
      const read = await api("sandbox").get(`/vehicle/${car.vehicleId}/eventNotification/${events[0].id}`, a.client);
      expect(read.status, read.text).toBe(200);
      expect(read.body.notification.eventId).toBe(events[0].eventId);

      // Caught up: nothing more, and the next events come after the last cursor only.
      const later = await post("sandbox", car.token, car.vehicleId, 2);
      const more = await readAll("sandbox", a.client, "", cursor, 3, atLeast(later.length));
      expect(more.events.map((e) => e.dataSetId)).toEqual(later.map((s) => s.id));
      // An event's own cursor reads on from that event.
      const fromFirst = await readAll("sandbox", a.client, "", events[4].cursor, 100);
      expect(fromFirst.events.map((e) => e.dataSetId)).toEqual([...sets.slice(5), ...later].map((s) => s.id));
    },
  );

  test("filters by eventType and vehicleId; an unknown event type is 400", async () => {
    const other = await subscribedVehicle(a);
    await post("sandbox", other.token, other.vehicleId, 2);
    const mine = await readAll("sandbox", a.client, `&vehicleId=${other.vehicleId}`, undefined, 3, atLeast(2));
    expect(mine.events.length).toBe(2);
    expect(mine.events.every((e) => e.vehicleId === other.vehicleId)).toBe(true);
    const byType = await readAll("sandbox", a.client, "&eventType=waypoint", undefined, 100, atLeast(2));
    expect(byType.events.length).toBeGreaterThanOrEqual(2);
    const none = await readAll("sandbox", a.client, "&eventType=GEOFENCE");
    expect(none.events).toEqual([]);
    expectApiError(await feed("sandbox", "?eventType=NOPE", a.client), 400, "VALIDATION");
  });

  test(
    "a user token sees only its own account's events; a client token sees them all",
    { tags: ["embedded"] },
    async () => {
      const second = await subscribedVehicle(a);
      await post("sandbox", second.token, second.vehicleId, 1);
      const asUser = await readAll("sandbox", second.token, "", undefined, 100, atLeast(1));
      expect(asUser.events.length).toBe(1);
      expect(asUser.events[0].vehicleId).toBe(second.vehicleId);
      const asClient = await readAll("sandbox", a.client, "", undefined, 1000, (events) =>
        events.some((e) => e.vehicleId === second.vehicleId),
      );
      expect(asClient.events.some((e) => e.vehicleId === second.vehicleId)).toBe(true);
      expect(asClient.events.some((e) => e.vehicleId === car.vehicleId)).toBe(true);
    },
  );

  test("a cursor of another app, of the other environment, or malformed → 400 VALIDATION field after INVALID, revealing nothing", async () => {
    const { cursor } = await readAll("sandbox", a.client);
    const other = await freshApp();
    const production = await clientToken(a.app.production);
    const replies = [
      await feed("sandbox", `?after=${encodeURIComponent(cursor)}`, other.client),
      await feed("production", `?after=${encodeURIComponent(cursor)}`, production),
      await feed("sandbox", "?after=not-a-cursor", a.client),
      await feed("sandbox", `?after=${encodeURIComponent(cursor.slice(0, -2))}`, a.client),
    ];
    const bodies = replies.map((r) => {
      expectApiError(r, 400, "VALIDATION");
      expectFieldErrors(r, { after: "INVALID" });
      return r.text;
    });
    // The same answer whichever way the cursor was wrong: nothing about the other app.
    expect(new Set(bodies).size).toBe(1);
  });

  test("a cursor older than EVENT_FEED_RETENTION_DAYS → 410 CURSOR_EXPIRED naming since; since= starts at a time", async () => {
    // A cursor issued 8 days ago, signed as the service signs (its key is derived from the secret in its data dir).
    const secret =
      process.env.NEXTAUTH_SECRET || fs.readFileSync(path.join(inject("dataDir"), "auth-secret"), "utf8").trim();
    const old = encodeFeedCursor({
      position: { tx: "0", id: 0 },
      issuedAt: new Date(Date.now() - 8 * 86_400_000),
      scope: { clientId: a.app.sandbox.clientId, environment: "sandbox" },
      key: createHmac("sha256", secret).update("event-feed-key").digest("base64url"),
    });
    const expired = await feed("sandbox", `?after=${encodeURIComponent(old)}`, a.client);
    expectApiError(expired, 410, "CURSOR_EXPIRED");
    expect(expired.body.error.detail).toContain("since");

    // A vehicle of its own: the tests before this one may have made events of the app within the
    // last second, which `since` rightly includes.
    const fresh = await subscribedVehicle(a);
    const before = new Date(Date.now() - 1000);
    const sets = await post("sandbox", fresh.token, fresh.vehicleId, 2);
    const since = await readAll(
      "sandbox",
      a.client,
      `&since=${wireTime(before)}&vehicleId=${fresh.vehicleId}`,
      undefined,
      100,
      atLeast(sets.length),
    );
    expect(since.events.map((e) => e.dataSetId)).toEqual(sets.map((s) => s.id));
    expectApiError(await feed("sandbox", "?since=yesterday", a.client), 400, "VALIDATION");
  });
});

describe("GET /eventFeed/ while many transactions commit", { tags: ["embedded"] }, () => {
  test(
    "8 writers for ~10 s, a reader every 20 ms and a stream held open: each sees every committed event exactly once, each vehicle's in data-set order",
    { timeout: 120_000 },
    async () => {
      const a = await freshApp();
      const cars = await Promise.all(Array.from({ length: 8 }, () => subscribedVehicle(a)));
      const start = await feed("sandbox", "", a.client);
      let cursor = start.body.nextCursor as string;
      const stream = await openSse(`${apiBase("sandbox")}/eventFeed/stream?after=${encodeURIComponent(cursor)}`, {
        token: a.client,
      });
      expect(stream.status).toBe(200);
      const seen: any[] = [];
      const posted = new Map<number, number[]>();
      let writing = true;
      /** How many events the writers made, once they are done. */
      let total = Infinity;
      const deadline = Date.now() + 10_000;
      const writers = cars.map(async (car, w) => {
        const ids: number[] = [];
        while (Date.now() < deadline)
          ids.push(...(await post("sandbox", car.token, car.vehicleId, 1 + (w % 3))).map((s) => s.id));
        return { vehicleId: car.vehicleId, ids };
      });
      const reader = (async () => {
        let pages = 0;
        for (;;) {
          const stop = !writing;
          const res = await feed("sandbox", `?searchLimit=50&after=${encodeURIComponent(cursor)}`, a.client);
          expect(res.status, res.text).toBe(200);
          seen.push(...res.body.events);
          cursor = res.body.nextCursor;
          pages++;
          // An empty page after the writers are done ends the reading only once every event came: the feed holds an
          // event back while an older transaction anywhere on the server is open (another test file's), so an empty
          // page may come first. After 30 s more it ends anyway, and the count below says what is missing.
          if (stop && res.body.events.length === 0 && (seen.length >= total || Date.now() > deadline + 30_000))
            return pages;
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      for (const { vehicleId, ids } of await Promise.all(writers))
        posted.set(vehicleId, [...(posted.get(vehicleId) ?? []), ...ids]);
      total = [...posted.values()].reduce((n, list) => n + list.length, 0);
      writing = false;
      const pages = await reader;
      expect(pages).toBeGreaterThan(10);
      // The stream has everything once the poller has; one more would show in the count below.
      await stream.waitForMessages(total, 60_000);
      stream.close();
      const streamed = stream.messages.map((m) => {
        expect(m.id).toBe(m.data.cursor);
        return m.data;
      });

      for (const [who, events] of [
        ["poller", seen],
        ["stream", streamed],
      ] as const) {
        const ids = events.map((e) => e.eventId);
        expect(new Set(ids).size, who).toBe(ids.length);
        expect(events.length, who).toBe(total);
        for (const [vehicleId, dataSetIds] of posted) {
          const order = events.filter((e) => e.vehicleId === vehicleId).map((e) => e.dataSetId);
          expect(new Set(order), who).toEqual(new Set(dataSetIds));
          // A vehicle's data sets are stored in its order: their ids rise with it, and so must the feed's.
          expect(order, who).toEqual([...order].sort((x, y) => x - y));
        }
      }
      // The same events in the same order: the stream is the feed, read on wake-up.
      expect(streamed.map((e) => e.eventId)).toEqual(seen.map((e) => e.eventId));
    },
  );
});

// The mechanism, made deterministic (PostgreSQL only: the embedded database runs one transaction at a
// time, so nothing there commits out of order): a transaction that made an event and stays open
// while later ones commit holds the feed back, and its event comes first once it commits.
describe.skipIf(inject("embedded"))("GET /eventFeed/ and a transaction that commits late", () => {
  test(
    "events of later transactions wait behind a running older one; then all come, the older first, none skipped",
    { timeout: 60_000 },
    async () => {
      const a = await freshApp();
      const car = await subscribedVehicle(a);
      let cursor = (await feed("sandbox", "", a.client)).body.nextCursor as string;
      const stream = await openSse(`${apiBase("sandbox")}/eventFeed/stream?after=${encodeURIComponent(cursor)}`, {
        token: a.client,
      });
      const sql = testSql();
      const [owner] = await sql<
        { app_id: number }[]
      >`select app_id from subscriptions where id = ${car.subscriptionId}`;
      const appId = owner!.app_id;
      let release!: () => void;
      let inserted!: (id: number) => void;
      const held = new Promise<void>((r) => (release = r));
      const lateId = new Promise<number>((r) => (inserted = r));
      // As a slow ingest would: the notification is written, its transaction not yet committed.
      const late = sql.begin(async (tx) => {
        const [row] = await tx<
          { id: string }[]
        >`insert into notifications (environment, subscription_id, app_id, vehicle_id, type, event_at, body)
        values ('sandbox', ${car.subscriptionId}, ${appId}, ${car.vehicleId}, 'WAYPOINT', now(),
          ${tx.json({ minimumTime: 0, notificationPeriod: "CONTINUOUS", creatorClientId: a.app.sandbox.clientId })})
          returning id::text`;
        inserted(Number(row!.id));
        await held;
      });
      const first = await lateId;
      const sets = await post("sandbox", car.token, car.vehicleId, 3);
      const waiting = await feed("sandbox", `?after=${encodeURIComponent(cursor)}`, a.client);
      expect(waiting.status, waiting.text).toBe(200);
      expect(waiting.body.events).toEqual([]);
      cursor = waiting.body.nextCursor;
      release();
      await late;
      const { events } = await readAll("sandbox", a.client, "", cursor, 3, atLeast(1 + sets.length));
      expect(events.map((e) => e.id)).toEqual([first, ...events.slice(1).map((e) => e.id)]);
      expect(events.slice(1).map((e) => e.dataSetId)).toEqual(sets.map((s) => s.id));
      // The stream, woken by the later commits while the older transaction held them back, waited
      // for it too: the same events, the older first.
      const streamed = await stream.waitForMessages(events.length);
      stream.close();
      expect(streamed.map((m) => m.data.id)).toEqual(events.map((e) => e.id));
    },
  );
});
