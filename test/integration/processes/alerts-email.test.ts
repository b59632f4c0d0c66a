import { strFromU8, unzipSync } from "fflate";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccountBody, request, uniqueName, type Reply } from "@/test/helpers/api";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { Browser } from "@/test/helpers/browser";
import { downloadBytes } from "@/test/helpers/driver-download";
import { uniqueDevice } from "@/test/helpers/fixtures";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { startPushService, type PushService } from "@/test/helpers/push-service";
import { startSmtpReceiver } from "@/test/helpers/smtp-receiver";
import { dataSet } from "@/test/helpers/telemetry";

// The driver's alerts end to end over real HTTP: preferences saved on the driver site, data sets
// posted through the API, the alert made by ingest's evaluation, sent by the app's delivery worker
// to a real SMTP server on loopback, and listed on the driver's alerts with each channel's outcome.

let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let own: AppWithOwnDatabase;
let sql: postgres.Sql;
let push: PushService;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  own = await startAppWithOwnDatabase("alerts-email", { WORKER: "on", SMTP_URL: smtp.url });
  sql = postgres(own.app.env.DATABASE_URL!, { max: 1, fetch_types: false, onnotice: () => {} });
  push = await startPushService({ dataDir: own.app.dataDir });
});
afterAll(async () => {
  await push?.close();
  await sql?.end();
  await own?.stop();
  await smtp?.close();
});

type Driver = { token: string; vehicleId: number; email: string; browser: Browser; username: string };

/** A driver account made the partner way, with a vehicle, signed in to the site. */
async function driver(overrides: Record<string, unknown> = {}): Promise<Driver> {
  const base = own.app.baseUrl;
  const tokenUrl = `${base}/sandbox/oauth/token`;
  const { clientId, clientSecret } = own.partnerApp.sandbox;
  const headers = {
    "Content-Type": "application/x-www-form-urlencoded",
    Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
  };
  const client = await request("POST", tokenUrl, { body: "grant_type=client_credentials", headers });
  const email = `${uniqueName("alerts").replace(/[^a-z0-9]/gi, "-")}@driver.example`;
  const body = newAccountBody({ email, ...overrides });
  const account = await request("POST", `${base}/sandbox/api/account/`, {
    token: client.body.access_token,
    json: body,
  });
  expect(account.status, account.text).toBe(200);
  const exchange = await request("POST", tokenUrl, {
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: account.body.account.accessToken.code,
    }).toString(),
    headers,
  });
  const token = exchange.body.access_token as string;
  const vehicle = await request("POST", `${base}/sandbox/api/vehicle/`, {
    token,
    json: { label: "Alert wagon", deviceId: uniqueDevice() },
  });
  expect(vehicle.status, vehicle.text).toBe(200);
  const browser = new Browser(undefined, base);
  const signIn = await browser.signIn("sandbox", body.username, body.password);
  expect(signIn.problem).toBeNull();
  return { token, vehicleId: vehicle.body.vehicle.vehicleId, email, browser, username: body.username };
}

async function me(d: Driver, method: string, path: string, json?: unknown): Promise<Reply> {
  const page = await d.browser.request(method, path, json === undefined ? {} : { json });
  let body: any;
  try {
    body = JSON.parse(page.text);
  } catch {
    body = undefined;
  }
  return { status: page.status, headers: page.headers, body, text: page.text };
}

const settings = (preferences: unknown[], quietHours: unknown = null) => ({ preferences, quietHours });

async function post(d: Driver, sets: ReturnType<typeof dataSet>[]) {
  const res = await request("POST", `${own.app.baseUrl}/sandbox/api/vehicle/${d.vehicleId}/dataSet/`, {
    token: d.token,
    json: sets.length === 1 ? sets[0] : sets,
  });
  expect(res.status, res.text).toBe(200);
}

const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address));

async function alertsOf(d: Driver) {
  const list = await me(d, "GET", "/me/alerts");
  expect(list.status, list.text).toBe(200);
  return list.body.alerts as {
    id: number;
    kind: string;
    what: string;
    test: boolean;
    vehicle: { id: number } | null;
    channels: { channel: string; outcome: string; reason: string | null }[];
  }[];
}

