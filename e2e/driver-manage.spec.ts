import { expect, test } from "@playwright/test";
import { baseUrl, keepOnLoopback, newDriver, shot, signIn } from "./support/driver";

// Managing vehicles and the account in Chromium: inline field errors from the API's schemas,
// deletions behind confirmations that say what is lost.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

const apiGet = (path: string, token: string) =>
  fetch(`${baseUrl()}/sandbox/api${path}`, { headers: { Authorization: `Bearer ${token}` } });

test("a driver edits a vehicle: a bad VIN is shown on its field, a good edit is saved", async ({ page }) => {
  const driver = await newDriver("edit");
  const car = await driver.addVehicle("Old label");
  await signIn(page, driver, `/vehicles/${car}`);

  await page.getByLabel("VIN").fill("12345");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByLabel("VIN")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Must be 17 characters.")).toBeVisible();
  await shot(page, "driver-vehicle-error");

  await page.getByLabel("Label", { exact: true }).fill("New label");
  await page.getByLabel("VIN").fill("1HGCM82633A004352");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New label");
  await expect(page.locator('[data-field="Type"]')).toHaveText("2003 Honda Accord");
  const stored = await (await apiGet(`/vehicle/${car}`, driver.token)).json();
  expect(stored.vehicle).toMatchObject({ label: "New label", vin: "1HGCM82633A004352" });
  await shot(page, "driver-vehicle-saved");
});

test("a driver deletes a vehicle after a confirmation that says all its data goes for good", async ({ page }) => {
  const driver = await newDriver("delveh");
  const car = await driver.addVehicle("Doomed car");
  await signIn(page, driver, `/vehicles/${car}`);

  await page.getByRole("button", { name: "Delete vehicle…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete Doomed car?" });
  await expect(dialog).toContainText("permanently deletes the vehicle and all its data");
  await expect(dialog).toContainText("cannot be undone");
  await shot(page, "driver-vehicle-delete-dialog");
  await dialog.getByRole("button", { name: "Keep vehicle" }).click();
  await expect(dialog).toBeHidden();
  expect((await apiGet(`/vehicle/${car}`, driver.token)).status).toBe(200);

  await page.getByRole("button", { name: "Delete vehicle…" }).click();
  await dialog.getByRole("button", { name: "Delete permanently" }).click();
  await page.waitForURL(/\/map/);
  await expect(page.getByText("Doomed car has been deleted, with all its data.")).toBeVisible();
  expect((await apiGet(`/vehicle/${car}`, driver.token)).status).toBe(404);
});

test("a driver edits the account: field errors inline, the time zone picked from a searchable list, the change saved", async ({
  page,
}) => {
  const driver = await newDriver("account");
  await signIn(page, driver, "/account");

  await page.getByLabel("E-mail").fill("not-an-address");
  await page.getByRole("button", { name: "Save account" }).click();
  await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Must be an e-mail address.")).toBeVisible();

  await page.getByLabel("E-mail").fill("dana.new@example.com");
  await page.getByLabel("First name").fill("Danielle");
  const zone = page.getByLabel("Time zone");
  await expect(zone).toHaveAttribute("list", "account-time-zones");
  expect(await page.locator("#account-time-zones option[value='Europe/Berlin']").count()).toBe(1);
  await zone.fill("Europe/Berlin");
  await page.getByLabel("Preferred contact").selectOption("SMS");
  await page.getByRole("button", { name: "Save account" }).click();
  await expect(page.getByText("Your account is saved.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Site" })).toContainText("Danielle Driver");
  const stored = await (await apiGet(`/account/${driver.accountId}`, driver.token)).json();
  expect(stored.account).toMatchObject({
    firstName: "Danielle",
    email: "dana.new@example.com",
    timeZone: "Europe/Berlin",
    preferredContact: "SMS",
  });
  await shot(page, "driver-account-saved");

  await page.getByLabel("Current password").fill(driver.password);
  await page.getByLabel("New password", { exact: true }).fill("e2e-password-2");
  await page.getByLabel("New password again").fill("e2e-password-2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your password is changed.")).toBeVisible();
});

test("a driver deletes the account after typing the username; it is gone with its vehicles", async ({ page }) => {
  const driver = await newDriver("delacct");
  const car = await driver.addVehicle("Last car");
  await signIn(page, driver, "/account");

  await page.getByRole("button", { name: "Delete account…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toContainText("your vehicle, with every trip, position and reading");
  await dialog.getByLabel(/Type your username/).fill("someone-else");
  await dialog.getByRole("button", { name: "Delete account permanently" }).click();
  await expect(dialog.getByText("Type your username exactly to confirm.")).toBeVisible();
  await shot(page, "driver-account-delete-dialog");

  await dialog.getByLabel(/Type your username/).fill(driver.username);
  await dialog.getByRole("button", { name: "Delete account permanently" }).click();
  await page.waitForURL(/\/login\?deleted=1/);
  await expect(page.getByText("Your account and all its vehicles and data have been deleted.")).toBeVisible();
  expect((await apiGet(`/vehicle/${car}`, driver.token)).status).toBe(401);
  await page.goto("/map");
  await expect(page).toHaveURL(/\/login/);
});
