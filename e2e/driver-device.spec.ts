import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { e2eSql } from "./support/database";
import { keepOnLoopback, newDriver, pageErrors, shot, signIn } from "./support/driver";

// "Connect a device" on the driver's vehicle page (docs/devices.md#seeing-the-device): what to type
// into the tracker (server, port of its protocol, identifier) and what the gateway saw of it, the
// refusal of the id before the vehicle named it in plain words. The gateway does not run beside the
// e2e service: what it kept of the device is written into its table here.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

/** A 15-digit IMEI no other run uses. */
const uniqueImei = () =>
  `${String(Date.now()).slice(-10)}${String(Math.floor(Math.random() * 100_000)).padStart(5, "0")}`;

test("the vehicle page shows where the tracker sends, that it is connected, its records today and its refusal in plain words", async ({
  page,
}) => {
  const errors = pageErrors(page);
  const driver = await newDriver("device");
  const imei = uniqueImei();
  const car = await driver.addVehicle("Tracked car", { deviceId: imei });
  const bare = await driver.addVehicle("Untracked car");
  // Heard from two minutes ago over an open Teltonika connection, 42 records today; an hour ago it
  // tried before the vehicle named its IMEI.
  const [kept] = await e2eSql()<{ refused: Date }[]>`
    insert into device_contacts (environment, device_id, protocol, last_contact_at, last_record_at, records_day,
                                 records_on_day, last_refusal_at, last_refusal_reason, unknown_contacts, connection, connected_at)
    values ('sandbox', ${imei}, 'teltonika', now() - interval '2 minutes', now() - interval '3 minutes',
            (now() at time zone 'UTC')::date, 42, now() - interval '1 hour', 'no vehicle has this deviceId', 1,
            'e2e-connection', now() - interval '30 minutes')
    returning last_refusal_at as refused`;

  await signIn(page, driver, `/vehicles/${car}`);
  const panel = page.getByTestId("connect-device");
  await expect(page.getByRole("heading", { level: 2, name: "Connect a device" })).toBeVisible();
  await expect(panel.locator('[data-field="server"]')).toHaveText("127.0.0.1");
  await expect(panel.locator('[data-field="identifier"]')).toHaveText(imei);
  await expect(panel.locator('[data-field="status"]')).toHaveText("Connected now");
  await expect(panel.locator('[data-field="protocol"]')).toHaveText("Teltonika");
  await expect(panel.locator('[data-field="records-today"]')).toHaveText("42");
  // The account's time zone is America/New_York: the refusal's time as the driver's clock shows it.
  const refusedAt = new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: "America/New_York",
    timeZoneName: "short",
  }).format(kept!.refused);
  await expect(panel.locator('[data-field="last-refusal"]')).toHaveText(
    `This device tried to connect at ${refusedAt} with id ${imei} (Teltonika), but no vehicle had that id yet.`,
  );
  await expect(panel.locator('[data-field="last-refusal"] time')).toHaveAttribute(
    "datetime",
    kept!.refused.toISOString(),
  );
  // The sandbox's ports, the device's own marked.
  const ports = panel.getByRole("region", { name: "Ports" });
  await expect(ports.getByRole("caption")).toHaveText("Ports of the sandbox");
  const teltonika = ports.locator('tr[data-port="teltonika"]');
  await expect(teltonika).toContainText("15027");
  await expect(teltonika).toContainText("this device");
  await expect(teltonika).toHaveAttribute("aria-current", "true");
  await expect(ports.locator('tr[data-port="gt06"]')).toContainText("15023");
  await expect(ports.locator('tr[data-port="shared"]')).toContainText("15000");
  await expect(ports.locator('tr[data-port="osmand"]')).toContainText("http://127.0.0.1:15055");
  await expectAccessible(page);
  await shot(page, "driver-connect-device");

  // A vehicle without an identifier says where to set one.
  await page.goto(`/vehicles/${bare}`);
  await expect(panel.locator('[data-field="identifier"]')).toHaveText(
    "None yet. Enter it as the device serial number under Edit, and save.",
  );
  await expect(panel.locator('[data-field="status"]')).toHaveText("No device named");
  await expect(panel.locator('[data-field="last-refusal"]')).toHaveText("None");
  expect(errors).toEqual([]);
});
