import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, testSql } from "@/test/helpers/api";
import { ConsolePartner } from "@/test/helpers/console-partner";
import { expectFieldErrors } from "@/test/helpers/fixtures";
import { driverWithVehicle } from "@/test/helpers/telemetry";

// A delivery or app-event URL holding a line break (or a tab, or another control character) is
// refused with 400 naming the field, on every surface that takes one (docs/subscriptions.md#deliveries):
// URL parsers drop such characters silently, so the URL checked was not the text stored, and a line
// break in a URL can split a header or a log line. Nothing of it is stored.

const BROKEN = [
  "https://hooks.partner.example/a\r\nX-Injected: 1",
  "https://hooks.partner.example/a\nb",
  "https://hooks.partner.example/a\rb",
  "https://hooks.partner\t.example/a",
];

describe("API: delivery URLs with CR or LF → 400", () => {
  let car: Awaited<ReturnType<typeof driverWithVehicle>>;
  beforeAll(async () => {
    car = await driverWithVehicle();
  }, 60_000);

  const subscribe = (body: Record<string, unknown>) =>
    api("sandbox").post(
      `/vehicle/${car.vehicleId}/eventSubscription/WAYPOINT/`,
      { notificationPeriod: "CONTINUOUS", ...body },
      car.accessToken,
    );

  it("the legacy postUrl, a delivery's postUrl and the oauth2 map's redirect_uri → 400 INVALID naming each", async () => {
    for (const url of BROKEN) {
      expectFieldErrors(await subscribe({ postUrl: url }), { postUrl: "INVALID" });
      expectFieldErrors(await subscribe({ deliveries: [{ type: "HTTP_POST", postUrl: url }] }), {
        "deliveries.0.postUrl": "INVALID",
      });
      const oauth2 = {
        access_token: "a",
        client_id: "c",
        client_secret: "s",
        refresh_token: "r",
        redirect_uri: url,
      };
      expectFieldErrors(
        await subscribe({ deliveries: [{ type: "HTTP_POST", postUrl: "https://hooks.partner.example/ok", oauth2 }] }),
        { "deliveries.0.oauth2.redirect_uri": "INVALID" },
      );
    }
    // The sandbox inbox's URL, too (plain http on a laptop, checked apart from https ones).
    const inbox = `${inject("baseUrl")}/sandbox/inbox/abc\ndef`;
    expectFieldErrors(await subscribe({ postUrl: inbox }), { postUrl: "INVALID" });

    const listed = await api("sandbox").get(`/vehicle/${car.vehicleId}/eventSubscription/`, car.accessToken);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.subscriptions).toEqual([]);
  });

  it("an update that sets a postUrl with a line break → 400, the stored URL unchanged", async () => {
    const made = await subscribe({ postUrl: "https://hooks.partner.example/first" });
    expect(made.status, made.text).toBe(200);
    const id = made.body.subscription.id as number;
    const update = await api("sandbox").post(
      `/vehicle/${car.vehicleId}/eventSubscription/${id}`,
      { deliveries: [{ type: "HTTP_POST", postUrl: BROKEN[0] }] },
      car.accessToken,
    );
    expectFieldErrors(update, { "deliveries.0.postUrl": "INVALID" });
    const read = await api("sandbox").get(`/vehicle/${car.vehicleId}/eventSubscription/${id}`, car.accessToken);
    expect(read.body.subscription.deliveries.map((d: { postUrl: string }) => d.postUrl)).toEqual([
      "https://hooks.partner.example/first",
    ]);
  });
});

// The console's app-event form also applies the SSRF guard's gate, which refuses reserved names such
// as .example: its URLs are of a public-looking host, so only the line break can be what is refused.
const BROKEN_PUBLIC = BROKEN.map((url) => url.replace("hooks.partner", "receiver.partner").replace(".example", ".io"));

describe("console: the app-event endpoint and the subscription form with CR or LF → 400 naming the field", () => {
  const partner = new ConsolePartner();
  let app: Awaited<ReturnType<ConsolePartner["appWithVehicle"]>>;
  beforeAll(async () => {
    await partner.signUp();
    app = await partner.appWithVehicle();
  }, 60_000);

  it("set-app-event-endpoint → 400 url, nothing stored; the same URL without the break is taken", async () => {
    for (const url of BROKEN_PUBLIC) {
      const res = await partner.action("set-app-event-endpoint", { appId: app.appId, environment: "sandbox", url });
      expect(res.status, res.text).toBe(400);
      expect(res.body.fieldErrors).toEqual([expect.objectContaining({ fieldName: "url" })]);
    }
    const stored = await testSql()`select d.post_url from subscription_deliveries d
      join subscriptions s on s.id = d.subscription_id where s.app_id = ${Number(app.appId)} and s.scope = 'APP'`;
    expect(stored).toEqual([]);
    const fine = await partner.action("set-app-event-endpoint", {
      appId: app.appId,
      environment: "sandbox",
      url: "https://receiver.partner.io/a",
    });
    expect(fine.status, fine.text).toBe(200);
  });

  it("create-subscription with such a postUrl → 400 postUrl", async () => {
    for (const postUrl of BROKEN) {
      const res = await partner.subscribe(app.appId, app.vehicleId, { delivery: "HTTP_POST", postUrl });
      expect(res.status, res.text).toBe(400);
      expect(res.body.fieldErrors).toEqual([expect.objectContaining({ fieldName: "postUrl" })]);
    }
  });
});
