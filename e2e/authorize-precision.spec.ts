import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { baseUrl, dataSet, keepOnLoopback, newDriver, shot, signIn } from "./support/driver";
import { createPartnerApp, startCallbackServer } from "./support/partner-app";

// The consent choice in Chromium (docs/oauth.md#scopes): an app asks for location, data and the
// account; the driver grants location as approximate on the authorization page, and the app's
// token then reads the vehicle's position rounded to 0.01° through the API. Later, on "Connected
// apps", the driver changes it to none, and the same token reads no position at all.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

const LAT = 39.961178;
const LON = -82.998794;

test("the driver grants location as approximate on the consent page, then none on Connected apps", async ({
  page,
  request,
}, testInfo) => {
  // A ceiling for two apps made by the operator CLI (a process each) and an axe scan: 55 s at load 14.
  test.setTimeout(120_000);
  const callback = await startCallbackServer();
  try {
    const appName = `E2E Precision ${Date.now().toString(36)} ${testInfo.project.name}`;
    const app = (await createPartnerApp(appName, callback.redirectUri)).sandbox;
    // A driver with a vehicle whose device reported a position (through another app of theirs).
    const driver = await newDriver("precision");
    const car = await driver.addVehicle("Rounded car");
    await driver.post(car, [dataSet(new Date(Date.now() - 60_000), "RUNNING", LAT, LON)]);
    await signIn(page, driver, "/connected-apps");

    const params = new URLSearchParams({
      client_id: app.clientId,
      redirect_uri: callback.redirectUri,
      response_type: "code",
      state: "precision",
      scope: "location:precise data account",
    });
    await page.goto(`/oauth/authorize?${params}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Allow ${appName} to access your account?`);
    const location = page.getByRole("group", { name: "Share your vehicles' location" });
    await expect(location.getByRole("radio")).toHaveCount(3);
    await expect(location.getByRole("radio", { name: /^Precise/ })).toBeChecked();
    await location.getByRole("radio", { name: /^Approximate/ }).check();
    await expectAccessible(page);
    await shot(page, "consent-approximate");
    await page.getByRole("button", { name: "Allow" }).click();

    await page.waitForURL((url) => url.href.startsWith(callback.redirectUri));
    const back = callback.received.at(-1)!;
    expect(back.searchParams.get("state")).toBe("precision");
    const exchanged = await request.post("/sandbox/oauth/token", {
      headers: { Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}` },
      form: {
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        redirect_uri: callback.redirectUri,
      },
    });
    expect(exchanged.status()).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; scope: string };
    expect(tokens.scope).toBe("location:approximate data account");
    const read = async (path: string) => {
      const res = await fetch(`${baseUrl()}/sandbox/api${path}`, {
        headers: { Authorization: `Bearer ${tokens.access_token}` },
      });
      expect(res.status).toBe(200);
      return res.json();
    };

    // Approximate: the position rounded to 0.01°, on the vehicle and in its data points.
    expect((await read(`/vehicle/${car}`)).vehicle.lastWaypoint).toMatchObject({ latitude: 39.96, longitude: -83 });
    expect((await read(`/vehicle/${car}/data/?key=GEN_WAYPOINT`)).data.map((d: { value: string }) => d.value)).toEqual([
      "39.96,-83",
    ]);

    // Connected apps: what the app may do, and the choice of precision changed to none.
    await page.goto("/connected-apps");
    const item = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: appName }) });
    await expect(item.getByRole("list", { name: "It can, until you revoke it:" })).toContainText(
      "See and manage your vehicles, with their positions to about 1 km, trips and device data.",
    );
    const select = item.getByRole("combobox", { name: `Location for ${appName}` });
    await expect(select).toHaveValue("approximate");
    await select.selectOption("none");
    await item.getByRole("button", { name: `Save location for ${appName}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "now sees" })).toHaveText(
      `${appName} now sees your vehicles' location: None.`,
    );
    await expect(item.getByRole("combobox", { name: `Location for ${appName}` })).toHaveValue("none");
    await shot(page, "connected-apps-none");

    // None: the same token reads the vehicle without a position, and the points without values.
    expect((await read(`/vehicle/${car}`)).vehicle.lastWaypoint).toBeNull();
    expect((await read(`/vehicle/${car}/data/?key=GEN_WAYPOINT`)).data.map((d: { value: unknown }) => d.value)).toEqual(
      [null],
    );
  } finally {
    await callback.close();
  }
});
