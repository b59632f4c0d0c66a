// @module-tag embedded
import { createHmac } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, test } from "vitest";
import { api, apiBase, clientToken, request, type Env } from "@/test/helpers/api";
import { expectApiError, expectFieldErrors, expireAccessToken } from "@/test/helpers/fixtures";
import { openSse } from "@/test/helpers/sse";
import { freshApp, postWaypointSets, subscribedVehicle, type FeedApp } from "@/test/helpers/event-feed-fixture";
import { encodeFeedCursor } from "@/server/notifications/feed-cursor";

// GET /eventFeed/stream (docs/event-feed.md#the-stream) over real HTTP, on the suite's shared
// service: the same events as the feed's pages (id = cursor, event = type, data = the event),
// resuming by Last-Event-ID or ?after=, the feed's cursor errors in JSON before the stream starts,
// the Accept rule, and the stream's end when its token is revoked or expires. Tagged embedded: the
// wake-up is a NOTIFY, which the embedded database carries through its wire server. The
// exactly-once run under concurrent writers is in event-feed.test.ts, beside the poller's; the
// fleet (another process, kill -9, heartbeats) in event-stream-fleet.test.ts.

const streamUrl = (env: Env, query = "") => `${apiBase(env)}/eventFeed/stream${query}`;

/** Posts `count` data sets with a waypoint; their ids. */
const post = async (env: Env, token: string, vehicleId: number, count = 1) =>
  (await postWaypointSets(env, token, vehicleId, count)).map((s) => s.id);

