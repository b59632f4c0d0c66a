import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { api, createDriver, testSql } from "@/test/helpers/api";
import { baseUrl, Browser, visibleText } from "@/test/helpers/browser";
import { addVehicle, apps, uniqueDevice } from "@/test/helpers/fixtures";
import { downloadBytes } from "@/test/helpers/driver-download";
import { openSse } from "@/test/helpers/sse-reader";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// Shared live locations over real HTTP (docs/driver-site.md#share-a-live-location): the driver makes,
// lists and ends links on the /me/ routes; anyone without a session opens /share/{token}, its
// stream and its poll. Ended, expired, unknown, paused, counted in the access log, gone with the
// account.

const sandbox = api("sandbox");
const PASSWORD = "correct-horse-1";

type Reply = { status: number; body: any; text: string; headers: Headers };

async function call(browser: Browser, method: string, path: string, json?: unknown): Promise<Reply> {
  const page = await browser.request(method, path, json === undefined ? {} : { json });
  let body: unknown;
  try {
    body = JSON.parse(page.text);
  } catch {
    body = undefined;
  }
  return { status: page.status, body, text: page.text, headers: page.headers };
}

async function signedInDriver(label: string) {
  const driver = await createDriver("sandbox", apps().main.sandbox);
  const vehicle = await addVehicle("sandbox", driver.accessToken, { label, deviceId: uniqueDevice() });
  const browser = new Browser();
  expect((await browser.signIn("sandbox", driver.account.username, PASSWORD)).problem).toBeNull();
  return { ...driver, vehicleId: vehicle.vehicleId as number, browser };
}

let clock = Date.now() - 3_600_000;
async function postPosition(token: string, vehicleId: number, lat: number, lon: number) {
  clock += 60_000;
  const posted = await sandbox.post(
    `/vehicle/${vehicleId}/dataSet/`,
    dataSet(new Date(clock), "RUNNING", [waypoint(lat, lon)]),
    token,
  );
  expect(posted.status, posted.text).toBe(200);
}

async function share(browser: Browser, vehicleId: number, duration = "1h") {
  const made = await call(browser, "POST", `/me/vehicles/${vehicleId}/shares`, { duration });
  expect(made.status, made.text).toBe(200);
  return made.body.share as { id: number; token: string; endsAt: string; views: number };
}

const listed = async (browser: Browser, vehicleId: number) =>
  (await call(browser, "GET", `/me/vehicles/${vehicleId}/shares`)).body.shares as { id: number; views: number }[];

describe("shared live location: making and listing links", () => {
  it("POST /me/vehicles/{id}/shares makes a 128-bit token that ends after the chosen duration; a bad duration → 400", async () => {
    const a = await signedInDriver("Share maker");
    const before = Date.now();
    const link = await share(a.browser, a.vehicleId, "15m");
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const lasts = Date.parse(link.endsAt) - before;
    expect(lasts).toBeGreaterThan(14 * 60_000);
    expect(lasts).toBeLessThanOrEqual(15 * 60_000 + 5000);
    const other = await share(a.browser, a.vehicleId, "24h");
    expect(other.token).not.toBe(link.token);
    expect((await listed(a.browser, a.vehicleId)).map((s) => s.id)).toEqual([other.id, link.id]);

    for (const duration of ["2h", 15, "", null]) {
      const bad = await call(a.browser, "POST", `/me/vehicles/${a.vehicleId}/shares`, { duration });
      expect(bad.status, JSON.stringify(duration)).toBe(400);
      expect(bad.body.error).toMatchObject({ errorCode: "VALIDATION" });
      expect(bad.body.error.fieldErrors[0]).toMatchObject({ fieldName: "duration" });
    }
  });

  it("another driver can neither share, list nor end the first's vehicle or link (404); without a session 401", async () => {
    const a = await signedInDriver("Share owner");
    const b = await signedInDriver("Share stranger");
    const link = await share(a.browser, a.vehicleId);
    expect((await call(b.browser, "POST", `/me/vehicles/${a.vehicleId}/shares`, { duration: "1h" })).status).toBe(404);
    expect((await call(b.browser, "GET", `/me/vehicles/${a.vehicleId}/shares`)).status).toBe(404);
    expect((await call(b.browser, "DELETE", `/me/vehicles/${a.vehicleId}/shares/${link.id}`)).status).toBe(404);
    // b's own vehicle with a's link id: the link is not b's either.
    expect((await call(b.browser, "DELETE", `/me/vehicles/${b.vehicleId}/shares/${link.id}`)).status).toBe(404);
    expect((await call(new Browser(), "GET", `/me/vehicles/${a.vehicleId}/shares`)).status).toBe(401);
    expect((await new Browser().get(`/share/${link.token}/position`)).status).toBe(200);
  });
});

