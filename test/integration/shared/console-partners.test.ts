import { describe, expect, it } from "vitest";
import { api, clientToken, tokenRequest, uniqueName, testSql } from "@/test/helpers/api";
import { Browser, hiddenFields, visibleText } from "@/test/helpers/browser";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// The partner console over real HTTP: partner accounts (their own next-auth handler and cookies),
// apps and credentials, the obligations that unlock production, test data, subscriptions,
// notifications, and that no partner reaches another partner's data by guessing ids.

class Partner extends Browser {
  email = `${uniqueName("p")}@partner.example`;
  password = "partner-password-1";
  csrf = "";

  async authCall(provider: "partner-password" | "partner-registration", fields: Record<string, string>) {
    const csrf = JSON.parse((await this.get("/api/partner-auth/csrf")).text).csrfToken as string;
    const res = await this.post(`/api/partner-auth/callback/${provider}`, {
      ...fields,
      csrfToken: csrf,
      callbackUrl: "/console/apps",
      json: "true",
    });
    const url = new URL(JSON.parse(res.text).url as string);
    return { status: res.status, error: url.searchParams.get("error") };
  }

  async signUp() {
    const res = await this.authCall("partner-registration", {
      name: "Pat Partner",
      email: this.email,
      password: this.password,
    });
    if (res.error) throw new Error(`sign-up failed: ${res.error}`);
    await this.loadCsrf();
    return this;
  }

  /** The console's CSRF token, read from a rendered console form as a browser would. */
  async loadCsrf(path = "/console/apps") {
    const page = await this.get(path);
    this.csrf = hiddenFields(page.text).csrfToken ?? "";
    return page;
  }

  action(name: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.post(
      `/console/actions/${name}`,
      { csrfToken: this.csrf, ...form },
      { Accept: "application/json", ...headers },
    ).then((page) => ({ ...page, body: page.text ? JSON.parse(page.text) : null }));
  }

  async createApp(name = uniqueName("app")) {
    const res = await this.action("create-app", {
      name,
      redirectUris: "https://partner.example/callback",
      clientType: "confidential",
    });
    if (res.status !== 200) throw new Error(`create-app failed: ${res.status} ${res.text}`);
    return {
      appId: Number(/\/console\/apps\/(\d+)/.exec(res.body.redirect)![1]),
      clientId: res.body.reveal.clientId as string,
      clientSecret: res.body.reveal.clientSecret as string,
    };
  }
}

const newPartner = () => new Partner().signUp();

