import { describe, expect, it } from "vitest";
import { createDriver, type Env } from "@/test/helpers/api";
import { Browser, visibleText } from "@/test/helpers/browser";
import { ConsolePartner } from "@/test/helpers/console-partner";
import { seedContact } from "@/test/helpers/device-contacts";
import { addVehicle, apps, uniqueDevice } from "@/test/helpers/fixtures";

// "Connect a device" over real HTTP with real sessions (docs/devices.md#seeing-the-device): the
// driver's vehicle page shows where to send, with the ports of the driver's environment, and what
// the gateway saw of the vehicle's device; no one else's vehicle page opens; the console's
// connected-accounts page shows the same for the app's sandbox vehicles.

const PASSWORD = "correct-horse-1";

async function signedInDriver(env: Env) {
  const driver = await createDriver(env, apps().main[env]);
  const deviceId = uniqueDevice();
  const vehicle = await addVehicle(env, driver.accessToken, { label: "Panel car", deviceId });
  const browser = new Browser();
  expect((await browser.signIn(env, driver.account.username, PASSWORD)).problem).toBeNull();
  return { browser, vehicleId: vehicle.vehicleId, deviceId };
}

/** The text of the panel on a page, from its heading to the ports' last row. */
function panelText(html: string): string {
  const text = visibleText(html);
  const start = text.indexOf("Set the tracker or phone app");
  expect(start, "the page has no Connect a device panel").toBeGreaterThan(-1);
  return text.slice(start, text.indexOf("a tracker with one port for every protocol", start));
}

describe("Connect a device on the driver site's vehicle page", () => {
  it("sandbox: the server, the identifier, the sandbox's ports, the records of today and a refusal in plain words", async () => {
    const { browser, vehicleId, deviceId } = await signedInDriver("sandbox");
    await seedContact("sandbox", deviceId, { protocol: "gt06", records: 7, refusal: { ago: 60, reason: "bad CRC" } });
    const page = await browser.get(`/vehicles/${vehicleId}`);
    expect(page.status).toBe(200);
    const text = panelText(page.text);
    expect(text).toContain("Server address 127.0.0.1");
    expect(text).toContain(`Identifier ${deviceId}`);
    expect(text).toContain("Status Not connected");
    expect(text).toContain("Protocol GT06 / Concox");
    expect(text).toContain("Records today (UTC) 7");
    expect(text).toMatch(
      /Last refusal At .+ the device \(GT06 \/ Concox\) sent a damaged message \(its checksum did not match\), and it was not stored\./,
    );
    expect(text).toContain("Ports of the sandbox");
    expect(text).toMatch(/GT06 \/ Concox \(TCP\) · this device 15023/);
    expect(text).toContain("Teltonika (TCP and UDP) 15027");
    expect(text).toContain("server URL http://127.0.0.1:15055");
    expect(text).toContain("Any of the three (TCP) 15000");
  });

  it("production: production's ports; a device never heard from says so", async () => {
    const { browser, vehicleId, deviceId } = await signedInDriver("production");
    const text = panelText((await browser.get(`/vehicles/${vehicleId}`)).text);
    expect(text).toContain(`Identifier ${deviceId}`);
    expect(text).toContain("Status Not heard from yet");
    expect(text).toContain("Last heard from Never");
    expect(text).toContain("Last refusal None");
    expect(text).not.toContain("of the sandbox");
    expect(text).toContain("Teltonika (TCP and UDP) 5027");
    expect(text).toContain("server URL http://127.0.0.1:5055");
  });

  it("another driver's vehicle page → 404, its device's state nowhere on it", async () => {
    const owner = await signedInDriver("sandbox");
    await seedContact("sandbox", owner.deviceId, { records: 3 });
    const other = await signedInDriver("sandbox");
    const page = await other.browser.get(`/vehicles/${owner.vehicleId}`);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain(owner.deviceId);
  });
});

describe("Connect a device in the console", () => {
  it("the sandbox's connected accounts show each vehicle's panel; production's show none", async () => {
    const partner = await new ConsolePartner().signUp();
    const { appId, vehicleId } = await partner.appWithVehicle();
    const page = await partner.get(`/console/apps/${appId}/accounts?env=sandbox`);
    expect(page.status).toBe(200);
    const serial = /Identifier (SIM-[0-9A-F]{8})/.exec(visibleText(page.text))?.[1];
    expect(serial, "the test vehicle's identifier").toBeTruthy();
    await seedContact("sandbox", serial!, { connection: "conn-console", records: 12 });

    const seen = (await partner.get(`/console/apps/${appId}/accounts?env=sandbox`)).text;
    expect(visibleText(seen)).toContain(`Connect a device to Test car ${serial!.slice(4)} #${vehicleId}`);
    const panel = panelText(seen);
    expect(panel).toContain(`Identifier ${serial}`);
    expect(panel).toContain("Status Connected now");
    expect(panel).toContain("Records today (UTC) 12");
    expect(panel).toContain("Ports of the sandbox");

    const production = await partner.get(`/console/apps/${appId}/accounts?env=production`);
    expect(visibleText(production.text)).not.toContain("Connect a device");
  });
});