describe("shared live location: the page", () => {
  it("without a session shows the label and position, noindex, nothing else of the account; each opening is a view", async () => {
    const a = await signedInDriver("Shared page car");
    await postPosition(a.accessToken, a.vehicleId, 39.961234, -82.998765);
    const link = await share(a.browser, a.vehicleId);
    const viewer = new Browser();
    const page = await viewer.get(`/share/${link.token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Shared page car");
    expect(page.text).toContain("39.961234");
    expect(page.text).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    for (const secret of [a.account.username, a.account.email, String(a.account.id)].filter(Boolean))
      expect(page.text, secret).not.toContain(`"${secret}"`);
    expect(viewer.cookies.size).toBe(0);

    const now = await viewer.get(`/share/${link.token}/position`);
    expect(JSON.parse(now.text)).toEqual({
      state: "live",
      label: "Shared page car",
      endsAt: link.endsAt,
      running: true,
      paused: false,
      position: { latitude: 39.961234, longitude: -82.998765, at: expect.any(String) },
    });
    await viewer.get(`/share/${link.token}`);
    // The page counts, its poll does not.
    expect((await listed(a.browser, a.vehicleId)).find((s) => s.id === link.id)?.views).toBe(2);
  });

  it('each view is a line of the driver\'s access log as "shared link": the data-access page and the CSV', async () => {
    const a = await signedInDriver("Logged share car");
    const link = await share(a.browser, a.vehicleId);
    await new Browser().get(`/share/${link.token}`);
    await new Browser().get(`/share/${link.token}`);
    const csv = await a.browser.get("/me/access-log");
    expect(csv.status).toBe(200);
    const lines = csv.text.split("\r\n").filter((l) => l.startsWith(",shared link,"));
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^,shared link,location,\d{4}-\d\d-\d\dT\d\d:00:00\.000Z,1,/);
    const accessPage = visibleText((await a.browser.get("/data-access")).text);
    expect(accessPage).toContain("Shared link · Logged share car · Location");
    // Another driver's log has none of them.
    const b = await signedInDriver("Unshared car");
    expect((await b.browser.get("/me/access-log")).text).not.toContain("shared link");
  });

  it("an unknown token of the right shape, a short one or one with other characters → 404, no position", async () => {
    const a = await signedInDriver("Unknown token car");
    await share(a.browser, a.vehicleId);
    for (const token of ["AAAAAAAAAAAAAAAAAAAAAA", "abc", "A".repeat(23), "AAAAAAAAAAAAAAAAAAAA%2B%2B"]) {
      const page = await new Browser().get(`/share/${token}`);
      expect(page.status, token).toBe(404);
      expect(page.text).toContain("No such shared location");
      const poll = await new Browser().get(`/share/${token}/position`);
      expect(poll.status, token).toBe(404);
      expect(JSON.parse(poll.text).error).toMatchObject({ errorCode: "NOT_FOUND" });
    }
  });

  it("while location is paused the page, its poll and its stream show no position; resuming shows it again", async () => {
    const a = await signedInDriver("Paused share car");
    await postPosition(a.accessToken, a.vehicleId, 41.123456, -81.654321);
    const link = await share(a.browser, a.vehicleId);
    const stream = await openSse(`${baseUrl()}/share/${link.token}/stream`, {
      "X-Forwarded-For": new Browser().address,
    });
    try {
      await stream.next("the position", (e) => e.event === "share" && e.data.position?.latitude === 41.123456);
      const paused = await call(a.browser, "POST", `/me/vehicles/${a.vehicleId}/location-pause`, { paused: true });
      expect(paused.status, paused.text).toBe(200);
      // Woken by the vehicles' trigger, not by the 15 s heartbeat.
      const hidden = await stream.next("no position", (e) => e.event === "share" && e.data.paused === true, 5000);
      expect(hidden.data.position).toBeNull();
      const page = await new Browser().get(`/share/${link.token}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain("41.123456");
      expect(page.text).toContain("Paused share car");
      expect(JSON.parse((await new Browser().get(`/share/${link.token}/position`)).text)).toMatchObject({
        paused: true,
        position: null,
      });
      await call(a.browser, "POST", `/me/vehicles/${a.vehicleId}/location-pause`, { paused: false });
      await stream.next("the position again", (e) => e.event === "share" && e.data.position?.latitude === 41.123456);
    } finally {
      stream.close();
    }
  });
});