describe("partner accounts", () => {
  it("sign-up signs in to the console; the same e-mail again is a field error; a wrong password is refused", async () => {
    const partner = await newPartner();
    const page = await partner.get("/console/apps");
    expect(page.status).toBe(200);
    expect(visibleText(page.text)).toContain(partner.email);

    const again = await new Partner().authCall("partner-registration", {
      name: "X",
      email: partner.email.toUpperCase(),
      password: "another-password",
    });
    expect(JSON.parse(again.error!)).toEqual({
      kind: "fields",
      fieldErrors: [{ fieldName: "email", message: expect.stringContaining("already exists") }],
    });

    const wrong = await new Partner().authCall("partner-password", {
      email: partner.email,
      password: "not-the-password",
    });
    expect(JSON.parse(wrong.error!)).toMatchObject({ kind: "invalid_credentials" });
    const right = new Partner();
    expect(
      (await right.authCall("partner-password", { email: partner.email, password: partner.password })).error,
    ).toBeNull();
    expect((await right.get("/console/apps")).status).toBe(200);
  });

  it("a short password or a bad e-mail at sign-up is a field error", async () => {
    const res = await new Partner().authCall("partner-registration", {
      name: "",
      email: "not-an-email",
      password: "short",
    });
    const fields = JSON.parse(res.error!)
      .fieldErrors.map((f: { fieldName: string }) => f.fieldName)
      .sort();
    expect(fields).toEqual(["email", "name", "password"]);
  });

  it("failed partner sign-ins slow down like the drivers': the fifth wrong password starts a wait, then even the right one waits", async () => {
    const partner = await newPartner();
    const guesser = new Partner();
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(
        JSON.parse(
          (await guesser.authCall("partner-password", { email: partner.email, password: `wrong-${i}` })).error!,
        ),
      );
    expect(answers[3]).toEqual({ kind: "invalid_credentials", waitSeconds: 0 });
    expect(answers[4].waitSeconds).toBeGreaterThan(0);
    const blocked = await new Partner().authCall("partner-password", {
      email: partner.email,
      password: partner.password,
    });
    expect(JSON.parse(blocked.error!)).toMatchObject({ kind: "throttled" });
  });

  it("GET /console/apps without a session → the sign-in page, with the way back", async () => {
    const res = await new Browser().get("/console/apps");
    expect(res.status).toBe(307);
    expect(res.location).toContain("/console/sign-in?callbackUrl=%2Fconsole%2Fapps");
  });

  it("a partner session is no driver session, and a driver session is no partner session", async () => {
    const partner = await newPartner();
    expect(await partner.session()).toEqual({});
    const driverSite = await partner.get("/connected-apps");
    expect([302, 307]).toContain(driverSite.status);
    expect(driverSite.location).toContain("/login");

    const driver = new Browser();
    await driver.register("sandbox");
    const consolePage = await driver.get("/console/apps");
    expect(consolePage.status).toBe(307);
    expect(consolePage.location).toContain("/console/sign-in");
    expect(JSON.parse((await driver.get("/api/partner-auth/session")).text)).toEqual({});
  });

  it("sign-out ends the partner session", async () => {
    const partner = await newPartner();
    const csrf = JSON.parse((await partner.get("/api/partner-auth/csrf")).text).csrfToken as string;
    await partner.post("/api/partner-auth/signout", { csrfToken: csrf, callbackUrl: "/console/sign-in", json: "true" });
    expect((await partner.get("/console/apps")).status).toBe(307);
  });
});

