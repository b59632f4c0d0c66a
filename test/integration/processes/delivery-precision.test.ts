import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, tokenRequest } from "@/test/helpers/api";
import { Browser, redirectParams } from "@/test/helpers/browser";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { verifyWebhook } from "@/test/helpers/https-receiver";
import { CALLBACK, codeRequest } from "@/test/helpers/oauth-flow";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { startSmtpReceiver, type ReceivedMail } from "@/test/helpers/smtp-receiver";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// The driver's location precision in what the delivery worker sends (docs/oauth.md#scopes):
// through the real receivers, a service of its own with the worker on, an HTTPS receiver and an
// SMTP server. A driver grants the app location as approximate (or none) on the consent page; the
// app's subscription has an HTTP_POST and an EMAIL delivery; every webhook body and every e-mail
// then carries coordinates rounded to 0.01° and nothing more precise (none: no coordinates at all).
// A precise grant beside them is the control: the same check finds its exact coordinates.

const LAT = 39.961178;
const LON = -82.998794;
/** Digits only a position more precise than 0.01° shows (LAT + 0.0001·i, LON), in any spelling. */
const PRECISE_DIGITS = ["961178", "961278", "961378", "998794"];

let own: AppWithOwnDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  own = await startAppWithOwnDatabase("delivery-precision", { WORKER: "on", SMTP_URL: smtp.url });
}, 240_000);

afterAll(async () => {
  await own?.stop();
  await smtp?.close();
});

const base = () => own.app.baseUrl;
const api = (path: string) => `${base()}/sandbox/api${path}`;

/** A driver registered on the service who allows the app with `scope` (none: a 2014 request) choosing `location`. */
async function grantedToken(scope: string | null, location?: string): Promise<string> {
  const creds = own.partnerApp.sandbox;
  const browser = new Browser(undefined, base());
  await browser.register("sandbox");
  const params = codeRequest(creds, scope === null ? {} : { scope });
  const step = await browser.authorize(`${base()}/oauth/authorize?${new URLSearchParams(params)}`);
  if (step.kind !== "consent") throw new Error(`expected the consent form, got ${step.kind}`);
  const answer = await browser.decide(step, "allow", location ? { location } : {});
  expect(answer.status, answer.text.slice(0, 300)).toBe(303);
  const token = await tokenRequest(
    { grant_type: "authorization_code", code: redirectParams(answer.location!).code!, redirect_uri: CALLBACK },
    { basic: creds, url: `${base()}/oauth/token` },
  );
  expect(token.status, token.text).toBe(200);
  return token.body.access_token as string;
}

/**
 * A vehicle with a subscription of `type` delivered by HTTP_POST to `/<tag>` and by e-mail to
 * `<tag>@partner.example`, then a drive of three positions; the notifications it made.
 */
async function driveWithDeliveries(token: string, tag: string, type: string, criteria: Record<string, unknown>) {
  const vehicle = await request("POST", api("/vehicle/"), { token, json: { label: `Delivered ${tag}` } });
  expect(vehicle.status, vehicle.text).toBe(200);
  const id = vehicle.body.vehicle.vehicleId as number;
  const sub = await request("POST", api(`/vehicle/${id}/eventSubscription/${type}/`), {
    token,
    json: {
      ...criteria,
      deliveries: [
        { type: "HTTP_POST", postUrl: `${own.receiver.url}/${tag}` },
        { type: "EMAIL", recipient: `${tag}@partner.example`, subscriberSubject: `Event for ${tag}` },
      ],
    },
  });
  expect(sub.status, sub.text).toBe(200);
  const start = Date.now() - 10 * 60_000;
  for (const [i, status] of (["ON", "RUNNING", "OFF"] as const).entries()) {
    const body = dataSet(new Date(start + i * 60_000), status, [waypoint(LAT + i / 10_000, LON)]);
    const posted = await request("POST", api(`/vehicle/${id}/dataSet/`), { token, json: body });
    expect(posted.status, posted.text).toBe(200);
  }
  const notes = await request("GET", api(`/vehicle/${id}/eventNotification/`), { token });
  expect(notes.status, notes.text).toBe(200);
  const count = (notes.body.notifications as unknown[]).length;
  expect(count).toBeGreaterThan(0);
  return { vehicleId: id, count };
}