describe("shared live location: live, ended, expired", () => {
  it("the stream moves with the vehicle; ending the link sends `ended` and closes it within 5 s; then everything is 410", async () => {
    const a = await signedInDriver("Ended share car");
    await postPosition(a.accessToken, a.vehicleId, 40.1, -83.1);
    const link = await share(a.browser, a.vehicleId);
    const stream = await openSse(`${baseUrl()}/share/${link.token}/stream`, {
      "X-Forwarded-For": new Browser().address,
    });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
      await stream.next("the first position", (e) => e.event === "share" && e.data.position?.latitude === 40.1);
      await postPosition(a.accessToken, a.vehicleId, 40.2, -83.2);
      await stream.next("the moved position", (e) => e.event === "share" && e.data.position?.latitude === 40.2);

      const ended = await call(a.browser, "DELETE", `/me/vehicles/${a.vehicleId}/shares/${link.id}`);
      expect(ended.status, ended.text).toBe(200);
      await stream.next("the end", (e) => e.event === "share" && e.data.state === "ended", 5000);
      await stream.ended(5000);
    } finally {
      stream.close();
    }
    const page = await new Browser().get(`/share/${link.token}`);
    expect(page.status).toBe(410);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toContain("This shared location has ended");
    expect(page.text).not.toContain("40.2");
    expect(page.text).not.toContain("Ended share car");
    const poll = await new Browser().get(`/share/${link.token}/position`);
    expect(poll.status).toBe(410);
    expect(JSON.parse(poll.text).error).toMatchObject({ httpStatus: 410, errorCode: "GONE" });
    const again = await openSse(`${baseUrl()}/share/${link.token}/stream`, {
      "X-Forwarded-For": new Browser().address,
    });
    expect(again.status).toBe(410);
    again.close();
    // Ended links leave the list, and ending one twice is a 404; an ended link counts no view.
    expect(await listed(a.browser, a.vehicleId)).toEqual([]);
    expect((await call(a.browser, "DELETE", `/me/vehicles/${a.vehicleId}/shares/${link.id}`)).status).toBe(404);
    const [views] = await testSql()`select count(*)::int as n from share_link_views where link_id = ${link.id}`;
    expect(views!.n).toBe(0);
  });

  it("after expiry the page is 410 and the link leaves the list; sharing again makes a new link that works", async () => {
    const a = await signedInDriver("Expired share car");
    const link = await share(a.browser, a.vehicleId, "15m");
    await testSql()`update share_links set ends_at = now() - interval '1 second' where id = ${link.id}`;
    expect((await new Browser().get(`/share/${link.token}`)).status).toBe(410);
    expect((await new Browser().get(`/share/${link.token}/position`)).status).toBe(410);
    expect(await listed(a.browser, a.vehicleId)).toEqual([]);
    const again = await share(a.browser, a.vehicleId, "15m");
    expect((await new Browser().get(`/share/${again.token}`)).status).toBe(200);
    expect((await listed(a.browser, a.vehicleId)).map((s) => s.id)).toEqual([again.id]);
  });

  it("a stream open when the link's time runs out gets `ended` and closes", async () => {
    const a = await signedInDriver("Running out car");
    const link = await share(a.browser, a.vehicleId, "15m");
    // Three seconds left: the stream's timer at endsAt ends it, no NOTIFY involved.
    await testSql()`update share_links set ends_at = now() + interval '3 seconds' where id = ${link.id}`;
    const stream = await openSse(`${baseUrl()}/share/${link.token}/stream`, {
      "X-Forwarded-For": new Browser().address,
    });
    try {
      expect(stream.status).toBe(200);
      await stream.next("the end", (e) => e.event === "share" && e.data.state === "ended", 10_000);
      await stream.ended(5000);
    } finally {
      stream.close();
    }
  });

  it("the data export holds the account's links, ended ones too, with their views and without their tokens", async () => {
    const a = await signedInDriver("Exported share car");
    const kept = await share(a.browser, a.vehicleId, "8h");
    const ended = await share(a.browser, a.vehicleId, "15m");
    await new Browser().get(`/share/${kept.token}`);
    await call(a.browser, "DELETE", `/me/vehicles/${a.vehicleId}/shares/${ended.id}`);
    const zip = await downloadBytes(a.browser, "/me/export");
    expect(zip.status).toBe(200);
    const text = strFromU8(unzipSync(zip.bytes)["shared-links.json"]!);
    const links = JSON.parse(text);
    expect(links).toEqual([
      {
        id: kept.id,
        vehicleId: a.vehicleId,
        createdAt: expect.any(String),
        endsAt: kept.endsAt,
        endedAt: null,
        views: 1,
      },
      {
        id: ended.id,
        vehicleId: a.vehicleId,
        createdAt: expect.any(String),
        endsAt: ended.endsAt,
        endedAt: expect.any(String),
        views: 0,
      },
    ]);
    expect(text).not.toContain(kept.token);
  });

  it("deleting the account deletes its links and their views; the page is then 404", async () => {
    const a = await signedInDriver("Deleted share car");
    const link = await share(a.browser, a.vehicleId);
    await new Browser().get(`/share/${link.token}`);
    const deleted = await call(a.browser, "DELETE", "/me/account", { confirmUsername: a.account.username });
    expect(deleted.status, deleted.text).toBe(200);
    const [rows] = await testSql()`select
      (select count(*) from share_links where account_id = ${a.account.id})::int as links,
      (select count(*) from share_link_views where link_id = ${link.id})::int as views`;
    expect(rows).toEqual({ links: 0, views: 0 });
    expect((await new Browser().get(`/share/${link.token}`)).status).toBe(404);
  });
});