describe("GET /eventFeed/stream", () => {
  let a: FeedApp;
  let car: Awaited<ReturnType<typeof subscribedVehicle>>;
  beforeAll(async () => {
    a = await freshApp();
    car = await subscribedVehicle(a, "Stream car");
  }, 60_000);

  test("streams each event as the feed's page shows it: id = its cursor, event = its type, data = the event; then the events committed while it is open", async () => {
    const before = await post("sandbox", car.token, car.vehicleId, 3);
    const stream = await openSse(streamUrl("sandbox", `?vehicleId=${car.vehicleId}`), { token: a.client });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("ratelimit")).toBeTruthy();
    const first = await stream.waitForMessages(3);
    const page = await api("sandbox").get(`/eventFeed/?vehicleId=${car.vehicleId}`, a.client);
    expect(page.status, page.text).toBe(200);
    expect(first.map((m) => m.data.dataSetId)).toEqual(before);
    for (const [i, m] of first.entries()) {
      expect(m.event).toBe("WAYPOINT");
      expect(m.id).toBe(m.data.cursor);
      const { cursor: _c, ...pageEvent } = page.body.events[i];
      const { cursor: _d, ...streamed } = m.data;
      expect(streamed).toEqual(pageEvent);
    }
    // The same eventId as the notification reads show, single and listed.
    const listed = await api("sandbox").get(`/vehicle/${car.vehicleId}/eventNotification/`, a.client);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.notifications.map((n: { eventId: string }) => n.eventId).sort()).toEqual(
      first.map((m) => m.data.eventId).sort(),
    );

    const later = await post("sandbox", car.token, car.vehicleId, 2);
    const all = await stream.waitForMessages(5);
    expect(all.slice(3).map((m) => m.data.dataSetId)).toEqual(later);
    stream.close();
  });

  test("resumes after a dropped connection from Last-Event-ID (or ?after=): nothing lost, nothing twice", async () => {
    const own = await subscribedVehicle(a, "Stream car");
    const query = `?vehicleId=${own.vehicleId}`;
    const stream = await openSse(streamUrl("sandbox", query), { token: a.client });
    const early = await post("sandbox", own.token, own.vehicleId, 2);
    await stream.waitForMessages(2);
    stream.close();
    await stream.closed;
    // Posted while no one listens.
    const missed = await post("sandbox", own.token, own.vehicleId, 3);
    const resumed = await openSse(streamUrl("sandbox", query), { token: a.client, lastEventId: stream.lastEventId() });
    const more = await post("sandbox", own.token, own.vehicleId, 1);
    const got = await resumed.waitForMessages(4);
    expect(got.map((m) => m.data.dataSetId)).toEqual([...missed, ...more]);
    resumed.close();
    // ?after= does the same; Last-Event-ID wins when both are sent.
    const byQuery = await openSse(streamUrl("sandbox", `${query}&after=${encodeURIComponent(got[2]!.id)}`), {
      token: a.client,
    });
    expect((await byQuery.waitForMessages(1)).map((m) => m.data.dataSetId)).toEqual(more);
    byQuery.close();
    const both = await openSse(streamUrl("sandbox", `${query}&after=not-a-cursor`), {
      token: a.client,
      lastEventId: got[3]!.id,
    });
    expect(both.status).toBe(200);
    both.close();
    expect(early).toHaveLength(2);
  });

  test("a user token streams only its own account's events", async () => {
    const other = await subscribedVehicle(a, "Stream car");
    const stream = await openSse(streamUrl("sandbox"), { token: other.token });
    await post("sandbox", car.token, car.vehicleId, 2);
    const mine = await post("sandbox", other.token, other.vehicleId, 1);
    const [m] = await stream.waitForMessages(1);
    expect(m!.data.dataSetId).toBe(mine[0]);
    expect(stream.messages.every((x) => x.data.vehicleId === other.vehicleId)).toBe(true);
    stream.close();
  });

  test("cursors of another app, of the other environment, or malformed → 400 VALIDATION field after INVALID in JSON, by ?after= and by Last-Event-ID alike", async () => {
    const open = await openSse(streamUrl("sandbox"), { token: a.client });
    await open.waitForMessages(1);
    const cursor = open.lastEventId()!;
    open.close();
    const other = await freshApp();
    const production = await clientToken(a.app.production);
    const refusals = [
      await openSse(streamUrl("sandbox"), { token: other.client, lastEventId: cursor }),
      await openSse(streamUrl("sandbox", `?after=${encodeURIComponent(cursor)}`), { token: other.client }),
      await openSse(streamUrl("production"), { token: production, lastEventId: cursor }),
      await openSse(streamUrl("sandbox"), { token: a.client, lastEventId: "not-a-cursor" }),
    ];
    const bodies = refusals.map((r) => {
      const reply = { status: r.status, headers: r.headers, text: r.text, body: JSON.parse(r.text) };
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      expectApiError(reply, 400, "VALIDATION");
      expectFieldErrors(reply, { after: "INVALID" });
      return r.text;
    });
    expect(new Set(bodies).size).toBe(1);
  });

  test("a cursor older than the feed keeps → 410 CURSOR_EXPIRED in JSON before the stream starts", async () => {
    const secret =
      process.env.NEXTAUTH_SECRET || fs.readFileSync(path.join(inject("dataDir"), "auth-secret"), "utf8").trim();
    const old = encodeFeedCursor({
      position: { tx: "0", id: 0 },
      issuedAt: new Date(Date.now() - 8 * 86_400_000),
      scope: { clientId: a.app.sandbox.clientId, environment: "sandbox" },
      key: createHmac("sha256", secret).update("event-feed-key").digest("base64url"),
    });
    const r = await openSse(streamUrl("sandbox"), { token: a.client, lastEventId: old });
    const reply = { status: r.status, headers: r.headers, text: r.text, body: JSON.parse(r.text) };
    expectApiError(reply, 410, "CURSOR_EXPIRED");
    expect(reply.body.error.detail).toContain("since");
  });

  test("Accept without text/event-stream → 400 VALIDATION field Accept; no token → 401; both JSON", async () => {
    for (const accept of ["application/json", "*/*", "text/event-stream;q=0"]) {
      const r = await request("GET", streamUrl("sandbox"), { token: a.client, headers: { Accept: accept } });
      expectApiError(r, 400, "VALIDATION");
      expectFieldErrors(r, { Accept: "INVALID" });
    }
    const anonymous = await openSse(streamUrl("sandbox"));
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text).error.errorCode).toBe("UNAUTHORIZED");
    const post = await request("POST", streamUrl("sandbox"), { token: a.client, json: {} });
    expectApiError(post, 405, "METHOD_NOT_ALLOWED");
  });

  test("closes within 5 s of its token being revoked (RFC 7009), and of its token expiring; another token's stays", async () => {
    const revoked = await clientToken(a.app.sandbox);
    const expiring = await clientToken(a.app.sandbox);
    const working = await openSse(streamUrl("sandbox"), { token: await clientToken(a.app.sandbox) });
    const streams = [
      await openSse(streamUrl("sandbox"), { token: revoked }),
      await openSse(streamUrl("sandbox"), { token: expiring }),
    ];
    for (const s of [working, ...streams]) expect(s.status).toBe(200);
    const { clientId, clientSecret } = a.app.sandbox;
    const revoke = await request("POST", `${inject("baseUrl")}/sandbox/oauth/revoke`, {
      body: new URLSearchParams({ token: revoked }).toString(),
      headers: {
        Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
    });
    expect(revoke.status, revoke.text).toBe(200);
    await expireAccessToken(expiring);
    const ended = Date.now();
    const within5s = (s: (typeof streams)[number]) =>
      Promise.race([s.closed, new Promise<"open">((r) => setTimeout(() => r("open"), 5000))]);
    expect(await Promise.all(streams.map(within5s))).toEqual(["end", "end"]);
    expect(Date.now() - ended).toBeLessThan(5000);
    // The tokens are re-checked together: the round that ended those two, and the next, kept this one.
    const afterTheNextRound = new Promise<"open">((r) => setTimeout(() => r("open"), 2500));
    expect(await Promise.race([working.closed, afterTheNextRound])).toBe("open");
    working.close();
  });
});