/** An e-mail's body as its reader sees it: decoded from its transfer encoding. */
function mailBody(mail: ReceivedMail): string {
  const split = mail.raw.search(/\r?\n\r?\n/);
  const headers = mail.raw.slice(0, split);
  const body = mail.raw.slice(split).trim();
  const encoding = /^Content-Transfer-Encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  const decoded =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? body
            .replace(/=\r?\n/g, "")
            .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        : body;
  return decoded;
}

/** Every webhook body and e-mail body of a tag, once the worker has sent one of each per notification. */
async function delivered(tag: string, count: number) {
  const hooks = await waitFor(async () => own.receiver.on(`/${tag}`).length >= count && own.receiver.on(`/${tag}`), {
    what: `${count} webhooks to /${tag}`,
    timeoutMs: 60_000,
  });
  const mails = await waitFor(
    async () => {
      const got = smtp.mails.filter((m) => m.to.includes(`${tag}@partner.example`));
      return got.length >= count && got;
    },
    { what: `${count} e-mails to ${tag}@partner.example`, timeoutMs: 60_000 },
  );
  expect(hooks).toHaveLength(count);
  expect(mails).toHaveLength(count);
  // Signed with the app's secret, as every webhook; the parsed body for the checks on fields.
  const bodies = hooks.map((h) => verifyWebhook(own.partnerApp.signingSecret, h) as Record<string, unknown>);
  return { bodies, texts: [...hooks.map((h) => h.body), ...mails.map(mailBody)] };
}

/** Decimal numbers with more than 2 decimals in a text (a coordinate more precise than 0.01°, or any other). */
const overTwoDecimals = (text: string) => [...text.matchAll(/-?\d+\.\d{3,}/g)].map((m) => m[0]);

describe("location precision in webhook and e-mail bodies", () => {
  it("approximate: every webhook body and e-mail carries the position rounded to 0.01°, nothing more precise", async () => {
    const token = await grantedToken("location:approximate data", "approximate");
    const { count } = await driveWithDeliveries(token, "approximate", "WAYPOINT", {});
    expect(count).toBe(3);
    const { bodies, texts } = await delivered("approximate", count);
    for (const body of bodies)
      expect(body.recordedWaypoint).toEqual({ timestamp: expect.any(String), latitude: 39.96, longitude: -83 });
    for (const text of texts) {
      expect(text).toMatch(/"latitude":39\.96,"longitude":-83\b/);
      expect(overTwoDecimals(text)).toEqual([]);
      for (const digits of PRECISE_DIGITS) expect(text).not.toContain(digits);
    }
  }, 120_000);

  it("none: the bodies carry no coordinates at all (recordedWaypoint null)", async () => {
    // Without a location: scope the app asks for none; data lets it subscribe to the ignition.
    const token = await grantedToken("data");
    const { count } = await driveWithDeliveries(token, "none", "IGNITIONSTATUS", { notificationPeriod: "STATECHANGE" });
    const { bodies, texts } = await delivered("none", count);
    for (const body of bodies) expect(body.recordedWaypoint).toBeNull();
    for (const text of texts) {
      expect(text).not.toMatch(/latitude|longitude/);
      expect(text).not.toMatch(/39\.9|82\.99/);
    }
  }, 120_000);

  it("the control: a precise grant's bodies carry the exact coordinates, which the checks above would find", async () => {
    const token = await grantedToken(null);
    const { count } = await driveWithDeliveries(token, "precise", "WAYPOINT", {});
    const { bodies, texts } = await delivered("precise", count);
    expect(bodies.map((b) => (b.recordedWaypoint as { latitude: number }).latitude).sort()).toEqual([
      LAT,
      Number((LAT + 0.0001).toFixed(6)),
      Number((LAT + 0.0002).toFixed(6)),
    ]);
    for (const text of texts) {
      expect(overTwoDecimals(text).length).toBeGreaterThan(0);
      expect(text).toContain("998794");
    }
  }, 120_000);
});