describe("apps and credentials", () => {
  it("create-app reveals a sandbox secret that works at the token endpoint; no production client exists yet", async () => {
    const partner = await newPartner();
    const app = await partner.createApp();
    expect(app.clientId).toMatch(/^wl_sbx_/);
    expect(await clientToken(app)).toMatch(/.+/);
    const [row] =
      await testSql()`select count(*)::int as n from app_credentials where app_id = ${app.appId} and environment = 'production'`;
    expect(row!.n).toBe(0);
    const page = await partner.get(`/console/apps/${app.appId}`);
    expect(visibleText(page.text)).toContain(app.clientId);
    expect(page.text).not.toContain(app.clientSecret);
  });

  it("rotate-secret: the old sandbox secret is refused at once, the new one works", async () => {
    const partner = await newPartner();
    const app = await partner.createApp();
    const rotated = await partner.action("rotate-secret", { appId: String(app.appId), environment: "sandbox" });
    expect(rotated.status).toBe(200);
    expect(rotated.body.reveal.clientId).toBe(app.clientId);
    const old = await tokenRequest({ grant_type: "client_credentials" }, { basic: app });
    expect(old.status).toBe(401);
    expect(await clientToken({ clientId: app.clientId, clientSecret: rotated.body.reveal.clientSecret })).toMatch(/.+/);
    expect(
      (await partner.action("rotate-secret", { appId: String(app.appId), environment: "production" })).status,
    ).toBe(409);
  });

  it("confirm-obligations needs all three; then production credentials work, once", async () => {
    const partner = await newPartner();
    const app = await partner.createApp();
    const partial = await partner.action("confirm-obligations", { appId: String(app.appId), credentials: "on" });
    expect(partial.status).toBe(400);
    expect(partial.body.fieldErrors.map((f: { fieldName: string }) => f.fieldName).sort()).toEqual([
      "dataStatement",
      "driverSite",
    ]);

    const confirmed = await partner.action("confirm-obligations", {
      appId: String(app.appId),
      credentials: "on",
      driverSite: "on",
      dataStatement: "on",
    });
    expect(confirmed.status).toBe(200);
    const production = {
      clientId: confirmed.body.reveal.clientId as string,
      clientSecret: confirmed.body.reveal.clientSecret as string,
    };
    expect(production.clientId).toMatch(/^wl_live_/);
    const token = await clientToken(production);
    expect((await api("production").get("/account/", token)).status).toBe(200);
    const [row] = await testSql()`select obligations_confirmed_at from partner_app_owners where app_id = ${app.appId}`;
    expect(row!.obligations_confirmed_at).toBeInstanceOf(Date);

    expect(
      (
        await partner.action("confirm-obligations", {
          appId: String(app.appId),
          credentials: "on",
          driverSite: "on",
          dataStatement: "on",
        })
      ).status,
    ).toBe(409);
  });

  it("update-app: redirect URIs are checked per docs/oauth.md#authorization-page; valid ones are saved", async () => {
    const partner = await newPartner();
    const app = await partner.createApp();
    const bad = await partner.action("update-app", {
      appId: String(app.appId),
      name: "Renamed",
      redirectUris: "javascript:alert(1)\nhttps://ok.example/cb",
      clientType: "public",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors[0].fieldName).toBe("redirectUris");
    expect(bad.body.fieldErrors[0].errorDisplay).toContain("javascript");

    const empty = await partner.action("update-app", {
      appId: String(app.appId),
      name: " ",
      redirectUris: "",
      clientType: "confidential",
    });
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors[0].fieldName).toBe("name");

    const good = await partner.action("update-app", {
      appId: String(app.appId),
      name: "Renamed app",
      redirectUris:
        "https://ok.example/cb\ncarlocator://cb\nhttp://sandbox-only.example/cb\nhttp://127.0.0.1:8080/#/authorized",
      clientType: "public",
    });
    expect(good.status).toBe(200);
    const [row] = await testSql()`select name, redirect_uris, is_public from partner_apps where id = ${app.appId}`;
    expect(row).toEqual({
      name: "Renamed app",
      redirect_uris: [
        "https://ok.example/cb",
        "carlocator://cb",
        "http://sandbox-only.example/cb",
        "http://127.0.0.1:8080/#/authorized",
      ],
      is_public: true,
    });
    expect(visibleText((await partner.get(`/console/apps/${app.appId}`)).text)).toContain("work in the sandbox only");
  });

  it("without JavaScript a console form post is answered 303 to the page", async () => {
    const partner = await newPartner();
    const app = await partner.createApp();
    const res = await partner.post("/console/actions/update-app", {
      csrfToken: partner.csrf,
      appId: String(app.appId),
      name: "Plain form",
      redirectUris: "",
      clientType: "confidential",
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/console/apps/${app.appId}`);
  });

  // A partner who clicks before the page's script has run (a slow connection) posts the form plainly:
  // what is shown only once must not be lost in a redirect.
  it("without JavaScript a form that reveals values once answers a page with them and a Done button to the next page", async () => {
    const partner = await newPartner();
    const name = uniqueName("plain");
    const res = await partner.post("/console/actions/create-app", {
      csrfToken: partner.csrf,
      name,
      redirectUris: "https://partner.example/callback",
      clientType: "confidential",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const shown = Object.fromEntries(
      [...res.text.matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [m[1], m[2]]),
    );
    expect(Object.keys(shown)).toEqual(["environment", "clientId", "clientSecret"]);
    // The values shown are the app's: its sandbox credentials get a token.
    const [app] = await testSql()`select id from partner_apps where name = ${name}`;
    expect(await clientToken({ clientId: shown.clientId!, clientSecret: shown.clientSecret! })).toMatch(/\S/);
    expect(res.text).toContain(
      `<form method="get" action="/console/apps/${app!.id}"><button type="submit">Done</button></form>`,
    );

    // A next page with a query keeps it (a GET form drops its action's query: hidden fields carry it).
    const account = await partner.action("create-test-account", { appId: String(app!.id) });
    const vehicle = await partner.action("create-test-vehicle", {
      appId: String(app!.id),
      accountId: String(account.body.reveal.accountId),
    });
    const sub = await partner.post("/console/actions/create-subscription", {
      csrfToken: partner.csrf,
      appId: String(app!.id),
      environment: "sandbox",
      scope: "VEHICLE",
      target: String(vehicle.body.reveal.vehicleId),
      type: "WAYPOINT",
      notificationPeriod: "CONTINUOUS",
      minimumTime: "0",
      delivery: "HTTP_POST",
      postUrl: "https://partner.example/hook",
    });
    expect(sub.status).toBe(200);
    expect(sub.text).toMatch(/<dt>subscriptionId<\/dt><dd>\d+<\/dd>/);
    expect(sub.text).toContain(
      `<form method="get" action="/console/apps/${app!.id}/subscriptions"><input type="hidden" name="env" ` +
        `value="sandbox"><button type="submit">Done</button></form>`,
    );
  });
});

describe("console form posts are protected", () => {
  it("no CSRF token → 403; a token of another session → 403; another origin → 403; no session → 401; unknown action → 404", async () => {
    const partner = await newPartner();
    const other = await newPartner();
    const app = await partner.createApp();
    const form = { appId: String(app.appId), environment: "sandbox" };
    expect((await partner.post("/console/actions/rotate-secret", form, { Accept: "application/json" })).status).toBe(
      403,
    );
    expect(
      (
        await partner.post(
          "/console/actions/rotate-secret",
          { ...form, csrfToken: other.csrf },
          { Accept: "application/json" },
        )
      ).status,
    ).toBe(403);
    expect((await partner.action("rotate-secret", form, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await partner.action("rotate-secret", form, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect(
      (
        await new Browser().post(
          "/console/actions/rotate-secret",
          { ...form, csrfToken: partner.csrf },
          { Accept: "application/json" },
        )
      ).status,
    ).toBe(401);
    expect((await partner.action("no-such-action", form)).status).toBe(404);
    // Nothing was rotated by the refused posts.
    expect(await clientToken(app)).toMatch(/.+/);
  });

  it("malformed ids and bodies are 4xx, never 500", async () => {
    const partner = await newPartner();
    expect((await partner.action("rotate-secret", { appId: "abc", environment: "sandbox" })).status).toBe(404);
    expect((await partner.action("rotate-secret", { appId: "99999999999999", environment: "sandbox" })).status).toBe(
      404,
    );
    expect((await partner.action("create-app", {})).status).toBe(400);
    expect(
      (await partner.action("create-subscription", { appId: "1", environment: "moon", scope: "X", type: "Y" })).status,
    ).toBe(400);
    expect((await partner.get("/console/apps/abc")).status).toBe(404);
    expect((await partner.get("/console/apps/1/notifications/xyz")).status).toBe(404);
  });

  it("every refusal is the console's form-error body { error, fieldErrors } with its status, never cached", async () => {
    const partner = await newPartner();
    const app = await partner.createApp();
    const refusal = (res: { status: number; body: unknown; headers: Headers }) => ({
      status: res.status,
      body: res.body,
      cache: res.headers.get("cache-control"),
    });
    const noSession = await new Browser()
      .post("/console/actions/create-app", { csrfToken: partner.csrf }, { Accept: "application/json" })
      .then((p) => ({ ...p, body: JSON.parse(p.text) }));
    expect(refusal(noSession)).toEqual({
      status: 401,
      body: { error: "Your session has ended. Sign in again.", fieldErrors: [] },
      cache: "no-store",
    });
    expect(refusal(await partner.action("no-such-action", {}))).toEqual({
      status: 404,
      body: { error: "No such action.", fieldErrors: [] },
      cache: "no-store",
    });
    expect(refusal(await partner.action("create-app", { name: "x" }, { "Content-Type": "application/json" }))).toEqual({
      status: 415,
      body: { error: "Send the form as form data.", fieldErrors: [] },
      cache: "no-store",
    });
    expect(refusal(await partner.action("rotate-secret", { appId: "abc", environment: "sandbox" }))).toEqual({
      status: 404,
      body: { error: "No such app in your console.", fieldErrors: [] },
      cache: "no-store",
    });
    expect(
      refusal(await partner.action("create-app", { name: "a\u0000b", redirectUris: "", clientType: "confidential" })),
    ).toEqual({
      status: 400,
      body: {
        error: "Check the highlighted fields.",
        fieldErrors: [
          { fieldName: "name", errorCode: "INVALID", errorDisplay: "Must not contain the NUL character (U+0000)." },
        ],
      },
      cache: "no-store",
    });
    // A refusal thrown by the console's services (the one error type) is translated the same way.
    const confirm = { appId: String(app.appId), credentials: "on", driverSite: "on", dataStatement: "on" };
    expect((await partner.action("confirm-obligations", confirm)).status).toBe(200);
    expect(refusal(await partner.action("confirm-obligations", confirm))).toEqual({
      status: 409,
      body: { error: "Production credentials were already issued; rotate the secret if you lost it.", fieldErrors: [] },
      cache: "no-store",
    });
  });
});

// A partner with an app, a sandbox test account with a vehicle, and a WAYPOINT subscription on it
// that has fired once, all made through the console.
async function partnerWithData() {
  const partner = await newPartner();
  const app = await partner.createApp();
  const account = await partner.action("create-test-account", { appId: String(app.appId) });
  expect(account.status).toBe(200);
  const accountId = account.body.reveal.accountId as number;
  const vehicle = await partner.action("create-test-vehicle", {
    appId: String(app.appId),
    accountId: String(accountId),
  });
  expect(vehicle.status).toBe(200);
  const vehicleId = vehicle.body.reveal.vehicleId as number;
  const sub = await partner.action("create-subscription", {
    appId: String(app.appId),
    environment: "sandbox",
    scope: "VEHICLE",
    target: String(vehicleId),
    type: "WAYPOINT",
    notificationPeriod: "CONTINUOUS",
    minimumTime: "0",
    delivery: "HTTP_POST",
    postUrl: "https://partner.example/hook",
  });
  expect(sub.status).toBe(200);
  const subscriptionId = sub.body.reveal.subscriptionId as number;
  const token = await clientToken(app);
  const posted = await api("sandbox").post(
    `/vehicle/${vehicleId}/dataSet/`,
    dataSet(new Date(Date.now() - 60_000), "RUNNING", [waypoint(39.96, -82.99)]),
    token,
  );
  expect(posted.status).toBe(200);
  const [note] = await testSql()`select id from notifications where subscription_id = ${subscriptionId}`;
  return { partner, app, accountId, vehicleId, subscriptionId, notificationId: Number(note!.id), token };
}

describe("connected accounts, subscriptions and notifications", () => {
  it("two clicks make a test account and a vehicle the app sees through its API token; the page lists them", async () => {
    const { partner, app, accountId, vehicleId, token } = await partnerWithData();
    expect((await api("sandbox").get(`/account/${accountId}`, token)).status).toBe(200);
    expect((await api("sandbox").get(`/vehicle/${vehicleId}`, token)).status).toBe(200);
    const page = visibleText((await partner.get(`/console/apps/${app.appId}/accounts?env=sandbox`)).text);
    expect(page).toContain(`account ${accountId}`);
    expect(page).toContain("created by this app");
  });

  it("a WAYPOINT subscription made in the console fires on a posted data set; the list and the detail show it", async () => {
    const { partner, app, vehicleId, subscriptionId, notificationId } = await partnerWithData();
    const subs = visibleText((await partner.get(`/console/apps/${app.appId}/subscriptions?env=sandbox`)).text);
    expect(subs).toContain(`subscription ${subscriptionId}`);
    expect(subs).toContain("https://partner.example/hook");
    const list = await partner.get(
      `/console/apps/${app.appId}/notifications?env=sandbox&vehicle=${vehicleId}&type=WAYPOINT`,
    );
    expect(list.text).toContain(`notification-${notificationId}`);
    const filteredOut = await partner.get(`/console/apps/${app.appId}/notifications?env=sandbox&type=GEOFENCE`);
    expect(filteredOut.text).not.toContain(`notification-${notificationId}`);
    const future = await partner.get(`/console/apps/${app.appId}/notifications?env=sandbox&from=2099-01-01T00:00`);
    expect(future.text).not.toContain(`notification-${notificationId}`);
    const detail = visibleText((await partner.get(`/console/apps/${app.appId}/notifications/${notificationId}`)).text);
    expect(detail).toContain(`"subscriptionId": ${subscriptionId}`);
    expect(detail).toContain('"_type": "WAYPOINT"');
    expect(detail).toContain('"recordedWaypoint"');
  });

  it("subscription form errors come back per field; invalid combinations are refused", async () => {
    const { partner, app, vehicleId } = await partnerWithData();
    const base = { appId: String(app.appId), environment: "sandbox", scope: "VEHICLE", target: String(vehicleId) };
    const geofence = await partner.action("create-subscription", {
      ...base,
      type: "GEOFENCE",
      latitude: "95",
      longitude: "-82",
      radius: "-1",
    });
    expect(geofence.status).toBe(400);
    const fields = geofence.body.fieldErrors.map((f: { fieldName: string }) => f.fieldName);
    expect(fields).toEqual(expect.arrayContaining(["latitude", "radius"]));
    const period = await partner.action("create-subscription", {
      ...base,
      type: "IGNITIONSTATUS",
      notificationPeriod: "CONTINUOUS",
    });
    expect(period.status).toBe(400);
    expect(period.body.fieldErrors[0].fieldName).toBe("notificationPeriod");
    const scope = await partner.action("create-subscription", { ...base, type: "AUTHORIZATIONSTATUS" });
    expect(scope.status).toBe(400);
    expect(scope.body.fieldErrors[0].fieldName).toBe("type");
    const system = await partner.action("create-subscription", {
      appId: String(app.appId),
      environment: "sandbox",
      scope: "SYSTEM",
      type: "AUTHORIZATIONSTATUS",
    });
    expect(system.status).toBe(200);
  });

  it("reactivate-delivery switches a deactivated delivery back on; delete marks the subscription deleted", async () => {
    const { partner, app, subscriptionId } = await partnerWithData();
    const [delivery] = await testSql()`update subscription_deliveries set active = false, deactivation_reason =
        'HTTP 410 at 20260101T000000+0000', deactivated_at = now() where subscription_id =
        ${subscriptionId} returning id`;
    expect(visibleText((await partner.get(`/console/apps/${app.appId}/subscriptions?env=sandbox`)).text)).toContain(
      "HTTP 410 at",
    );
    const res = await partner.action("reactivate-delivery", {
      appId: String(app.appId),
      environment: "sandbox",
      subscriptionId: String(subscriptionId),
      deliveryId: String(delivery!.id),
    });
    expect(res.status).toBe(200);
    const [after] =
      await testSql()`select active, deactivation_reason from subscription_deliveries where id = ${delivery!.id}`;
    expect(after).toEqual({ active: true, deactivation_reason: null });

    expect(
      (
        await partner.action("delete-subscription", {
          appId: String(app.appId),
          environment: "sandbox",
          subscriptionId: String(subscriptionId),
        })
      ).status,
    ).toBe(200);
    const [sub] = await testSql()`select deleted_at from subscriptions where id = ${subscriptionId}`;
    expect(sub!.deleted_at).toBeInstanceOf(Date);
  });
});

describe("no data of another partner is reachable", () => {
  it("partner B cannot see partner A's app, accounts, subscriptions or notifications by URL", async () => {
    const a = await partnerWithData();
    const b = await newPartner();
    const base = `/console/apps/${a.app.appId}`;
    for (const path of [
      base,
      `${base}/accounts?env=sandbox`,
      `${base}/subscriptions?env=sandbox`,
      `${base}/notifications?env=sandbox`,
      `${base}/notifications/${a.notificationId}`,
    ]) {
      const res = await b.get(path);
      expect(res.status, path).toBe(404);
      expect(res.text).not.toContain(a.app.clientId);
    }
    expect(visibleText((await b.get("/console/apps")).text)).not.toContain(a.app.clientId);
    // A's notification under B's own app id is not found either.
    const bApp = await b.createApp();
    expect((await b.get(`/console/apps/${bApp.appId}/notifications/${a.notificationId}`)).status).toBe(404);
  });

  it("partner B cannot rename, rotate, confirm, add test data to, subscribe on, delete or reactivate A's things by form post", async () => {
    const a = await partnerWithData();
    const b = await newPartner();
    const bApp = await b.createApp();
    const appId = String(a.app.appId);
    const [delivery] =
      await testSql()`select id from subscription_deliveries where subscription_id = ${a.subscriptionId}`;
    const attempts: [string, Record<string, string>][] = [
      ["update-app", { appId, name: "Hijacked", redirectUris: "", clientType: "confidential" }],
      ["rotate-secret", { appId, environment: "sandbox" }],
      ["confirm-obligations", { appId, credentials: "on", driverSite: "on", dataStatement: "on" }],
      ["create-test-account", { appId }],
      ["create-test-vehicle", { appId, accountId: String(a.accountId) }],
      ["create-test-vehicle", { appId: String(bApp.appId), accountId: String(a.accountId) }],
      [
        "create-subscription",
        { appId, environment: "sandbox", scope: "VEHICLE", target: String(a.vehicleId), type: "WAYPOINT" },
      ],
      [
        "create-subscription",
        {
          appId: String(bApp.appId),
          environment: "sandbox",
          scope: "VEHICLE",
          target: String(a.vehicleId),
          type: "WAYPOINT",
        },
      ],
      [
        "create-subscription",
        {
          appId: String(bApp.appId),
          environment: "sandbox",
          scope: "ACCOUNT",
          target: String(a.accountId),
          type: "WAYPOINT",
        },
      ],
      ["delete-subscription", { appId, environment: "sandbox", subscriptionId: String(a.subscriptionId) }],
      [
        "delete-subscription",
        { appId: String(bApp.appId), environment: "sandbox", subscriptionId: String(a.subscriptionId) },
      ],
      [
        "reactivate-delivery",
        {
          appId: String(bApp.appId),
          environment: "sandbox",
          subscriptionId: String(a.subscriptionId),
          deliveryId: String(delivery!.id),
        },
      ],
    ];
    for (const [name, form] of attempts) {
      const res = await b.action(name, form);
      expect(res.status, `${name} ${JSON.stringify(form)}`).toBe(404);
    }
    const [app] = await testSql()`select name from partner_apps where id = ${a.app.appId}`;
    expect(app!.name).not.toBe("Hijacked");
    expect(await clientToken(a.app)).toMatch(/.+/);
    const [sub] = await testSql()`select deleted_at from subscriptions where id = ${a.subscriptionId}`;
    expect(sub!.deleted_at).toBeNull();
    const [owner] =
      await testSql()`select obligations_confirmed_at from partner_app_owners where app_id = ${a.app.appId}`;
    expect(owner!.obligations_confirmed_at).toBeNull();
  });
});

describe("API reference", () => {
  it("GET /docs is public, loads its renderer from this origin, and renders the document that names both base URLs", async () => {
    // The reference itself is drawn in the browser (e2e/docs-reference.spec.ts); the guides' flows are run by guides.test.ts.
    const res = await new Browser().get("/docs");
    expect(res.status).toBe(200);
    expect(res.text).toContain("/sandbox/api/openapi.json");
    expect(res.text).toContain("/docs/assets/api-reference.js");
    expect(res.text).not.toMatch(/<script[^>]+src="https?:\/\//);
    const document = JSON.parse((await new Browser().get("/sandbox/api/openapi.json")).text) as {
      info: { description: string };
    };
    for (const part of ["/v1/api", "/sandbox/api", "/sandbox/oauth/token", "/oauth/revoke", "/docs/guides/oauth"])
      expect(document.info.description).toContain(part);
    const production = await new Browser().get("/docs?env=production");
    expect(production.status).toBe(200);
    expect(production.text).toContain("/v1/api/openapi.json");
  });
});