describe("driver alerts by e-mail", () => {
  it("a speed episode that flaps around the limit makes one e-mail and one entry on the list", async () => {
    const d = await driver();
    const saved = await me(
      d,
      "POST",
      "/me/alerts/settings",
      settings([{ kind: "SPEEDING", email: true, browser: false, threshold: 65, unit: "mph" }]),
    );
    expect(saved.status, saved.text).toBe(200);
    const start = Date.now() - 10 * 60_000;
    const at = (seconds: number) => new Date(start + seconds * 1000);
    // Over, under, over, under, over within two minutes: one episode. Each post alone, so the
    // episode is carried from one ingest to the next (stored, or kept by the recent read).
    for (const [seconds, speed] of [
      [0, 60],
      [10, 70],
      [20, 63],
      [40, 68],
      [60, 62],
      [90, 72],
    ] as const)
      await post(d, [dataSet(at(seconds), "ON", [{ key: "GEN_SPEED", value: speed }])]);

    const alerts = await alertsOf(d);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: "SPEEDING", test: false, vehicle: { id: d.vehicleId } });
    expect(alerts[0]!.what).toBe("Speed 70 mph, above your limit of 65 mph");
    await waitFor(async () => (await alertsOf(d))[0]!.channels[0]!.outcome === "delivered", { what: "delivered" });
    const [mail, ...more] = mailsTo(d.email);
    expect(more).toHaveLength(0);
    expect(mail!.raw).toMatch(/^Subject: Wayline: Speed above a limit \(Alert wagon\)\r?$/m);
    expect(mail!.raw).toMatch(new RegExp(`^X-Wayline-Alert-Id: ${alerts[0]!.id}\\r?$`, "im"));
    expect(mail!.raw).toContain("Speed 70 mph, above your limit of 65 mph");

    // Clear for two minutes, then over again: a new episode, a second alert.
    await post(d, [
      dataSet(at(100), "ON", [{ key: "GEN_SPEED", value: 50 }]),
      dataSet(at(230), "ON", [{ key: "GEN_SPEED", value: 50 }]),
      dataSet(at(240), "ON", [{ key: "GEN_SPEED", value: 80 }]),
    ]);
    expect((await alertsOf(d)).map((a) => a.what)).toEqual([
      "Speed 80 mph, above your limit of 65 mph",
      "Speed 70 mph, above your limit of 65 mph",
    ]);
    await waitFor(async () => mailsTo(d.email).length === 2, { what: "the second e-mail" });
  });

  it("ignition on: an alert when the ignition goes on, none while it stays on", async () => {
    const d = await driver();
    await me(
      d,
      "POST",
      "/me/alerts/settings",
      settings([{ kind: "IGNITION_ON", email: true, browser: false, threshold: null }]),
    );
    const start = Date.now() - 5 * 60_000;
    await post(d, [
      dataSet(new Date(start), "OFF"),
      dataSet(new Date(start + 10_000), "ON"),
      dataSet(new Date(start + 20_000), "ON"),
    ]);
    const alerts = await alertsOf(d);
    expect(alerts.map((a) => a.what)).toEqual(["Ignition on"]);
    await waitFor(async () => mailsTo(d.email).length === 1, { what: "the e-mail" });
    expect(mailsTo(d.email)[0]!.raw).toMatch(/^Subject: Wayline: Ignition on \(Alert wagon\)\r?$/m);
  });

  it("in the quiet hours the alert is listed as not sent, and no e-mail goes", async () => {
    const d = await driver({ timeZone: "Asia/Tokyo" });
    // An hour either side of now, on Tokyo's clock.
    const clock = (ms: number) =>
      new Intl.DateTimeFormat("en-GB", {
        timeZone: "Asia/Tokyo",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      }).format(new Date(ms));
    const quietHours = { from: clock(Date.now() - 3_600_000), to: clock(Date.now() + 3_600_000) };
    const saved = await me(
      d,
      "POST",
      "/me/alerts/settings",
      settings([{ kind: "TROUBLE_CODE", email: true, browser: false }], quietHours),
    );
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.settings.quietHours).toEqual(quietHours);
    await post(d, [dataSet(new Date(Date.now() - 1000), "ON", [{ key: "GEN_DTC", value: "P0301" }])]);
    const [alert] = await alertsOf(d);
    expect(alert).toMatchObject({
      what: "Trouble code P0301",
      channels: [{ channel: "email", outcome: "not sent", reason: "quiet hours" }],
    });
    const [row] = await sql<{ status: string }[]>`select status from alert_deliveries where alert_id = ${alert!.id}`;
    expect(row!.status).toBe("SKIPPED");
    // A test alert goes after the quiet one: once it has arrived, the worker has had its chance.
    await me(d, "POST", "/me/alerts/test", { channel: "email" });
    await waitFor(async () => mailsTo(d.email).length > 0, { what: "the test e-mail" });
    expect(mailsTo(d.email).map((m) => /^Subject: (.*?)\r?$/m.exec(m.raw)![1])).toEqual(["Wayline: test alert"]);
  });

  it("a test e-mail goes through the worker to the account's address and is listed marked test", async () => {
    const d = await driver();
    const sent = await me(d, "POST", "/me/alerts/test", { channel: "email" });
    expect(sent.status, sent.text).toBe(200);
    const mail = await waitFor(async () => mailsTo(d.email)[0], { what: "the test e-mail" });
    expect(mail.raw).toMatch(new RegExp(`^X-Wayline-Alert-Id: ${sent.body.alertId}\\r?$`, "im"));
    expect(mail.raw).toContain("This is a test alert");
    await waitFor(async () => (await alertsOf(d))[0]?.channels[0]?.outcome === "delivered", { what: "delivered" });
    expect((await alertsOf(d))[0]).toMatchObject({ test: true, vehicle: null, what: "Test alert (e-mail)" });
  });

  it("a temporary SMTP failure is retried until the mail is taken", async () => {
    const d = await driver();
    smtp.failNext(1);
    const sent = await me(d, "POST", "/me/alerts/test", { channel: "email" });
    expect(sent.status, sent.text).toBe(200);
    await waitFor(async () => mailsTo(d.email).length === 1, { what: "the e-mail after a retry", timeoutMs: 30_000 });
    const [row] = await sql<
      { status: string; attempts: number }[]
    >`select status, attempts from alert_deliveries where alert_id = ${sent.body.alertId}`;
    await waitFor(async () => (await alertsOf(d))[0]?.channels[0]?.outcome === "delivered", { what: "delivered" });
    expect(row!.attempts).toBeGreaterThanOrEqual(1);
  });

  it("bad settings are 400 with field errors; without a session 401", async () => {
    const d = await driver();
    const tooFast = await me(
      d,
      "POST",
      "/me/alerts/settings",
      settings([{ kind: "SPEEDING", email: true, browser: false, threshold: 1000, unit: "mph" }]),
    );
    expect(tooFast.status).toBe(400);
    expect(tooFast.body.error.fieldErrors).toEqual([
      expect.objectContaining({ fieldName: "preferences.SPEEDING.threshold", errorCode: "INVALID" }),
    ]);
    const unknownKind = await me(
      d,
      "POST",
      "/me/alerts/settings",
      settings([{ kind: "SUNRISE", email: true, browser: false }]),
    );
    expect(unknownKind.status).toBe(400);
    const badClock = await me(d, "POST", "/me/alerts/settings", settings([], { from: "25:00", to: "07:00" }));
    expect(badClock.status).toBe(400);
    expect(badClock.body.error.fieldErrors[0].fieldName).toBe("quietHours.from");
    const notJson = await d.browser.request("POST", "/me/alerts/test", {
      headers: { "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    const anonymous = await new Browser(undefined, own.app.baseUrl).request("GET", "/me/alerts");
    expect(anonymous.status).toBe(401);
  });

  it("deleting the account deletes its preferences and alerts", async () => {
    const d = await driver();
    await me(d, "POST", "/me/alerts/settings", settings([{ kind: "IGNITION_ON", email: true, browser: false }]));
    await post(d, [dataSet(new Date(Date.now() - 1000), "ON")]);
    const [alert] = await alertsOf(d);
    const [owner] = await sql<{ account_id: number }[]>`select account_id from alerts where id = ${alert!.id}`;
    const accountId = owner!.account_id;
    const deleted = await me(d, "DELETE", "/me/account", { confirmUsername: d.username });
    expect(deleted.status, deleted.text).toBe(200);
    const [left] = await sql<{ n: number }[]>`
      select (select count(*) from alerts where account_id = ${accountId})::int
           + (select count(*) from alert_preferences where account_id = ${accountId})::int
           + (select count(*) from alert_deliveries where alert_id = ${alert!.id})::int as n`;
    expect(left!.n).toBe(0);
  });

  it("the browser channel: one Web Push per alert to the driver's browser; none subscribed is listed not sent", async () => {
    const d = await driver();
    await me(d, "POST", "/me/alerts/settings", settings([{ kind: "LOW_BATTERY", email: false, browser: true }]));
    // Not subscribed yet: the alert is listed, its browser channel not sent and why.
    await post(d, [dataSet(new Date(Date.now() - 300_000), "ON", [{ key: "GEN_VOLTAGE", value: 11.5 }])]);
    await waitFor(async () => (await alertsOf(d))[0]?.channels[0]?.outcome === "not sent", { what: "not sent" });
    expect((await alertsOf(d))[0]!.channels[0]!.reason).toBe("No browser of yours has notifications turned on.");

    const key = (await me(d, "GET", "/me/push")).body.push.publicKey as string;
    const browser = push.subscribe(key);
    expect((await me(d, "POST", "/me/push/subscribe", browser.toJSON())).status).toBe(200);
    // Clear for two minutes, then low again: a new episode, pushed to the browser.
    await post(d, [
      dataSet(new Date(Date.now() - 200_000), "ON", [{ key: "GEN_VOLTAGE", value: 12.6 }]),
      dataSet(new Date(Date.now() - 60_000), "ON", [{ key: "GEN_VOLTAGE", value: 12.6 }]),
      dataSet(new Date(Date.now() - 50_000), "ON", [{ key: "GEN_VOLTAGE", value: 11.4 }]),
      dataSet(new Date(Date.now() - 40_000), "ON", [{ key: "GEN_VOLTAGE", value: 11.3 }]),
    ]);
    await waitFor(async () => browser.messages.length > 0, { what: "the push message" });
    expect(JSON.parse(browser.messages[0]!.text)).toMatchObject({
      title: "Wayline: Low battery (Alert wagon)",
      body: "Low battery: 11.4 V",
      url: "/alerts",
    });
    await waitFor(async () => (await alertsOf(d))[0]?.channels[0]?.outcome === "delivered", { what: "delivered" });
    expect(browser.messages).toHaveLength(1);
    expect(await alertsOf(d)).toHaveLength(2);
  });

  it("preferences saved between two posts count from the next post (a post that skips its read checks them)", async () => {
    const d = await driver();
    const at = (seconds: number) => new Date(Date.now() - 600_000 + seconds * 1000);
    // No alert chosen: what this post leaves is the next post's read (recent-reads.ts).
    await post(d, [dataSet(at(0), "ON", [{ key: "GEN_SPEED", value: 90 }])]);
    await me(
      d,
      "POST",
      "/me/alerts/settings",
      settings([{ kind: "SPEEDING", email: true, browser: false, threshold: 50, unit: "mph" }]),
    );
    await post(d, [dataSet(at(10), "ON", [{ key: "GEN_SPEED", value: 91 }])]);
    expect((await alertsOf(d)).map((a) => a.what)).toEqual(["Speed 91 mph, above your limit of 50 mph"]);
  });

  it("Download my data holds the alert settings and every alert with its channels", async () => {
    const d = await driver();
    await me(
      d,
      "POST",
      "/me/alerts/settings",
      settings([{ kind: "IGNITION_ON", email: true, browser: true }], { from: "22:00", to: "06:00" }),
    );
    await post(d, [dataSet(new Date(Date.now() - 120_000), "OFF"), dataSet(new Date(Date.now() - 60_000), "ON")]);
    const zip = await downloadBytes(d.browser, "/me/export", own.app.baseUrl);
    expect(zip.status).toBe(200);
    const exported = JSON.parse(strFromU8(unzipSync(zip.bytes)["alerts.json"]!));
    expect(exported.quietHours).toEqual({ from: "22:00", to: "06:00" });
    expect(exported.preferences).toEqual([
      { kind: "IGNITION_ON", email: true, browser: true, threshold: null, unit: null },
    ]);
    expect(exported.alerts).toHaveLength(1);
    expect(exported.alerts[0]).toMatchObject({ kind: "IGNITION_ON", what: "Ignition on", vehicleId: d.vehicleId });
    expect(exported.alerts[0].channels.map((c: { channel: string }) => c.channel)).toEqual(["email", "browser"]);
  });
});
